#!/usr/bin/env python3
"""Reads the logs of `swift test` that Scripts/test.sh wrote, one per test target, and says what
passed and what failed, so that a failure does not hide thousands of lines above the last screen.

    test-summary.py line TARGET STATUS LOG       one line for a target that just finished
    test-summary.py total TARGET:STATUS:LOG ...  every target, the failing tests, and last the
                                                 line `N passed, M failed[, K skipped]`;
                                                 first:TARGET:STATUS:LOG is the failed first run
                                                 of a target that passed when run again: its
                                                 failures are listed, not counted

Both XCTest and Swift Testing results count. XCTest prints one `Test Case '...' passed|failed|
skipped` line per test; Swift Testing one `Test name passed|failed after ...` or `Test name
skipped` line per test function (its marks before `Test` are symbols that differ by platform).
A target whose process ended badly without a failing test (a crash, a hang killed by a signal)
counts as one failure named after the target and the tests it had started but not finished.

Swift Testing ends with `Test run with N tests in M suites passed|failed`. A log has been seen
(in CI, 2026-12-03) without the result lines of dozens of tests whose run said it passed: such a
run counts its N tests, and the target's line says how many of them had no line of their own.
"""

import re
import sys

XCTEST_CASE = re.compile(r"^Test Case '(?P<name>[^']+)' (?P<outcome>passed|failed|skipped) \(")
XCTEST_STARTED = re.compile(r"^Test Case '(?P<name>[^']+)' started")
TESTING_CASE = re.compile(
    r"^\S+ Test (?!run with |case )(?P<name>.+?)(?: with [0-9]+ test cases?)? (?:(?P<outcome>passed|failed) after [0-9.]+ seconds"
    r"|(?P<skipped>skipped)\b)")
TESTING_STARTED = re.compile(r"^\S+ Test (?!run with |case )(?P<name>.+?) started\.$")
TESTING_RUN = re.compile(r"^\S+ Test run with (?P<count>[0-9]+) tests? in [0-9]+ suites? (?P<outcome>passed|failed)")
TESTING_ISSUE = re.compile(r"^\S+ Test (?!case )(?P<name>.+?) recorded an issue.*? at (?P<place>[^: ]+\.swift:[0-9]+)")


class TargetResult:
    """What one target's log says: tests by outcome, and the tests that started but never ended."""

    def __init__(self, target, status, log):
        self.target = target
        self.status = status
        self.log = log
        self.passed = 0
        self.skipped = 0
        self.failed = []
        self.places = {}
        # Swift Testing's own results: those with a line, and the total its run line gives.
        self.testing_lines = 0
        self.testing_run = None
        self.without_lines = 0
        unfinished = {}
        try:
            with open(log, encoding="utf-8", errors="replace") as lines:
                for line in lines:
                    self.read(line.rstrip("\n"), unfinished)
        except OSError as error:
            self.failed.append(f"{target} (no log: {error.strerror})")
        if self.testing_run is not None and self.testing_run[1] == "passed" and self.testing_run[0] > self.testing_lines:
            self.without_lines = self.testing_run[0] - self.testing_lines
            self.passed += self.without_lines
        if status != 0 and not self.failed:
            started = ", ".join(list(unfinished)[:5]) or "no test had started"
            ended = "was stopped at its time limit" if status in (124, 137) else f"exited with status {status}"
            self.failed.append(f"{target} (swift test {ended}; unfinished: {started})")

    def read(self, line, unfinished):
        run = TESTING_RUN.match(line)
        if run:
            self.testing_run = (int(run["count"]), run["outcome"])
            return
        issue = TESTING_ISSUE.match(line)
        if issue:
            self.places.setdefault(issue["name"], issue["place"])
            return
        for started in (XCTEST_STARTED, TESTING_STARTED):
            match = started.match(line)
            if match:
                unfinished[match["name"]] = True
                return
        match = XCTEST_CASE.match(line)
        if match:
            self.count(match["name"], match["outcome"], unfinished)
            return
        match = TESTING_CASE.match(line)
        if match:
            self.testing_lines += 1
            self.count(match["name"], match["outcome"] or "skipped", unfinished)

    def count(self, name, outcome, unfinished):
        unfinished.pop(name, None)
        if outcome == "passed":
            self.passed += 1
        elif outcome == "skipped":
            self.skipped += 1
        else:
            place = self.places.get(name)
            self.failed.append(f"{self.target}: {name}" + (f" at {place}" if place else ""))

    def line(self):
        text = f"{self.target}: {self.passed} passed, {len(self.failed)} failed"
        if self.skipped:
            text += f", {self.skipped} skipped"
        if self.without_lines:
            text += f" ({self.without_lines} passed by the run's total, without a line of their own in the log)"
        return text + ("" if not self.failed else f"  (log: {self.log})")


def totals_line(results):
    passed = sum(result.passed for result in results)
    failed = sum(len(result.failed) for result in results)
    skipped = sum(result.skipped for result in results)
    return f"{passed} passed, {failed} failed" + (f", {skipped} skipped" if skipped else "")


def main(arguments):
    if len(arguments) == 4 and arguments[0] == "line":
        print(TargetResult(arguments[1], int(arguments[2]), arguments[3]).line())
        return 0
    if len(arguments) >= 1 and arguments[0] == "total":
        results = []
        first_runs = []
        for triple in arguments[1:]:
            into = results
            if triple.startswith("first:"):
                into, triple = first_runs, triple[len("first:"):]
            target, status, log = triple.split(":", 2)
            into.append(TargetResult(target, int(status), log))
        print("== Summary")
        for result in results:
            print(result.line())
        once = [name for result in first_runs for name in result.failed]
        if once:
            print("Failed on a first run and passed when their target ran again (flaky: look at them):")
            for name in once:
                print(f"  {name}")
        failing = [name for result in results for name in result.failed]
        if failing:
            print("Failing tests:")
            for name in failing:
                print(f"  {name}")
        print(totals_line(results))
        return 1 if failing else 0
    print(__doc__, file=sys.stderr)
    return 64


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
