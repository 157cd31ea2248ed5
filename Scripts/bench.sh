#!/usr/bin/env bash
# Builds the benchmarks (-c release) and runs every scenario, KnobLink side by side with liblo and
# the raw socket in one run: for each, KnobLink's figure, the peer's and the ratio (Docs/BENCHMARKS.md).
# Usage: bash Scripts/bench.sh [osc|udp|params|server|waveform|render]...   (default: all of them)
set -euo pipefail
cd "$(dirname "$0")/.."
bash Scripts/install-deps.sh >/dev/null

cd Benchmarks
# SwiftPM keeps the source list of a path dependency (the main package) in its build plan and can
# miss a file added there since the last build; dropping the plan makes it look again (no rebuild).
rm -f .build/release.yaml .build/*/release/description.json
swift build -c release
bin="$(swift build -c release --show-bin-path)"

echo "KnobLink benchmarks, $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
echo "machine: $(uname -srm); $(nproc) CPUs; $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
echo "liblo $(pkg-config --modversion liblo); libsndfile $(pkg-config --modversion sndfile); $(swift --version 2>/dev/null | head -1)"
# Other work on the machine shows in the wall-clock (UDP) figures, not in the CPU-time (codec) ones.
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo

suites=("$@")
[ ${#suites[@]} -eq 0 ] && suites=(osc udp params server waveform render)
for suite in "${suites[@]}"; do
    case "$suite" in
    osc) "$bin/OSCBenchmarks" ;;
    udp) "$bin/UDPBenchmarks" ;;
    server)
        # The release `knoblink` binary, built here from the main package, is measured for memory too.
        swift build -c release --product knoblink
        "$bin/ServerBenchmarks" --knoblink "$bin/knoblink"
        ;;
    params)
        if [ -x "$bin/ParameterBenchmarks" ]; then
            "$bin/ParameterBenchmarks"
        else
            echo "(no ParameterBenchmarks target yet)"
        fi
        ;;
    waveform)
        # The first run writes the 10- and 60-minute inputs into Benchmarks/.build/waveform-cache.
        "$bin/WaveformBenchmarks"
        ;;
    render) "$bin/RenderBenchmarks" ;;
    *)
        echo "unknown suite '$suite' (osc, udp, params, server, waveform, render)" >&2
        exit 64
        ;;
    esac
    echo
done
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
