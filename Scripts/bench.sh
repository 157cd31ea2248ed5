#!/usr/bin/env bash
# Builds the benchmarks (-c release) and runs every scenario, KnobLink side by side with liblo and
# the raw socket in one run: for each, KnobLink's figure, the peer's and the ratio (Docs/BENCHMARKS.md).
# The web suite measures the page in headless Chromium against the release `knoblink` of the main
# package (Benchmarks/web/web_bench.py); it needs none of the Swift benchmarks built.
# Usage: bash Scripts/bench.sh [osc|udp|params|server|waveform|render|oscquery|websocket|web]...   (default: all of them)
set -euo pipefail
cd "$(dirname "$0")/.."
bash Scripts/install-deps.sh >/dev/null

suites=("$@")
[ ${#suites[@]} -eq 0 ] && suites=(osc udp params server waveform render oscquery websocket web terminal)
swift_suites=0
for suite in "${suites[@]}"; do [ "$suite" != web ] && swift_suites=1; done

cd Benchmarks
if [ "$swift_suites" -eq 1 ]; then
    # SwiftPM keeps the source list of a path dependency (the main package) in its build plan and can
    # miss a file added there since the last build; dropping the plan makes it look again (no rebuild).
    rm -f .build/release.yaml .build/*/release/description.json
    swift build -c release
    bin="$(swift build -c release --show-bin-path)"
fi

echo "KnobLink benchmarks, $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
echo "machine: $(uname -srm); $(nproc) CPUs; $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
echo "liblo $(pkg-config --modversion liblo); libsndfile $(pkg-config --modversion sndfile); $(swift --version 2>/dev/null | head -1)"
# Other work on the machine shows in the wall-clock (UDP) figures, not in the CPU-time (codec) ones.
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo

# The release `knoblink` of the main package, built as Scripts/run.sh builds it; prints its path.
release_knoblink() {
    bash ../Scripts/build-release.sh
}

for suite in "${suites[@]}"; do
    case "$suite" in
    osc) "$bin/OSCBenchmarks" ;;
    udp) "$bin/UDPBenchmarks" ;;
    server)
        # The release `knoblink` binary of the main package is measured for memory too.
        "$bin/ServerBenchmarks" --knoblink "$(release_knoblink)"
        ;;
    params)
        if [ -x "$bin/ParameterBenchmarks" ]; then
            "$bin/ParameterBenchmarks"
        else
            echo "(no ParameterBenchmarks target yet)"
        fi
        ;;
    waveform)
        # The first run writes the 10- and 60-minute inputs into Benchmarks/.build/waveform-cache. The
        # release `knoblink` is timed as a whole process against the C loop as one, a plain C program.
        clang="$(dirname "$(command -v swift)")/clang"
        "$clang" -O2 -o .build/waveform-loop -ISources/CWaveformReference/include waveform/loop_process.c \
            Sources/CWaveformReference/waveform_reference.c -lsndfile -lm
        "$bin/WaveformBenchmarks" --knoblink "$(release_knoblink)" --loop "$(pwd)/.build/waveform-loop"
        ;;
    render) "$bin/RenderBenchmarks" ;;
    oscquery) "$bin/OSCQueryBenchmarks" ;;
    websocket) "$bin/WebSocketBenchmarks" ;;
    web)
        # The page is embedded in the binary, so a changed page needs this build to be measured.
        knoblink="$(release_knoblink)"
        ../.build/venv-browser/bin/python -u web/web_bench.py --knoblink "$knoblink" ${KNOBLINK_WEB_BENCH_ARGS:-}
        ;;
    terminal)
        # Frames in process (changed cells against a full redraw), then the release binary's surface
        # in a pseudo-terminal: idle CPU and UDP set -> frame latency.
        "$bin/TerminalBenchmarks"
        python3 -u terminal/terminal_bench.py "$(release_knoblink)"
        ;;
    *)
        echo "unknown suite '$suite' (osc, udp, params, server, waveform, render, oscquery, websocket, web, terminal)" >&2
        exit 64
        ;;
    esac
    echo
done
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
