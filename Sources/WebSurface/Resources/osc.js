// KnobLink web surface: a small OSC 1.0 codec (int32, float32, string, blob, T/F/N/I; messages;
// bundles are unpacked into their messages). Classic script: it adds KnobLink.osc.
(function (root) {
  "use strict";
  const utf8 = new TextEncoder();
  const utf8Decoder = new TextDecoder();

  function padded(length) {
    return (length + 3) & ~3;
  }

  function encodeString(text) {
    const bytes = utf8.encode(text);
    const out = new Uint8Array(padded(bytes.length + 1));
    out.set(bytes);
    return out;
  }

  // An argument is a number (float32), or {type, value}: "i", "f", "s", "b" (Uint8Array), "T", "F".
  function tagged(argument) {
    if (typeof argument === "number") return { type: "f", value: argument };
    if (typeof argument === "string") return { type: "s", value: argument };
    if (typeof argument === "boolean") return { type: argument ? "T" : "F" };
    return argument;
  }

  function encodeArgument(argument) {
    const view = new DataView(new ArrayBuffer(4));
    switch (argument.type) {
      case "i": view.setInt32(0, argument.value); return new Uint8Array(view.buffer);
      case "f": view.setFloat32(0, argument.value); return new Uint8Array(view.buffer);
      case "s": return encodeString(argument.value);
      case "b": {
        const out = new Uint8Array(4 + padded(argument.value.length));
        new DataView(out.buffer).setInt32(0, argument.value.length);
        out.set(argument.value, 4);
        return out;
      }
      default: return new Uint8Array(0);
    }
  }

  /// The bytes of one message: `encode("/knob/gain", [0.5])`.
  function encode(address, args = []) {
    const list = args.map(tagged);
    const parts = [encodeString(address), encodeString("," + list.map((a) => a.type).join(""))];
    for (const argument of list) parts.push(encodeArgument(argument));
    const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
    let offset = 0;
    for (const part of parts) {
      out.set(part, offset);
      offset += part.length;
    }
    return out;
  }

  function readString(bytes, offset) {
    let end = offset;
    while (end < bytes.length && bytes[end] !== 0) end++;
    if (end >= bytes.length) throw new RangeError("unterminated string");
    return { value: utf8Decoder.decode(bytes.subarray(offset, end)), next: offset + padded(end - offset + 1) };
  }

  function decodeMessage(bytes, view, messages) {
    const address = readString(bytes, 0);
    const args = [];
    if (address.next < bytes.length && bytes[address.next] === 44) {
      const tags = readString(bytes, address.next);
      let offset = tags.next;
      for (const tag of tags.value.slice(1)) {
        offset = readArgument(tag, bytes, view, offset, args);
      }
    }
    messages.push({ address: address.value, args });
  }

  function readArgument(tag, bytes, view, offset, args) {
    const need = (count) => {
      if (offset + count > bytes.length) throw new RangeError("truncated argument");
    };
    switch (tag) {
      case "i": need(4); args.push(view.getInt32(offset)); return offset + 4;
      case "f": need(4); args.push(view.getFloat32(offset)); return offset + 4;
      case "d": need(8); args.push(view.getFloat64(offset)); return offset + 8;
      case "h": need(8); args.push(Number(view.getBigInt64(offset))); return offset + 8;
      case "t": need(8); return offset + 8;
      case "s": case "S": {
        const text = readString(bytes, offset);
        args.push(text.value);
        return text.next;
      }
      case "b": {
        need(4);
        const length = view.getInt32(offset);
        need(4 + length);
        args.push(bytes.slice(offset + 4, offset + 4 + length));
        return offset + 4 + padded(length);
      }
      case "T": args.push(true); return offset;
      case "F": args.push(false); return offset;
      case "N": args.push(null); return offset;
      case "I": args.push(Infinity); return offset;
      default: throw new RangeError("unknown type tag " + tag);
    }
  }

  function decodeInto(bytes, messages, depth) {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (bytes.length >= 16 && readString(bytes, 0).value === "#bundle") {
      if (depth >= 8) return;
      let offset = 16;
      while (offset + 4 <= bytes.length) {
        const size = view.getInt32(offset);
        if (size < 0 || offset + 4 + size > bytes.length) break;
        decodeInto(bytes.subarray(offset + 4, offset + 4 + size), messages, depth + 1);
        offset += 4 + size;
      }
      return;
    }
    if (bytes.length > 0 && bytes[0] === 47) decodeMessage(bytes, view, messages);
  }

  /// Every message of a packet (an ArrayBuffer or Uint8Array): `[{address, args}]`. A packet
  /// that cannot be read gives what was read before the damage; it never throws.
  function decode(packet) {
    const bytes = packet instanceof Uint8Array ? packet : new Uint8Array(packet);
    const messages = [];
    try {
      decodeInto(bytes, messages, 0);
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
    }
    return messages;
  }

  root.KnobLink = root.KnobLink || {};
  root.KnobLink.osc = { encode, decode };
})(globalThis);
