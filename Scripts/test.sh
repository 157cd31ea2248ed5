#!/usr/bin/env bash
# Installs what is missing, then runs every test of the package (XCTest and Swift Testing) and
# ends with one summary: a line per target, the names of the failing tests, and last the line
# `N passed, M failed` (`, K skipped` when tests were skipped). The exit status is non-zero when
# the build or any test failed. A target with a failing test runs a second time; the second run
# counts, and the tests that failed only the first time are listed as such.
# The test targets run one after another (each in parallel within itself): the end-to-end
# targets start dozens of servers and peers, and on a two-core machine running them alongside
# everything else starves the tests' own waits. Each target's whole output goes to
# .build/test-logs/TARGET.log; only the summary lines reach the terminal.
# With arguments, runs `swift test --skip-build ARGUMENTS` after the build, unsummarised.
set -euo pipefail
cd "$(dirname "$0")/.."
bash Scripts/install-deps.sh
logs=.build/test-logs
mkdir -p "$logs"

if ! swift build --build-tests >"$logs/build.log" 2>&1; then
    grep -E '^[^ ]+:[0-9]+:[0-9]+: error:' "$logs/build.log" | sort -u || tail -n 40 "$logs/build.log"
    echo "The build failed; the whole output is in $logs/build.log"
    echo "0 passed, 1 failed"
    exit 1
fi
# A warning is a bug to fix, never noise to scroll past: show each one once.
grep -E '^[^ ]+:[0-9]+:[0-9]+: warning:' "$logs/build.log" | sort -u || true

if [ $# -gt 0 ]; then
    exec swift test --skip-build "$@"
fi

# No target may hang the run: each gets at most this long (seconds), then counts as failed with
# the tests it had not finished. The slowest, KnobLinkCLITests, takes about 8 minutes here.
target_limit=${KNOBLINK_TARGET_TIMEOUT:-1500}
results=()
# Runs $target (with its $runners) into the log $1; sets $status.
run_target() {
    status=0
    timeout --kill-after=30 "$target_limit" \
        swift test --skip-build "${runners[@]}" --filter "^$target\\." >"$1" 2>&1 || status=$?
    if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
        # swift test runs the test binary in a process group of its own, which timeout's
        # signal does not reach: end what is left of this target before the next one starts.
        pkill -KILL -f -- "--filter \^$target\\\\\." 2>/dev/null || true
        echo "$target: stopped after ${target_limit} s (KNOBLINK_TARGET_TIMEOUT)" >>"$1"
    fi
}
for dir in Tests/*/; do
    target=$(basename "$dir")
    # A target without tests of one kind skips that runner instead of printing `Executed 0 tests`.
    runners=()
    grep -rqs --include='*.swift' '^import XCTest' "$dir" || runners+=(--disable-xctest)
    grep -rqs --include='*.swift' '^import Testing' "$dir" || runners+=(--disable-swift-testing)
    log="$logs/$target.log"
    run_target "$log"
    if [ "$status" -ne 0 ] && [ "$status" -ne 124 ] && [ "$status" -ne 137 ]; then
        # A target that failed runs once more: a failure that comes back fails the run; one that
        # does not is named in the summary as having failed once, never dropped silently.
        first="$logs/$target.first.log"
        mv "$log" "$first"
        python3 Scripts/test-summary.py line "$target" "$status" "$first"
        echo "$target: running it once more"
        run_target "$log"
        [ "$status" -eq 0 ] && results+=("first:$target:1:$first")
    fi
    python3 Scripts/test-summary.py line "$target" "$status" "$log"
    results+=("$target:$status:$log")
done
exec python3 Scripts/test-summary.py total "${results[@]}"
