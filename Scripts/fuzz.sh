#!/usr/bin/env bash
# Builds every libFuzzer target of Fuzz/ and runs each for FUZZ_SECONDS (default 60) on a scratch
# copy of its seed corpus (Fuzz/Corpus/<target> -> Fuzz/corpus-work/<target>). Exits non-zero if a
# target crashes, leaks past the RSS limit or stalls; the input that did it is saved under
# Fuzz/corpus-work/artifacts/<target>/. Extra arguments go to every fuzzer (e.g. -jobs=2).
set -uo pipefail
cd "$(dirname "$0")/.."

seconds="${FUZZ_SECONDS:-60}"
# Swift's own crash backtracer would take the signal first and exit before libFuzzer saves the input.
export SWIFT_BACKTRACE=enable=no
work=Fuzz/corpus-work

# SwiftPM keeps the source list of a path dependency (the main package) in its build plan and can
# miss a file added there since the last build; dropping the plan makes it look again (no rebuild).
rm -f Fuzz/.build/release.yaml Fuzz/.build/*/release/description.json
echo "fuzz: building (swift build -c release --sanitize=fuzzer -Xswiftc -enable-testing in Fuzz/)"
if ! (cd Fuzz && swift build -c release --sanitize=fuzzer -Xswiftc -enable-testing); then
    echo "fuzz: build FAILED" >&2
    exit 1
fi
bin="$(cd Fuzz && swift build -c release --sanitize=fuzzer -Xswiftc -enable-testing --show-bin-path)"

targets=()
for dir in Fuzz/Sources/Fuzz*/; do
    name="$(basename "$dir")"
    [ "$name" = FuzzSupport ] && continue
    targets+=("$name")
done

status=0
for target in "${targets[@]}"; do
    corpus="$work/$target"
    artifacts="$work/artifacts/$target"
    mkdir -p "$corpus" "$artifacts"
    if [ -d "Fuzz/Corpus/$target" ]; then
        cp -n Fuzz/Corpus/"$target"/* "$corpus"/ 2>/dev/null || true
    fi
    log="$work/$target.log"
    echo "fuzz: $target for ${seconds}s ($(ls "$corpus" | wc -l) inputs in the corpus)"
    # FuzzAudioDecoder's RSS grows by ~5.6 KB per damaged Ogg Vorbis input (a libsndfile 1.2.0 leak,
    # see its source): 2048 MB lasts for hundreds of thousands of such inputs, not for days.
    if "$bin/$target" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 \
        -artifact_prefix="$artifacts/" "$@" "$corpus" >"$log" 2>&1; then
        echo "fuzz: $target passed: $(grep -E '^Done [0-9]+ runs' "$log" | tail -1)"
    else
        status=1
        echo "fuzz: $target FAILED (log: $log, input: $(ls "$artifacts" | head -1))" >&2
        grep -E -A12 'fuzz invariant failed|ERROR: libFuzzer|Fatal error|==ERROR' "$log" | head -40 >&2
    fi
done

# FuzzServerCore's server keeps its presets in a temporary directory of its own.
rm -rf "${TMPDIR:-/tmp}"/knoblink-fuzz-presets-*

if [ $status -ne 0 ]; then
    echo "fuzz: FAILED" >&2
else
    echo "fuzz: all ${#targets[@]} targets ran ${seconds}s without a crash"
fi
exit $status
