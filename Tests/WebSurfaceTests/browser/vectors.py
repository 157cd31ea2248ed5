#!/usr/bin/env python3
"""Runs cases against the page's own scripts (osc.js, math.js) in headless Chromium.

Usage: vectors.py CASES.json RESULTS.json. CASES.json is a list of cases ({"kind": "call",
"fn": "formatNumber", "args": [12.5, 1, 2]} and the other kinds of harness.html); RESULTS.json
gets one result per case, in order. The Swift test writes the cases and judges the results.
"""
import json, pathlib, sys
from common import chromium

cases = json.loads(pathlib.Path(sys.argv[1]).read_text())
driver = chromium()
try:
    driver.get((pathlib.Path(__file__).resolve().parent / "harness.html").as_uri())
    results = driver.execute_script("return runAll(arguments[0])", cases)
    errors = [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
finally:
    driver.quit()
if errors:
    print("\n".join(errors), file=sys.stderr)
    sys.exit(1)
pathlib.Path(sys.argv[2]).write_text(json.dumps(results))
