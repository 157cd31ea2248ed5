#!/usr/bin/env python3
"""Writes the seed corpus of every fuzz target under Fuzz/Corpus/<target>/.

The packets are written by hand here (not by KnobLink's encoder) so that the seeds do not share
a bug with the code under test; a few are liblo's bytes for the same messages (the benchmarks check
that KnobLink encodes those byte for byte). Run from anywhere: python3 Fuzz/make-corpus.py
"""
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))


def pad(b):
    return b + b"\0" * ((4 - len(b) % 4) % 4)


def s(text):
    return pad(text.encode() + b"\0")


def blob(data):
    return struct.pack(">i", len(data)) + pad(data)


def msg(address, tags, *args):
    body = b"".join(args)
    if tags is None:
        return s(address) + body
    return s(address) + s("," + tags) + body


def bundle(elements, timetag=1):
    out = b"#bundle\0" + struct.pack(">Q", timetag)
    for e in elements:
        out += struct.pack(">i", len(e)) + e
    return out


i32 = lambda v: struct.pack(">i", v)
f32 = lambda v: struct.pack(">f", v)
i64 = lambda v: struct.pack(">q", v)
f64 = lambda v: struct.pack(">d", v)
u32 = lambda v: struct.pack(">I", v)

gain = msg("/knob/gain", "f", f32(0.5))
mixed = msg("/synth/1/note", "ifsbThd", i32(60), f32(0.8), s("piano"), blob(bytes(range(64))), i64(1234567890123), f64(3.14159))

valid = {
    "gain": gain,
    "mixed": mixed,
    "bundle16": bundle([mixed] * 16),
    "no-args": msg("/ping", ""),
    "no-typetags": msg("/legacy", None),
    "all-types": msg(
        "/all", "ifsbhtdScrmTFNI",
        i32(-1), f32(-0.0), s(""), blob(b""), i64(-2**63), u32(0) + u32(1), f64(float("inf")), s("sym"),
        i32(ord("x")), u32(0xff8000ff), bytes([0, 0x90, 60, 100])),
    "array": msg("/arr", "i[fs[T]]N", i32(1), f32(2.0), s("x")),
    "empty-array": msg("/arr", "[]"),
    "nan": msg("/nan", "fd", bytes([0x7f, 0xc0, 0, 1]), bytes([0x7f, 0xf8, 0, 0, 0, 0, 0, 1])),
    "blob-3": msg("/b", "b", blob(b"abc")),
    "string-4": msg("/s", "s", s("four")),
    "nested-bundle": bundle([gain, bundle([gain, bundle([mixed], 5)], 3)], 2),
    "empty-bundle": bundle([]),
    "bundle-empty-element": bundle([b""]),
    "pattern": msg("/knob/p1*", "f", f32(0.5)),
    "pattern-set": msg("/knob/{gain,pan}/[0-9]", "i", i32(3)),
    "liblo-timetag": msg("/t", "t", u32(0x83AA7E80) + u32(0x80000000)),
}

bad = {
    "empty": b"",
    "one-byte": b"/",
    "unterminated-address": b"/knob",
    "nonzero-padding": b"/ab\0,f\0\x01" + f32(1),
    "typetags-no-comma": s("/x") + s("f") + f32(1),
    "typetags-unterminated": s("/x") + b",fff",
    "short-argument": s("/x") + s(",i") + b"\0\0",
    "extra-bytes": gain + b"\0\0\0\0",
    "blob-too-long": s("/x") + s(",b") + i32(999999) + b"abcd",
    "blob-negative": s("/x") + s(",b") + i32(-4) + b"abcd",
    "unknown-type": s("/x") + s(",Q") + i32(1),
    "unbalanced-open": s("/x") + s(",[i") + i32(1),
    "unbalanced-close": s("/x") + s(",i]") + i32(1),
    "deep-arrays": s("/x") + s("," + "[" * 200 + "]" * 200),
    "deep-bundles": (lambda: (lambda f: f(f, 60))(lambda f, n: bundle([f(f, n - 1)]) if n else gain))(),
    "bundle-size-too-big": b"#bundle\0" + u32(0) + u32(1) + i32(4096) + gain,
    "bundle-size-negative": b"#bundle\0" + u32(0) + u32(1) + i32(-20) + gain,
    "bundle-truncated-timetag": b"#bundle\0\0\0\0",
    "bundle-inner-earlier": bundle([bundle([gain], 5)], 9),
    "no-slash": s("knob") + s(",f") + f32(1),
    "string-no-nul": s("/x") + s(",s") + b"abcd",
}

packets = {**valid, **{"bad-" + k: v for k, v in bad.items()}}


def slip(packet, double_end=True):
    body = packet.replace(b"\xdb", b"\xdb\xdd").replace(b"\xc0", b"\xdb\xdc")
    return (b"\xc0" if double_end else b"") + body + b"\xc0"


def lp(packet):
    return i32(len(packet)) + packet


def write(target, name, data):
    directory = os.path.join(HERE, "Corpus", target)
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, name), "wb") as f:
        f.write(data)


for name, data in packets.items():
    write("FuzzPacketDecoder", name, data)

small = [gain, msg("/b", "b", blob(b"\xc0\xdb\xc0")), msg("/x", ""), s("/ab\xc0")]
# The framer targets take two bytes off the front to choose the chunk sizes.
for chunking in (b"\0\0", b"\x0c\x13", b"\x1f\x06"):
    tag = chunking.hex()
    write("FuzzSLIPFramer", f"{tag}-two", chunking + b"".join(slip(p) for p in small))
    write("FuzzSLIPFramer", f"{tag}-single-end", chunking + b"".join(slip(p, False) for p in small))
    write("FuzzSLIPFramer", f"{tag}-escapes", chunking + slip(b"\xdb\xc0\xdb\xdb\xc0" * 3))
    write("FuzzSLIPFramer", f"{tag}-too-long", chunking + slip(bytes(100)))
    write("FuzzSLIPFramer", f"{tag}-bad-escape", chunking + b"\xc0ab\xdb\x01\xc0")
    write("FuzzSLIPFramer", f"{tag}-unfinished", chunking + b"\xc0" + gain)
    write("FuzzLengthPrefixFramer", f"{tag}-two", chunking + b"".join(lp(p) for p in small))
    write("FuzzLengthPrefixFramer", f"{tag}-zero-length", chunking + i32(0) + lp(gain) + i32(0))
    write("FuzzLengthPrefixFramer", f"{tag}-too-long", chunking + i32(65) + bytes(65))
    write("FuzzLengthPrefixFramer", f"{tag}-huge", chunking + u32(0xffffffff) + gain)
    write("FuzzLengthPrefixFramer", f"{tag}-unfinished", chunking + i32(40) + gain)

# The matcher target takes a pattern and an address separated by the first NUL byte.
patterns = [
    ("/knob/p1*", "/knob/p10"), ("/knob/p1*", "/knob/p2"), ("/knob/p50", "/knob/p50"),
    ("/a/*/c", "/a/b/c"), ("/a/*", "/a/b/c"), ("/?/b", "/a/b"), ("/[a-c]/x", "/b/x"), ("/[!a-c]/x", "/d/x"),
    ("/[-a]/x", "/-/x"), ("/[a-]/x", "/-/x"), ("/{gain,pan}/1", "/pan/1"), ("/{,a}/x", "//x"), ("/{a,b", "/a"),
    ("//x", "/a/b/x"), ("//", "/a"), ("/a//b", "/a/c/d/b"), ("/*a*a*a*a*a*a*b", "/" + "a" * 40),
    ("/" + "*" * 30 + "b", "/" + "a" * 60), ("//" * 10 + "z", "/a" * 30), ("/[", "/["), ("/]", "/]"), ("/[z-a]", "/m"),
    ("/x", "/x/"), ("", ""), ("/*", "/"), ("/{a,b}{c,d}*?[e-f]", "/bdzze"),
]
for n, (pattern, address) in enumerate(patterns):
    write("FuzzPatternMatcher", f"p{n:02d}", pattern.encode() + b"\0" + address.encode())

print("corpus written under", os.path.join(HERE, "Corpus"))
