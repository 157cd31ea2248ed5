#!/usr/bin/env bash
# Builds KnobLink and runs it on its embedded default. Extra arguments go to the command.
set -euo pipefail
cd "$(dirname "$0")/.."
bash Scripts/install-deps.sh
# The standard library linked statically: one binary, and about 3 MB less resident memory than
# loading the Swift runtime's shared libraries (Docs/BENCHMARKS.md, "Memory"). The linker's warning
# about `mktemp` comes from FoundationEssentials' own temporary files; KnobLink never calls it.
swift build -c release --static-swift-stdlib --product knoblink
if [ $# -eq 0 ]; then
    set -- serve
fi
exec .build/release/knoblink "$@"
