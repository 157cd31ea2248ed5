#!/usr/bin/env python3
"""Lists the functions of one binary that callgrind profiles saw run, for lld's --symbol-ordering-file.

Usage: order-functions.py BINARY PROFILE...

Prints one (mangled) symbol a line: the functions of BINARY that ran in the profiles, in the order
of the profiles given and, within a profile, in the order BINARY has them (it is linked without an
order), so that a function, its closures and its specialisations stay together. Callgrind names
each function and object once, as `fn=(7) name` or `ob=(2) path`, and refers to them by number afterwards
(`fn=(7)`); `cfn=`/`cob=` name a callee and its object the same way. A name ending in `'2` is a
recursion level of the same function.
"""
import re
import subprocess
import sys

REFERENCE = re.compile(r"\((\d+)\)(?: (.*))?$")


def functions(profile, binary):
    """The functions of `binary` that ran in one profile, as callers (`fn=`) or callees (`cfn=`)."""
    objects, names = {}, {}
    ran = set()
    current_object = callee_object = None

    def resolve(text, table):
        match = REFERENCE.match(text)
        if not match:
            return text
        number, name = match.groups()
        if name is not None:
            table[number] = name
        return table.get(number)

    for line in open(profile, errors="replace"):
        line = line.rstrip("\n")
        if line.startswith("ob="):
            current_object, callee_object = resolve(line[3:], objects), None
        elif line.startswith("cob="):
            callee_object = resolve(line[4:], objects)
        elif line.startswith("fn="):
            name = resolve(line[3:], names)
            callee_object = None
            if current_object == binary:
                ran.add(name)
        elif line.startswith("cfn="):
            name = resolve(line[4:], names)
            if (callee_object or current_object) == binary:
                ran.add(name)
    return ran


def addresses(binary):
    """Where each function sits in `binary` as linked without an order (`nm`)."""
    listing = subprocess.run(["nm", "--defined-only", binary], capture_output=True, text=True, check=True).stdout
    found = {}
    for line in listing.splitlines():
        fields = line.split(" ", 2)
        if len(fields) == 3 and fields[1] in "tTwW" and fields[0]:
            found.setdefault(fields[2], int(fields[0], 16))
    return found


def main():
    binary, profiles = sys.argv[1], sys.argv[2:]
    where = addresses(binary)
    seen = set()
    for profile in profiles:
        # Callgrind's own entries ("(below main)", "0x…" for code without a symbol) are not symbols.
        ran = {re.sub(r"'\d+$", "", name) for name in functions(profile, binary)}
        ran = {name for name in ran if name and not name.startswith(("0x", "(")) and " " not in name}
        # In the linker's own order within a profile: neighbours in the source (a function, its
        # closures and specialisations) stay neighbours.
        for name in sorted(ran - seen, key=lambda name: where.get(name, 1 << 62)):
            print(name)
        seen |= ran


if __name__ == "__main__":
    main()
