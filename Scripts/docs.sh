#!/usr/bin/env bash
# Builds the DocC catalogue of every library module offline, with warnings as errors, so that a
# broken symbol link fails. Output in .build/docs/<Module>.doccarchive.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .build/docs
# Emitting symbol graphs loads every module of the package, the test targets' included: build them
# first, so that the script also works alone in a fresh clone (after the tests it is a no-op).
swift build --build-tests >.build/docs/build.log 2>&1 || { cat .build/docs/build.log >&2; exit 1; }
swift package dump-symbol-graph >.build/docs/symbol-graph.log 2>&1 || { cat .build/docs/symbol-graph.log >&2; exit 1; }
graphs=$(sed -n 's/^Files written to //p' .build/docs/symbol-graph.log | tail -1)
status=0
for catalogue in Sources/*/*.docc; do
    module=$(basename "$catalogue" .docc)
    own=.build/docs/graphs/$module
    rm -rf "$own" && mkdir -p "$own"
    cp "$graphs/$module".symbols.json "$own"/
    cp "$graphs/$module"@*.symbols.json "$own"/ 2>/dev/null || true
    if docc convert "$catalogue" --additional-symbol-graph-dir "$own" \
        --fallback-display-name "$module" --fallback-bundle-identifier "org.knoblink.$module" \
        --output-path ".build/docs/$module.doccarchive" --warnings-as-errors >".build/docs/$module.log" 2>&1; then
        echo "docs: $module ok"
    else
        echo "docs: $module FAILED" >&2
        cat ".build/docs/$module.log" >&2
        status=1
    fi
done
exit $status
