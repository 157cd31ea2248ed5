#!/usr/bin/env bash
# Installs what is missing, then runs every test of the package (XCTest and Swift Testing).
set -euo pipefail
cd "$(dirname "$0")/.."
bash Scripts/install-deps.sh
swift build --build-tests
swift test --skip-build "$@"
