#!/usr/bin/env python3
"""Lists the functions of one binary that callgrind profiles saw run, for lld's --symbol-ordering-file.

Usage: order-functions.py BINARY PROFILE...

Prints one (mangled) symbol a line: the functions of BINARY that ran in the profiles, in the order
of the profiles given and, within a profile, in the order BINARY has them (it is linked without an
order), so that a function, its closures and its specialisations stay together. Callgrind names each function and
object once, as `fn=(7) name` or `ob=(2) path`, and refers to them by number afterwards
(`fn=(7)`); `cfn=`/`cob=` name a callee and its object the same way. A name ending in `'2` is a
recursion level of the same function.
"""
import re
import subprocess
import sys

REFERENCE = re.compile(r"\((\d+)\)(?: (.*))?$")


def functions(profile, binary):
    """The functions of `binary` in one profile, with the instructions spent in each."""
    objects, names = {}, {}
    spent = {}
    current_object = callee_object = function = None
    after_call = False

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
            function = name if current_object == binary else None
            callee_object = None
            if function is not None:
                spent.setdefault(function, 0)
        elif line.startswith("cfn="):
            name = resolve(line[4:], names)
            if (callee_object or current_object) == binary:
                spent.setdefault(name, 0)
        elif line[:1].isdigit() and function is not None and not after_call:
            fields = line.split()
            if len(fields) >= 2:
                spent[function] += int(fields[1])
        after_call = line.startswith("calls=")
    return spent


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
        spent = functions(profile, binary)
        # In the linker's own order within a profile: neighbours in the source (a function, its
        # closures and specialisations) stay neighbours.
        for name in sorted(spent, key=lambda name: where.get(re.sub(r"'\d+$", "", name), 1 << 62)):
            base = re.sub(r"'\d+$", "", name)
            # Callgrind's own entries ("(below main)", "0x…" for code without a symbol) are not symbols.
            if base and not base.startswith(("0x", "(")) and " " not in base and base not in seen:
                seen.add(base)
                print(base)


if __name__ == "__main__":
    main()
