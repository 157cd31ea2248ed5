#!/usr/bin/env bash
# Installs the Debian and PyPI packages KnobLink needs, only those that are missing.
# Debian: liblo (reference peer for tests/benchmarks, oscsend/oscdump), pkg-config,
# libsndfile (audio decoding) and zlib (PNG) for the Waveform module.
# PyPI: python-osc (interoperability tests).
set -euo pipefail

need_apt=()
command -v pkg-config >/dev/null 2>&1 || need_apt+=(pkg-config)
pkg-config --exists liblo 2>/dev/null || need_apt+=(liblo-dev)
command -v oscsend >/dev/null 2>&1 || need_apt+=(liblo-tools)
pkg-config --exists sndfile 2>/dev/null || need_apt+=(libsndfile1-dev)
pkg-config --exists zlib 2>/dev/null || need_apt+=(zlib1g-dev)
command -v python3 >/dev/null 2>&1 || need_apt+=(python3)
python3 -m pip --version >/dev/null 2>&1 || need_apt+=(python3-pip)

if [ ${#need_apt[@]} -gt 0 ]; then
    sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    echo "Installing Debian packages: ${need_apt[*]}" >&2
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need_apt[@]}" >&2
fi

if ! python3 -c 'import pythonosc' >/dev/null 2>&1; then
    echo "Installing python-osc from PyPI" >&2
    # Debian's own python3 refuses a global pip install (PEP 668); a user install is the fallback.
    python3 -m pip install -q python-osc >&2 \
        || python3 -m pip install -q --user --break-system-packages python-osc >&2
fi
