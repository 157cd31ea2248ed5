// KnobLink web surface: the numbers of CONTROLS.md (taper transform 1.1, drag math 1.4, title 1.5,
// formatting 1.7, editor 1.8, geometry 1.9), mirroring the Swift modules Parameters and Controls.
// Pure functions, no DOM. Classic script: it adds KnobLink.math.
(function (root) {
  "use strict";
  const log10 = Math.log10;

  // Taper: linear position 0…1 ⇄ normalised position (ParameterTaper).
  const tapers = {
    linear: [(l) => l, (n) => n],
    logarithmic: [(l) => log10(9 * l + 1), (n) => (Math.pow(10, n) - 1) / 9],
    squareRoot: [(l) => Math.sqrt(l), (n) => n * n],
    squared: [(l) => l * l, (n) => Math.sqrt(n)],
    cubed: [(l) => l * l * l, (n) => Math.cbrt(n)],
    cubeRoot: [(l) => Math.cbrt(l), (n) => n * n * n],
    exponential: [(l) => (Math.pow(10, l) - 1) / 9, (n) => log10(9 * n + 1)],
  };

  function taperOf(name) {
    return tapers[name] || tapers.linear;
  }

  /// Value → norm: the value is clamped to min…max first; an empty range gives 0.
  function valueToNorm(value, min, max, taper) {
    const span = max - min;
    if (!(span > 0)) return 0;
    const clamped = Math.min(Math.max(value, min), max);
    return taperOf(taper)[0]((clamped - min) / span);
  }

  /// Norm → value; the norm is not clamped.
  function normToValue(norm, min, max, taper) {
    return taperOf(taper)[1](norm) * (max - min) + min;
  }

  // Formatting: Foundation's significant-digit style (ICU: shortest decimal, half-even rounding,
  // en_US grouping), then the suffix.

  function decimalDigits(value) {
    const [mantissa, exponent] = Math.abs(value).toExponential().split("e");
    return { digits: mantissa.replace(".", "").split("").map(Number), exponent: Number(exponent) };
  }

  function roundHalfEven(digits, exponent, count) {
    if (digits.length <= count) return { digits, exponent };
    const kept = digits.slice(0, count);
    const first = digits[count];
    const rest = digits.slice(count + 1).some((d) => d !== 0);
    const up = first > 5 || (first === 5 && (rest || kept[count - 1] % 2 === 1));
    if (!up) return { digits: kept, exponent };
    let index = count - 1;
    while (index >= 0 && kept[index] === 9) kept[index--] = 0;
    if (index < 0) return { digits: [1].concat(kept.slice(0, count - 1)), exponent: exponent + 1 };
    kept[index] += 1;
    return { digits: kept, exponent };
  }

  function grouped(integer) {
    return integer.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  }

  /// A number with `minDigits`…`maxDigits` significant digits: formatNumber(1234.5, 1, 2) = "1,200".
  function formatNumber(value, minDigits, maxDigits, grouping = true) {
    if (Number.isNaN(value)) return "NaN";
    if (!Number.isFinite(value)) return value < 0 ? "-∞" : "∞";
    if (value === 0) return "0";
    const exact = decimalDigits(value);
    const rounded = roundHalfEven(exact.digits, exact.exponent, maxDigits);
    const digits = rounded.digits.slice();
    while (digits.length > Math.max(minDigits, 1) && digits[digits.length - 1] === 0) digits.pop();
    while (digits.length < minDigits) digits.push(0);
    const e = rounded.exponent;
    let integer;
    let fraction;
    if (e >= 0) {
      while (digits.length < e + 1) digits.push(0);
      integer = digits.slice(0, e + 1).join("");
      fraction = digits.slice(e + 1).join("");
    } else {
      integer = "0";
      fraction = "0".repeat(-e - 1) + digits.join("");
    }
    const sign = value < 0 ? "-" : "";
    return sign + (grouping ? grouped(integer) : integer) + (fraction ? "." + fraction : "");
  }

  /// The display formatter for a unit symbol as `P/info` sends it (ValueFormatter.for(unit)).
  function formatterFor(unit) {
    const general = (suffix, digits = [1, 2]) => ({ style: "general", pairs: [[digits, suffix]] });
    switch (unit) {
      case "%": return general("%", [1, 3]);
      case "s": return { style: "seconds", pairs: [[[1, 3], "ms"], [[1, 3], "s"]] };
      case "°": return general("°");
      case "x": return general("x");
      case "Hz": return { style: "frequency", pairs: [[[1, 2], " Hz"], [[1, 3], "kHz"]] };
      case "cents": return general(" cents");
      case "dB": return general(" dB");
      case "BPM": return general(" BPM");
      case "ms": return general("ms", [1, 3]);
      default: return general("");
    }
  }

  function formatPair(value, pair) {
    return formatNumber(value, pair[0][0], pair[0][1]) + pair[1];
  }

  /// The text shown to users for a raw value (CONTROLS.md 1.7).
  function forDisplay(formatter, value) {
    switch (formatter.style) {
      case "seconds":
        return value < 1 ? formatPair(value * 1000, formatter.pairs[0]) : formatPair(value, formatter.pairs[1]);
      case "frequency":
        return value < 1000 ? formatPair(value, formatter.pairs[0]) : formatPair(value / 1000, formatter.pairs[1]);
      default:
        return formatPair(value, formatter.pairs[0]);
    }
  }

  /// The text put in the editor: 1…6 significant digits, no grouping, no suffix.
  function forEditing(value) {
    return formatNumber(value, 1, 6, false);
  }

  /// A parameter's display text: its value string when indexed, else the unit's formatter.
  function displayText(info, value) {
    if (info.valueStrings && info.valueStrings.length > 0 && Number.isFinite(value)) {
      const position = Math.round(value - info.min);
      if (position >= 0 && position < info.valueStrings.length) return info.valueStrings[position];
    }
    return forDisplay(formatterFor(info.unit), value);
  }

  // Drag math (KnobDragScaling): points in the track's local pixels, y growing downwards.

  function dragScaling(width, height, sensitivity = 2, regionPercentage = 0.1) {
    const radius = height / 2;
    return {
      width, radius,
      perUnit: 1 / (2 * radius * sensitivity),
      halfWidth: Math.max(4, (radius * regionPercentage) / 2),
    };
  }

  /// The factor applied to a change at horizontal position `x` of the track.
  function dragScale(scaling, x) {
    const centre = scaling.width / 2;
    const horizontal = centre > 0 ? (Math.abs(x - centre) * scaling.radius) / centre : 0;
    const distance = Math.min(horizontal, scaling.radius - 1);
    return distance < scaling.halfWidth ? 1 : 1 - (distance - scaling.halfWidth) / scaling.radius;
  }

  /// The norm after a move from `previous` to `current` ({x, y}); `fine` divides the change by 10.
  function dragNorm(scaling, norm, previous, current, fine = false) {
    const rise = previous.y - current.y;
    const change = rise * scaling.perUnit * dragScale(scaling, current.x) * (fine ? 0.1 : 1);
    return Math.min(Math.max(norm + change, 0), 1);
  }

  // Geometry (KnobGeometry, Theme): angles in degrees from 6 o'clock, clockwise.

  const startAngle = 40;
  const endAngle = 320;

  function angleFor(norm) {
    return startAngle + norm * (endAngle - startAngle);
  }

  function normalizedAngle(degrees) {
    let wrapped = degrees % 360;
    if (wrapped < 0) wrapped += 360;
    return wrapped === 360 ? 0 : wrapped / 360;
  }

  function endTrim(norm) {
    return normalizedAngle(angleFor(norm));
  }

  function pointAt(centre, radius, degrees) {
    const radians = (degrees * Math.PI) / 180;
    return { x: centre.x - radius * Math.sin(radians), y: centre.y + radius * Math.cos(radians) };
  }

  /// Where a knob's parts go: the track, the value arc (null at norm 0) and the indicator.
  function knobGeometry(diameter, norm, strokeWidth = 10, indicatorLength = 16) {
    const clamped = Number.isNaN(norm) ? 0 : Math.min(Math.max(norm, 0), 1);
    const outer = diameter / 2;
    const centre = { x: outer, y: outer };
    const radius = outer - strokeWidth / 2;
    const angle = angleFor(clamped);
    const length = Math.max(indicatorLength, strokeWidth / 2);
    return {
      centre, radius,
      track: { start: startAngle, end: endAngle },
      value: clamped > 0 ? { start: startAngle, end: angle } : null,
      indicator: { from: pointAt(centre, radius, angle), to: pointAt(centre, outer - Math.min(length, outer), angle) },
    };
  }

  /// Whether a range is bipolar (min = −max, e.g. Pan −50…50): its arc fills from the centre.
  function isBipolar(min, max) {
    return min < 0 && min === -max;
  }

  // Title (TitleFeature, CONTROLS.md 1.5): the name, or the value while dragging and for
  // 1250 ms after a change or after the drag ends. Times in milliseconds.

  const showValueMilliseconds = 1250;

  function title(name) {
    return { name, value: null, dragActive: false, until: 0 };
  }

  function titleValueChanged(state, text, now) {
    state.value = text;
    if (!state.dragActive) state.until = now + showValueMilliseconds;
  }

  function titleDragActive(state, active, now) {
    // A value whose 1250 ms ran out before the drag is gone (its timer fired).
    if (active && !state.dragActive && now >= state.until) state.value = null;
    state.dragActive = active;
    if (!active) state.until = now + showValueMilliseconds;
  }

  function titleTapped(state) {
    state.value = null;
    state.until = 0;
  }

  function titleText(state, now) {
    if (state.value === null) return state.name;
    return state.dragActive || now < state.until ? state.value : state.name;
  }

  // Editor (ValueEditorState, SURFACES.md §2): one sign if allowed, digits with at most one
  // separator, then an optional unit suffix ("-6 dB", "1.2kHz", "250ms", "50%").

  function editorIsValid(text, signAllowed, separator = ".") {
    let rest = text;
    if (signAllowed && rest.length > 0 && "+-−".includes(rest[0])) rest = rest.slice(1);
    const number = rest.match(/^[0-9]*/)[0];
    rest = rest.slice(number.length);
    if (rest.startsWith(separator)) rest = rest.slice(separator.length).replace(/^[0-9]*/, "");
    if (rest === "") return true;
    return /[0-9]/.test(text) && /^ ?[A-Za-z%°]*$/.test(rest);
  }

  /// The number in editor text without a suffix, or null.
  function editorNumber(text, separator = ".") {
    let normalized = text.trim().replace(/^−/, "-");
    if (separator !== ".") {
      if (normalized.includes(".")) return null;
      normalized = normalized.replace(separator, ".");
    }
    if (!/^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)$/.test(normalized)) return null;
    const number = Number(normalized);
    return Number.isFinite(number) ? number : null;
  }

  root.KnobLink = root.KnobLink || {};
  root.KnobLink.math = {
    valueToNorm, normToValue, formatNumber, formatterFor, forDisplay, forEditing, displayText,
    dragScaling, dragScale, dragNorm, angleFor, normalizedAngle, endTrim, pointAt, knobGeometry, isBipolar,
    showValueMilliseconds, title, titleValueChanged, titleDragActive, titleTapped, titleText,
    editorIsValid, editorNumber,
  };
})(globalThis);
