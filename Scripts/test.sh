#!/usr/bin/env bash
# Installs what is missing, then runs every test of the package (XCTest and Swift Testing).
# The test targets run one after another (each in parallel within itself): the end-to-end
# targets start dozens of servers and peers, and on a two-core machine running them alongside
# everything else starves the tests' own waits.
set -euo pipefail
cd "$(dirname "$0")/.."
bash Scripts/install-deps.sh
swift build --build-tests
if [ $# -gt 0 ]; then
    exec swift test --skip-build "$@"
fi
status=0
for dir in Tests/*/; do
    target=$(basename "$dir")
    echo "== $target"
    swift test --skip-build --filter "^$target\\." || status=1
done
exit $status
