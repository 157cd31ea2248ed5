// KnobLink web surface: input on knobs and toggles (SURFACES.md §2–3) and the value editor
// (CONTROLS.md 1.8). Classic script: it adds KnobLink.input; the page calls attach(control).
(function (root) {
  "use strict";
  const { math } = root.KnobLink;
  const page = () => root.KnobLink.page;

  function localPoint(rect, event) {
    return { x: event.clientX - rect.left, y: event.clientY - rect.top };
  }

  // MARK: Knobs

  function attachKnob(control) {
    const canvas = control.canvas;
    canvas.addEventListener("pointerdown", (event) => {
      if (control.readOnly || event.button !== 0) return;
      event.preventDefault();
      control.element.focus({ preventScroll: true });
      canvas.setPointerCapture(event.pointerId);
      const rect = canvas.getBoundingClientRect();
      control.drag = {
        id: event.pointerId, rect, previous: localPoint(rect, event),
        scaling: math.dragScaling(rect.width, rect.height),
      };
      math.titleDragActive(control.title, true, performance.now());
      page().beginGesture(control);
      page().markDirty(control);
    });
    canvas.addEventListener("pointermove", (event) => {
      const drag = control.drag;
      if (!drag || drag.id !== event.pointerId) return;
      const events = event.getCoalescedEvents ? event.getCoalescedEvents() : [];
      let norm = control.norm;
      for (const each of events.length ? events : [event]) {
        const point = localPoint(drag.rect, each);
        norm = math.dragNorm(drag.scaling, norm, drag.previous, point, each.shiftKey);
        drag.previous = point;
      }
      page().setLocal(control, norm);
    });
    const end = (event) => {
      const drag = control.drag;
      if (!drag || drag.id !== event.pointerId) return;
      control.drag = null;
      math.titleDragActive(control.title, false, performance.now());
      page().endGesture(control);
      page().scheduleTitleRevert(control);
    };
    canvas.addEventListener("pointerup", end);
    canvas.addEventListener("pointercancel", end);
    canvas.addEventListener("dblclick", (event) => {
      event.preventDefault();
      if (!control.readOnly) page().reset(control);
    });
    control.element.addEventListener("wheel", (event) => wheel(control, event), { passive: false });
    control.element.addEventListener("keydown", (event) => knobKey(control, event));
    control.titleElement.addEventListener("click", () => openEditor(control));
    control.element.addEventListener("focus", () => page().markDirty(control));
  }

  /// One step of a control: 1 % of the range, or one value of a stepped or indexed parameter.
  function stepped(control, steps, fraction) {
    const info = control.info;
    if (control.kind === "indexed" && info && info.max > info.min) {
      const index = Math.round(page().rawValue(control) - info.min);
      const count = Math.round(info.max - info.min);
      const by = Math.sign(steps) * Math.max(1, Math.round(Math.abs(steps) * fraction * count));
      const next = Math.min(Math.max(index + by, 0), count);
      return math.valueToNorm(info.min + next, info.min, info.max, info.taper);
    }
    return control.norm + steps * fraction;
  }

  function wheel(control, event) {
    if (control.readOnly) return;
    event.preventDefault();
    // Chromium turns a wheel with Shift held into a horizontal one.
    const delta = event.deltaY || event.deltaX;
    if (!delta) return;
    const perNotch = event.deltaMode === 0 ? 100 : event.deltaMode === 1 ? 3 : 1;
    const notches = -delta / perNotch;
    page().touchBriefly(control);
    page().setLocal(control, stepped(control, notches, event.shiftKey ? 0.001 : 0.01));
  }

  function knobKey(control, event) {
    if (event.key === "Enter") {
      event.preventDefault();
      return openEditor(control);
    }
    if (control.readOnly) return;
    const small = event.shiftKey ? 0.1 : 0.01;
    const moves = {
      ArrowUp: [1, small], ArrowRight: [1, small], ArrowDown: [-1, small], ArrowLeft: [-1, small],
      PageUp: [1, 0.1], PageDown: [-1, 0.1],
    };
    let norm;
    if (moves[event.key]) norm = stepped(control, moves[event.key][0], moves[event.key][1]);
    else if (event.key === "Home") norm = 0;
    else if (event.key === "End") norm = 1;
    else return;
    event.preventDefault();
    page().touchBriefly(control);
    page().setLocal(control, norm);
  }

  // MARK: Toggles

  function attachToggle(control) {
    const flip = () => {
      if (control.readOnly) return;
      const next = control.norm >= 0.5 ? 0 : 1;
      control.norm = next;
      page().send(control.address, [next]);
      page().updateAccessibility(control);
    };
    control.element.addEventListener("click", flip);
    control.element.addEventListener("keydown", (event) => {
      if (event.key !== " ") return;
      event.preventDefault();
      flip();
    });
  }

  // MARK: Editor

  const editor = { control: null, before: "", prefilled: "" };

  function editorParts() {
    const dialog = document.getElementById("editor");
    return {
      dialog, title: dialog.querySelector("h2"), input: dialog.querySelector("input"),
      select: dialog.querySelector("select"), clear: dialog.querySelector("[data-part=clear]"),
    };
  }

  function openEditor(control) {
    if (control.readOnly) return;
    const parts = editorParts();
    editor.control = control;
    const info = control.info;
    const indexed = control.kind === "indexed" && info && info.valueStrings.length > 0;
    parts.title.textContent = control.name;
    parts.input.hidden = indexed;
    parts.clear.hidden = indexed;
    parts.select.hidden = !indexed;
    if (indexed) {
      parts.select.replaceChildren(...info.valueStrings.map((text) => new Option(text, text)));
      parts.select.value = page().valueText(control);
    } else {
      parts.input.value = info ? math.forEditing(page().rawValue(control)) : "";
      editor.prefilled = parts.input.value;
      // The exact value in the parameter's units (the norm is only a float32 of it).
      page().send(control.address + "/raw");
    }
    math.titleTapped(control.title);
    page().markDirty(control);
    parts.dialog.hidden = false;
    (indexed ? parts.select : parts.input).focus();
    if (!indexed) parts.input.select();
  }

  /// The server's `P/raw` reply: it replaces the pre-filled text if the user has not typed yet.
  function rawArrived(control, value) {
    const input = editorParts().input;
    if (!control || control !== editor.control || typeof value !== "number") return;
    if (input.value !== editor.prefilled) return;
    input.value = math.forEditing(value);
    editor.prefilled = input.value;
    input.select();
  }

  function closeEditor(apply) {
    const parts = editorParts();
    const control = editor.control;
    if (!control) return;
    editor.control = null;
    parts.dialog.hidden = true;
    const text = (parts.select.hidden ? parts.input.value : parts.select.value).trim();
    if (apply && text !== "") page().applyText(control, text);
    control.element.focus({ preventScroll: true });
  }

  function setUpEditor() {
    const parts = editorParts();
    // Each keystroke is checked; an invalid new text reverts to the text before it.
    parts.input.addEventListener("beforeinput", () => (editor.before = parts.input.value));
    parts.input.addEventListener("input", () => {
      const control = editor.control;
      const signAllowed = !!(control && control.info && control.info.min < 0);
      if (!math.editorIsValid(parts.input.value, signAllowed)) parts.input.value = editor.before;
    });
    parts.clear.addEventListener("click", () => {
      parts.input.value = "";
      parts.input.focus();
    });
    parts.dialog.querySelector("[data-part=ok]").addEventListener("click", () => closeEditor(true));
    parts.dialog.querySelector("[data-part=cancel]").addEventListener("click", () => closeEditor(false));
    parts.dialog.addEventListener("keydown", (event) => {
      if (event.key === "Escape") closeEditor(false);
      else if (event.key === "Enter" && event.target.tagName !== "BUTTON") closeEditor(true);
      else return;
      event.preventDefault();
    });
  }

  function attach(control) {
    if (control.kind === "toggle") attachToggle(control);
    else attachKnob(control);
  }

  root.KnobLink = root.KnobLink || {};
  root.KnobLink.input = { attach, openEditor, closeEditor, rawArrived };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setUpEditor);
  else setUpEditor();
})(globalThis);
