#!/usr/bin/env python3
"""Writes a TouchOSC (Mk1) layout for a KnobLink tree file: one page per top-level group, a
vertical fader for each continuous parameter and a toggle for each boolean one, each sending
and receiving the parameter's normalised value (0...1) at its OSC address.

    python3 Examples/touchosc/make-layout.py                                   # the default tree
    python3 Examples/touchosc/make-layout.py my-tree.json my.touchosc --root /inst1

A .touchosc file is a zip archive holding one file, index.xml. In that XML (layout version 15,
as the TouchOSC Editor 1.8 writes it) the names, texts and OSC addresses are base64-encoded.
The layout is for an iPad held upright (mode 1, 768 x 1024 points).
"""
import argparse
import base64
import json
import os
import sys
import zipfile
from xml.sax.saxutils import quoteattr

WIDTH, HEIGHT = 768, 1024
MARGIN, TITLE_HEIGHT, LABEL_HEIGHT = 20, 60, 40
COLOURS = ["red", "green", "blue", "yellow", "purple", "orange"]


def b64(text):
    return base64.b64encode(text.encode("utf-8")).decode("ascii")


def attributes(**values):
    return " ".join(f"{key}={quoteattr(str(value))}" for key, value in values.items())


def parameters(node, prefix):
    """Every parameter below a node, with its address, depth first as the tree lists them."""
    address = f"{prefix}/{node['identifier']}"
    if node["kind"] == "parameter":
        return [(address, node)]
    found = []
    for child in node["children"]:
        found += parameters(child, address)
    return found


def is_toggle(parameter):
    return parameter.get("unit", "generic").lower() == "boolean"


def page(group, root, colour):
    """One tab page: a title, then the group's parameters in a row of faders and toggles."""
    name = group.get("displayName", group["identifier"])
    controls = [
        "<control "
        + attributes(
            name=b64(f"title_{group['identifier']}"), x=MARGIN, y=MARGIN, w=WIDTH - 2 * MARGIN, h=TITLE_HEIGHT,
            color="gray", type="labelh", text=b64(name), size=32, background="false", outline="false")
        + "></control>"
    ]
    entries = parameters(group, root) if group["kind"] == "group" else [(f"{root}/{group['identifier']}", group)]
    count = max(len(entries), 1)
    column = (WIDTH - 2 * MARGIN) // count
    top = MARGIN + TITLE_HEIGHT + MARGIN
    for index, (address, parameter) in enumerate(entries):
        x = MARGIN + index * column
        width = column - MARGIN // 2
        label = parameter.get("shortNames", [None])[0] if column < 120 and parameter.get("shortNames") else None
        controls.append(
            "<control "
            + attributes(
                name=b64(f"label{index}_{group['identifier']}"), x=x, y=HEIGHT - MARGIN - LABEL_HEIGHT, w=width,
                h=LABEL_HEIGHT, color=colour, type="labelh",
                text=b64(label or parameter.get("displayName", parameter["identifier"])), size=14,
                background="false", outline="false")
            + "></control>")
        control_name = b64(address.strip("/").replace("/", "_"))
        if is_toggle(parameter):
            controls.append(
                "<control "
                + attributes(
                    name=control_name, x=x, y=top, w=width, h=width, color=colour, type="toggle",
                    scalef="0.0", scalet="1.0", osc_cs=b64(address), local_off="false")
                + "></control>")
        else:
            controls.append(
                "<control "
                + attributes(
                    name=control_name, x=x, y=top, w=width, h=HEIGHT - top - 2 * MARGIN - LABEL_HEIGHT,
                    color=colour, type="faderv", scalef="0.0", scalet="1.0", osc_cs=b64(address),
                    response="absolute", inverted="false", centered="false")
                + "></control>")
    return (
        "<tabpage "
        + attributes(
            name=b64(group["identifier"]), scalef="0.0", scalet="1.0", li_t=b64(name), li_c=colour, li_s=14,
            li_o="false", li_b="false", la_t=b64(name), la_c=colour, la_s=14, la_o="false", la_b="false")
        + ">"
        + "".join(controls)
        + "</tabpage>")


def layout(tree, root):
    pages = [page(node, root, COLOURS[index % len(COLOURS)]) for index, node in enumerate(tree["children"])]
    return (
        '<?xml version="1.0" encoding="UTF-8"?>'
        + '<layout version="15" mode="1" orientation="vertical">'
        + "".join(pages)
        + "</layout>")


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tree", nargs="?", default=os.path.join(here, "..", "trees", "default.json"))
    parser.add_argument("output", nargs="?", default=os.path.join(here, "knoblink-default.touchosc"))
    parser.add_argument("--root", default="", help="the server's --root, such as /inst1")
    arguments = parser.parse_args()
    with open(arguments.tree, encoding="utf-8") as file:
        tree = json.load(file)
    if tree.get("format") != "knoblink-tree":
        sys.exit(f"{arguments.tree}: not a KnobLink tree file")
    # A fixed date keeps the archive the same byte for byte from one run to the next.
    entry = zipfile.ZipInfo("index.xml", date_time=(2026, 1, 1, 0, 0, 0))
    entry.compress_type = zipfile.ZIP_DEFLATED
    with zipfile.ZipFile(arguments.output, "w") as archive:
        archive.writestr(entry, layout(tree, arguments.root.rstrip("/")))
    print(arguments.output)


if __name__ == "__main__":
    main()
