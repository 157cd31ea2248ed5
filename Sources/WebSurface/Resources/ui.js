// KnobLink web surface: the page (SURFACES.md §1–4). It loads the tree with GET /, talks OSC over
// the server's WebSocket, and draws knobs and the waveform on canvases, only on animation frames.
(function (root) {
  "use strict";
  const { osc, math } = root.KnobLink;
  const diameter = 80;
  const stroke = 10;
  const gestureEndMilliseconds = 300;
  // `?draw=all`: the seed's way (its SwiftUI Canvas), kept for Benchmarks/web to compare with:
  // every knob and every bar drawn on every frame, frames requested without end.
  const drawAll = new URLSearchParams(location.search).get("draw") === "all";
  const page = {
    drawAll,
    controls: new Map(),
    socket: null,
    everOpen: false,
    backoff: 500,
    dirty: new Set(),
    frameRequested: false,
    pendingValues: new Map(),
    colors: {},
    frames: 0,
    wave: null,
  };

  // MARK: Sending

  function send(address, args = []) {
    const socket = page.socket;
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(osc.encode(address, args));
  }

  const int = (value) => ({ type: "i", value });

  // MARK: Frames

  function requestFrame() {
    if (page.frameRequested) return;
    page.frameRequested = true;
    requestAnimationFrame(frame);
  }

  function markDirty(item) {
    page.dirty.add(item);
    requestFrame();
  }

  function frame(now) {
    page.frameRequested = false;
    const start = performance.now();
    const dirty = Array.from(drawAll ? page.controls.values() : page.dirty);
    page.dirty.clear();
    for (const item of dirty) item.draw(now);
    if (page.wave) page.wave.tick(now);
    performance.measure("knoblink-frame", { start, end: performance.now() });
    // User timing entries stay until cleared; a page left open for days must not grow without end.
    if (++page.frames % 20000 === 0) performance.clearMeasures("knoblink-frame");
    if (drawAll) requestFrame();
  }

  // MARK: Theme

  function resolveScheme() {
    const asked = new URLSearchParams(location.search).get("theme");
    const dark = asked ? asked === "dark" : matchMedia("(prefers-color-scheme: dark)").matches;
    document.documentElement.dataset.theme = dark ? "dark" : "light";
    const style = getComputedStyle(document.documentElement);
    for (const name of ["control-background", "control-foreground", "text", "page"]) {
      page.colors[name] = style.getPropertyValue("--" + name).trim();
    }
    for (const control of page.controls.values()) markDirty(control);
    if (page.wave) page.wave.invalidate();
  }

  const themeTags = {
    controlBackgroundColor: "control-background", controlForegroundColor: "control-foreground",
    textColor: "text", editorBackgroundColor: "editor-background",
    editorCancelButtonColor: "editor-cancel", editorOKButtonColor: "editor-ok",
  };

  /// Applies the server's --theme-file colours (`<script id="theme" type="application/json">`).
  function applyThemeFile() {
    const element = document.getElementById("theme");
    if (!element || !element.textContent.trim()) return;
    let theme;
    try {
      theme = JSON.parse(element.textContent);
    } catch (error) {
      console.warn("KnobLink: the theme is not JSON", error);
      return;
    }
    const rules = [];
    for (const [scheme, selector] of [["light", ":root"], ["dark", ":root[data-theme=dark]"]]) {
      const colors = theme[scheme] || {};
      const declarations = Object.entries(themeTags)
        .filter(([tag]) => /^#?[0-9A-Fa-f]{6}$/.test(colors[tag] || ""))
        .map(([tag, name]) => `--${name}:#${colors[tag].replace("#", "")};`);
      if (declarations.length) rules.push(`${selector}{${declarations.join("")}}`);
    }
    const style = document.createElement("style");
    style.textContent = rules.join("\n");
    document.head.appendChild(style);
  }

  // MARK: Canvas

  function sizeCanvas(canvas, width, height) {
    const ratio = root.devicePixelRatio || 1;
    canvas.width = Math.round(width * ratio);
    canvas.height = Math.round(height * ratio);
    canvas.style.width = width + "px";
    canvas.style.height = height + "px";
    const context = canvas.getContext("2d");
    context.setTransform(ratio, 0, 0, ratio, 0, 0);
    return context;
  }

  function arc(context, geometry, from, to, color) {
    const radians = (degrees) => ((degrees + 90) * Math.PI) / 180;
    context.beginPath();
    context.arc(geometry.centre.x, geometry.centre.y, geometry.radius, radians(from), radians(to), to < from);
    context.strokeStyle = color;
    context.lineWidth = stroke;
    context.lineCap = "round";
    context.stroke();
  }

  // MARK: Controls

  /// The value in the parameter's units. Norms arrive as float32, so a value the server holds
  /// at exactly 0 comes back as ±1e-6 of the range: that is snapped to 0, as the server shows it.
  function rawValue(control) {
    const info = control.info;
    if (!info) return control.norm;
    const raw = math.normToValue(control.norm, info.min, info.max, info.taper);
    return Math.abs(raw) < (info.max - info.min) * 1e-6 ? 0 : raw;
  }

  function valueText(control) {
    if (control.kind === "toggle") return control.norm >= 0.5 ? "On" : "Off";
    if (!control.info) return math.formatNumber(control.norm * 100, 1, 3) + "%";
    // The norm's float32 error shows in the 6th digit; display text has at most 3 digits, and
    // rounding to 5 first keeps the noise from crossing a rounding tie or the 1 s / 1 kHz switch.
    return math.displayText(control.info, Number(rawValue(control).toPrecision(5)));
  }

  function element(tag, attributes = {}, text) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function createControl(node) {
    const control = {
      address: node.FULL_PATH,
      name: node.DESCRIPTION || node.FULL_PATH.split("/").pop(),
      readOnly: node.ACCESS === 1,
      norm: Array.isArray(node.VALUE) && typeof node.VALUE[0] === "number" ? node.VALUE[0] : 0,
      kind: kindOf(node, null),
      info: null,
      held: false,
      heldRemote: null,
      gestureTimer: 0,
      titleTimer: 0,
      drag: null,
    };
    control.title = math.title(control.name);
    control.draw = () => drawControl(control);
    buildElement(control);
    return control;
  }

  function kindOf(node, info) {
    if (info) return info.unit === "boolean" ? "toggle" : info.unit === "indexed" ? "indexed" : "knob";
    const extended = JSON.stringify(node.EXTENDED_TYPE || "").toLowerCase();
    if (extended.includes("bool")) return "toggle";
    const range = Array.isArray(node.RANGE) ? node.RANGE[0] : null;
    return (range && range.VALS) || extended.includes("index") ? "indexed" : "knob";
  }

  function buildElement(control) {
    const common = { "data-address": control.address, "aria-label": control.name, tabindex: "0" };
    if (control.kind === "toggle") {
      control.element = element("div", Object.assign({ class: "toggle", role: "switch" }, common));
      control.element.append(element("span", { class: "mark", "aria-hidden": "true" }));
      control.element.append(element("span", { class: "label" }, control.name));
    } else {
      control.element = element("div", Object.assign({ class: "knob", role: "slider" }, common));
      control.element.setAttribute("aria-valuemin", "0");
      control.element.setAttribute("aria-valuemax", "1");
      control.element.style.width = diameter + "px";
      control.canvas = element("canvas", { "aria-hidden": "true" });
      control.context = sizeCanvas(control.canvas, diameter, diameter);
      control.titleElement = element("div", { "data-part": "title", class: "title" }, control.name);
      control.valueElement = element("div", { "data-part": "value", class: "value" });
      control.element.append(control.canvas, control.titleElement, control.valueElement);
    }
    if (control.readOnly) {
      control.element.classList.add("read-only");
      control.element.setAttribute("aria-readonly", "true");
    }
    root.KnobLink.input.attach(control);
    updateAccessibility(control);
    markDirty(control);
  }

  /// Changes a text only when it differs: every DOM change costs a style pass.
  function setText(node, text) {
    if (node.textContent !== text) node.textContent = text;
  }

  function updateAccessibility(control) {
    const element = control.element;
    if (control.kind === "toggle") {
      element.setAttribute("aria-checked", control.norm >= 0.5 ? "true" : "false");
      return;
    }
    const text = valueText(control);
    element.setAttribute("aria-valuenow", String(control.norm));
    element.setAttribute("aria-valuetext", text);
    setText(control.valueElement, text);
    setText(control.titleElement, math.titleText(control.title, performance.now()));
  }

  function drawControl(control) {
    if (control.kind === "toggle") return;
    const context = control.context;
    const geometry = math.knobGeometry(diameter, control.norm, stroke);
    context.clearRect(0, 0, diameter, diameter);
    arc(context, geometry, geometry.track.start, geometry.track.end, page.colors["control-background"]);
    const info = control.info;
    const from = info && math.isBipolar(info.min, info.max)
      ? math.angleFor(math.valueToNorm(0, info.min, info.max, info.taper))
      : geometry.track.start;
    const to = math.angleFor(control.norm);
    if (Math.abs(to - from) > 1e-9) arc(context, geometry, from, to, page.colors["control-foreground"]);
    context.beginPath();
    context.moveTo(geometry.indicator.from.x, geometry.indicator.from.y);
    context.lineTo(geometry.indicator.to.x, geometry.indicator.to.y);
    context.strokeStyle = page.colors["control-foreground"];
    context.lineWidth = stroke;
    context.lineCap = "round";
    context.stroke();
    setText(control.titleElement, math.titleText(control.title, performance.now()));
  }

  /// Shows the value in the title for 1.25 s (or until the drag ends), then the name again.
  function showValueInTitle(control) {
    const now = performance.now();
    math.titleValueChanged(control.title, valueText(control), now);
    scheduleTitleRevert(control);
  }

  function scheduleTitleRevert(control) {
    clearTimeout(control.titleTimer);
    markDirty(control);
    if (control.title.dragActive) return;
    const delay = Math.max(0, control.title.until - performance.now()) + 16;
    control.titleTimer = setTimeout(() => markDirty(control), delay);
  }

  /// A new norm from this page: sent at once, from the input handler, and drawn with the next
  /// frame. Chrome delivers pointer moves and wheel turns once a frame (the rest as coalesced
  /// events), so this is one set a frame at most, a frame sooner than sending it from the frame,
  /// and the frame's budget is left to drawing.
  function setLocal(control, norm) {
    const clamped = Math.min(Math.max(norm, 0), 1);
    if (Math.abs(clamped - control.norm) < 1e-9) return;
    control.norm = clamped;
    send(control.address, [clamped]);
    showValueInTitle(control);
    updateAccessibility(control);
  }

  /// A norm from the server: held aside while a person holds the control.
  function receiveValue(control, norm) {
    if (control.held) {
      control.heldRemote = norm;
      return;
    }
    const changed = Math.abs(norm - control.norm) > 1e-6;
    control.norm = norm;
    if (changed && control.kind !== "toggle" && control.seen) showValueInTitle(control);
    updateAccessibility(control);
    control.seen = true;
    markDirty(control);
  }

  function beginGesture(control) {
    clearTimeout(control.gestureTimer);
    if (control.held) return;
    control.held = true;
    send(control.address + "/touch", [int(1)]);
  }

  function endGesture(control) {
    clearTimeout(control.gestureTimer);
    if (!control.held) return;
    send(control.address + "/touch", [int(0)]);
    control.held = false;
    if (control.heldRemote !== null) {
      const norm = control.heldRemote;
      control.heldRemote = null;
      receiveValue(control, norm);
    }
  }

  /// A wheel or key gesture: it ends 300 ms after its last event.
  function touchBriefly(control) {
    beginGesture(control);
    control.gestureTimer = setTimeout(() => endGesture(control), gestureEndMilliseconds);
  }

  function reset(control) {
    send(control.address + "/reset");
    send(control.address);
  }

  function applyText(control, text) {
    send(control.address + "/str", [text]);
    send(control.address);
  }

  // MARK: Info

  function receiveInfo(address, args) {
    const control = page.controls.get(address);
    if (!control || args.length < 7) return;
    const strings = args.slice(7).filter((value) => typeof value === "string");
    // A long list of value strings may come in several messages between /sys/update brackets.
    const more = !control.awaitingInfo && control.info && control.info.partial;
    control.awaitingInfo = false;
    const valueStrings = more ? control.info.valueStrings.concat(strings) : strings;
    control.info = {
      name: args[0], unit: args[1], min: args[2], max: args[3], defaultValue: args[4], taper: args[5],
      flags: args[6] >>> 0, valueStrings, partial: page.updating,
    };
    const kind = kindOf(null, control.info);
    if (kind !== control.kind) {
      control.kind = kind;
      const old = control.element;
      buildElement(control);
      old.replaceWith(control.element);
    }
    updateAccessibility(control);
    markDirty(control);
  }

  // MARK: Messages

  function receive(message) {
    const { address, args } = message;
    if (address === "/sys/update") {
      page.updating = args[0] === 1;
      return;
    }
    if (address === "/sys/error") return console.warn("KnobLink server:", args.join(" "));
    if (address.startsWith("/wave/")) return page.wave && page.wave.receive(address, args);
    if (address.endsWith("/info")) return receiveInfo(address.slice(0, -5), args);
    if (address.endsWith("/raw")) return root.KnobLink.input.rawArrived(page.controls.get(address.slice(0, -4)), args[0]);
    const control = page.controls.get(address);
    if (typeof args[0] !== "number") return;
    if (control) receiveValue(control, args[0]);
    else page.pendingValues.set(address, args[0]);
  }

  function receiveText(text) {
    let command;
    try {
      command = JSON.parse(text);
    } catch (error) {
      return;
    }
    if (/^PATH_(ADDED|REMOVED|CHANGED|RENAMED)$/.test(command.COMMAND)) loadTree();
  }

  // MARK: Tree

  function parameters(node, into) {
    for (const child of Object.values(node.CONTENTS || {})) {
      if (child.CONTENTS) parameters(child, into);
      else if (child.FULL_PATH) into.push(child);
    }
    return into;
  }

  /// One section per top-level group, in tree order; parameters outside groups come first.
  function sections(tree) {
    const loose = { name: "", nodes: [] };
    const groups = [];
    for (const child of Object.values(tree.CONTENTS || {})) {
      if (child.CONTENTS) groups.push({ name: child.DESCRIPTION || child.FULL_PATH, nodes: parameters(child, []) });
      else if (child.FULL_PATH) loose.nodes.push(child);
    }
    return (loose.nodes.length ? [loose] : []).concat(groups);
  }

  async function loadTree() {
    let tree;
    try {
      const response = await fetch("/", { cache: "no-store" });
      tree = await response.json();
    } catch (error) {
      return;
    }
    const container = document.getElementById("controls");
    const previous = page.controls;
    page.controls = new Map();
    container.replaceChildren();
    for (const section of sections(tree)) {
      const element = document.createElement("section");
      if (section.name) {
        element.setAttribute("aria-label", section.name);
        element.append(Object.assign(document.createElement("h2"), { textContent: section.name }));
      }
      const row = element.appendChild(Object.assign(document.createElement("div"), { className: "row" }));
      for (const node of section.nodes) row.append(adopt(node, previous).element);
      container.append(element);
    }
    for (const control of page.controls.values()) {
      control.awaitingInfo = true;
      send(control.address + "/info");
    }
  }

  function adopt(node, previous) {
    const old = previous.get(node.FULL_PATH);
    const control = old && old.name === (node.DESCRIPTION || old.name) ? old : createControl(node);
    if (page.pendingValues.has(control.address)) {
      receiveValue(control, page.pendingValues.get(control.address));
      page.pendingValues.delete(control.address);
    }
    page.controls.set(control.address, control);
    return control;
  }

  // MARK: Connection

  function setConnection(state) {
    document.body.dataset.connection = state;
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    const socket = new WebSocket(scheme + location.host + "/");
    socket.binaryType = "arraybuffer";
    page.socket = socket;
    socket.onopen = () => {
      page.everOpen = true;
      page.backoff = 500;
      setConnection("open");
      // Right after LISTEN the server sends every current value.
      socket.send(JSON.stringify({ COMMAND: "LISTEN", DATA: "/" }));
      if (page.wave) page.wave.subscribe();
      loadTree();
    };
    socket.onmessage = (event) => {
      if (typeof event.data === "string") return receiveText(event.data);
      for (const message of osc.decode(event.data)) receive(message);
    };
    socket.onclose = () => {
      if (page.socket !== socket) return;
      setConnection(page.everOpen ? "closed" : "connecting");
      for (const control of page.controls.values()) {
        control.held = false;
        control.heldRemote = null;
      }
      setTimeout(connect, page.backoff);
      page.backoff = Math.min(page.backoff * 2, 8000);
    };
  }

  function start() {
    setConnection("connecting");
    applyThemeFile();
    resolveScheme();
    matchMedia("(prefers-color-scheme: dark)").addEventListener("change", resolveScheme);
    page.wave = root.KnobLink.wave.create(page, document.getElementById("wave"));
    connect();
  }

  root.KnobLink.page = Object.assign(page, {
    diameter,
    send, int, requestFrame, markDirty, sizeCanvas, setLocal, beginGesture, endGesture,
    touchBriefly, reset, applyText, rawValue, valueText, scheduleTitleRevert, updateAccessibility, start,
  });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})(globalThis);
