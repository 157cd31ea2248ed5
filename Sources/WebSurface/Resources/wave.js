// KnobLink web surface: the waveform of the server's audio source (PROTOCOL.md §5, SURFACES.md §3).
// The bars are drawn once, when they arrive, onto two stacked canvases: unplayed below, played
// above, clipped at the playhead. A moving playhead draws nothing: it moves the clip and the
// playhead's own element, which the compositor places. Classic script: it adds KnobLink.wave.
(function (root) {
  "use strict";
  const height = 96;
  const dragThreshold = 3;

  function create(page, container) {
    const canvas = container.querySelector("canvas");
    const label = document.getElementById("wave-label");
    const button = document.getElementById("play");
    const wave = {
      bars: new Float32Array(0), seq: -1, count: 0, duration: 0, name: "", playing: false,
      anchor: { progress: 0, time: 0 }, shownX: -1, width: 0, layersValid: false, scrub: null,
    };
    // Over the canvas that takes the pointer (the unplayed bars): the played bars and the playhead.
    const played = document.createElement("canvas");
    const playhead = document.createElement("div");
    played.className = "played";
    playhead.className = "playhead";
    played.setAttribute("aria-hidden", "true");
    container.append(played, playhead);
    if (page.drawAll) played.hidden = playhead.hidden = true;
    let context = null;

    function progressAt(now) {
      const { progress, time } = wave.anchor;
      if (!wave.playing || wave.scrub || !(wave.duration > 0)) return progress;
      return Math.min(1, progress + Math.max(0, now - time) / 1000 / wave.duration);
    }

    function setProgress(progress) {
      wave.anchor = { progress: Math.min(Math.max(progress, 0), 1), time: performance.now() };
      container.setAttribute("aria-valuenow", String(wave.anchor.progress));
      container.setAttribute("aria-valuetext", timeText(wave.anchor.progress));
      page.requestFrame();
    }

    function timeText(progress) {
      const seconds = progress * wave.duration;
      const minutes = Math.floor(seconds / 60);
      return `${minutes}:${(seconds - minutes * 60).toFixed(1).padStart(4, "0")}`;
    }

    function barCount() {
      const ratio = root.devicePixelRatio || 1;
      return Math.min(3840, Math.max(64, Math.round((wave.width * ratio) / 2)));
    }

    function subscribe() {
      wave.count = barCount();
      page.send("/wave/sub", ["", page.int(wave.count), 30, page.int(0)]);
    }

    function resize() {
      const width = Math.max(1, Math.floor(container.clientWidth));
      if (width === wave.width && context) return;
      wave.width = width;
      context = page.sizeCanvas(canvas, width, height);
      invalidate();
      if (wave.count && barCount() !== wave.count) {
        clearTimeout(wave.resubscribe);
        wave.resubscribe = setTimeout(subscribe, 200);
      }
    }

    function invalidate() {
      wave.layersValid = false;
      page.requestFrame();
    }

    /// Draws bars `from..<to` in `color`: the layers' drawing, and every frame's with ?draw=all.
    function drawBars(target, color, from, to) {
      const ratio = root.devicePixelRatio || 1;
      const bars = wave.bars;
      target.fillStyle = color;
      const step = wave.width / Math.max(bars.length, 1);
      const gap = step * ratio >= 3 ? 1 / ratio : 0;
      for (let i = from; i < to; i++) {
        const barHeight = Math.max(1 / ratio, bars[i] * (height - 4));
        target.fillRect(i * step, (height - barHeight) / 2, step - gap, barHeight);
      }
    }

    function drawLayers() {
      wave.placed = false;
      context.clearRect(0, 0, wave.width, height);
      drawBars(context, page.colors["control-background"], 0, wave.bars.length);
      const top = page.sizeCanvas(played, wave.width, height);
      drawBars(top, page.colors["control-foreground"], 0, wave.bars.length);
      wave.layersValid = true;
    }

    /// The playhead at x: the played layer shows left of it, the line sits on it.
    function place(x) {
      played.style.clipPath = `inset(0 ${wave.width - x}px 0 0)`;
      playhead.style.transform = `translateX(${x - 1}px)`;
      wave.placed = true;
    }

    /// The seed's way (?draw=all): every bar straight onto the canvas, coloured by whether its
    /// centre is left of the playhead, then the playhead.
    function drawEverything(playX) {
      const count = wave.bars.length;
      const split = Math.min(count, Math.max(0, Math.ceil((playX * count) / wave.width - 0.5)));
      context.clearRect(0, 0, wave.width, height);
      drawBars(context, page.colors["control-foreground"], 0, split);
      drawBars(context, page.colors["control-background"], split, count);
      context.fillStyle = page.colors.text;
      context.fillRect(playX - 1, 0, 2, height);
    }

    /// Called on every frame: redraws what changed, and asks for the next frame while playing.
    function tick(now) {
      if (!context) resize();
      const progress = progressAt(now);
      const x = Math.round(progress * wave.width);
      const moved = x !== wave.shownX;
      if (page.drawAll) {
        drawEverything(x);
      } else {
        if (!wave.layersValid) drawLayers();
        if (moved || !wave.placed) place(x);
      }
      wave.shownX = x;
      if (wave.playing && !wave.scrub && progress < 1) {
        // Once a pixel, not on every frame: each change is DOM work (and an event to a screen
        // reader), and a frame rate left free runs thousands of frames a second.
        if (moved) container.setAttribute("aria-valuenow", String(progress));
        page.requestFrame();
      }
    }

    function receiveBars(args, floats) {
      const [seq, offset, total] = args;
      if (seq !== wave.seq || wave.bars.length !== total) {
        wave.seq = seq;
        wave.bars = new Float32Array(Math.max(0, total));
      }
      if (floats) {
        args.slice(3).forEach((value, index) => (wave.bars[offset + index] = value));
      } else if (args[3] instanceof Uint8Array) {
        const view = new DataView(args[3].buffer, args[3].byteOffset, args[3].byteLength);
        for (let i = 0; i * 4 + 4 <= view.byteLength && offset + i < total; i++) {
          wave.bars[offset + i] = view.getFloat32(i * 4);
        }
      }
      invalidate();
    }

    function receive(address, args) {
      switch (address) {
        case "/wave/info":
          wave.name = String(args[0] || "");
          wave.duration = Number(args[1]) || 0;
          label.textContent = wave.name + (wave.duration ? ` · ${timeText(1)}` : "");
          break;
        case "/wave/bars": receiveBars(args, false); break;
        case "/wave/bars/f": receiveBars(args, true); break;
        case "/wave/playing":
          wave.playing = args[0] === 1 || args[0] === true;
          wave.anchor.time = performance.now();
          button.textContent = wave.playing ? "Pause" : "Play";
          button.setAttribute("aria-pressed", String(wave.playing));
          page.requestFrame();
          break;
        case "/wave/progress":
          if (!wave.scrub && typeof args[0] === "number") setProgress(args[0]);
          break;
      }
    }

    function playPause() {
      page.send(wave.playing ? "/wave/pause" : "/wave/play");
    }

    function positionOf(event) {
      const rect = canvas.getBoundingClientRect();
      return Math.min(Math.max((event.clientX - rect.left) / rect.width, 0), 1);
    }

    canvas.addEventListener("pointerdown", (event) => {
      if (event.button !== 0) return;
      event.preventDefault();
      container.focus({ preventScroll: true });
      canvas.setPointerCapture(event.pointerId);
      wave.scrub = { id: event.pointerId, x: event.clientX, dragging: false };
      setProgress(positionOf(event));
      page.send("/wave/progress", [wave.anchor.progress]);
    });
    canvas.addEventListener("pointermove", (event) => {
      const scrub = wave.scrub;
      if (!scrub || scrub.id !== event.pointerId) return;
      if (!scrub.dragging && Math.abs(event.clientX - scrub.x) < dragThreshold) return;
      if (!scrub.dragging) {
        scrub.dragging = true;
        page.send("/wave/progress/touch", [page.int(1)]);
      }
      setProgress(positionOf(event));
      page.send("/wave/progress", [wave.anchor.progress]);
    });
    const end = (event) => {
      const scrub = wave.scrub;
      if (!scrub || scrub.id !== event.pointerId) return;
      wave.scrub = null;
      if (scrub.dragging) page.send("/wave/progress/touch", [page.int(0)]);
      setProgress(wave.anchor.progress);
    };
    canvas.addEventListener("pointerup", end);
    canvas.addEventListener("pointercancel", end);
    container.addEventListener("keydown", (event) => {
      const moves = { ArrowLeft: -0.05, ArrowRight: 0.05, ArrowDown: -0.05, ArrowUp: 0.05 };
      if (event.key === " ") playPause();
      else if (moves[event.key] !== undefined) {
        setProgress(progressAt(performance.now()) + moves[event.key]);
        page.send("/wave/progress", [wave.anchor.progress]);
      } else return;
      event.preventDefault();
    });
    button.addEventListener("click", playPause);
    new ResizeObserver(resize).observe(container);
    root.addEventListener("resize", () => {
      if (wave.ratio !== root.devicePixelRatio) {
        wave.ratio = root.devicePixelRatio;
        context = null;
        for (const control of page.controls.values()) {
          if (control.canvas) control.context = page.sizeCanvas(control.canvas, page.diameter, page.diameter);
          page.markDirty(control);
        }
        resize();
      }
    });
    wave.ratio = root.devicePixelRatio;
    return { subscribe, receive, tick, invalidate, state: wave };
  }

  root.KnobLink = root.KnobLink || {};
  root.KnobLink.wave = { create };
})(globalThis);
