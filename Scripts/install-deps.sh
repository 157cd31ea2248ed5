#!/usr/bin/env bash
# Installs the Debian and PyPI packages KnobLink needs, only those that are missing.
# Debian: liblo (reference peer for tests/benchmarks, oscsend/oscdump), pkg-config,
# libsndfile (audio decoding) and zlib (PNG) for the Waveform module, libavahi-client (the
# Zeroconf module); avahi-daemon, avahi-utils and dbus for the Zeroconf tests, which start their
# own daemon in a network namespace (Tests/ZeroconfTests/scripts/avahi-netns.sh); chromium and
# chromium-driver (the web page's browser tests, Scripts/screenshots-web.sh); libstdc++'s archive
# (the release binary links it statically). valgrind, for Scripts/order-functions.sh, is not
# installed here: only that developer's tool needs it.
# PyPI: python-osc (interoperability tests) and python-oscquery (the OSCQuery namespace's test
# reads it with that library's parser); selenium and websockets in .build/venv-browser (the
# browser and WebSocket tests use that venv's python); zeroconf in .build/zeroconf-venv (the
# Zeroconf tests run it by that path inside their network namespace).
set -euo pipefail

need_apt=()
command -v pkg-config >/dev/null 2>&1 || need_apt+=(pkg-config)
pkg-config --exists liblo 2>/dev/null || need_apt+=(liblo-dev)
command -v oscsend >/dev/null 2>&1 || need_apt+=(liblo-tools)
pkg-config --exists sndfile 2>/dev/null || need_apt+=(libsndfile1-dev)
pkg-config --exists zlib 2>/dev/null || need_apt+=(zlib1g-dev)
command -v python3 >/dev/null 2>&1 || need_apt+=(python3)
python3 -m pip --version >/dev/null 2>&1 || need_apt+=(python3-pip)
python3 -c 'import ensurepip' >/dev/null 2>&1 || need_apt+=(python3-venv)
# Installed without their recommends: the browser alone is some 440 MB, and avahi-daemon's
# (libnss-mdns) would change how the machine resolves `.local` names, which the tests do not need.
need_bare=()
[ -x /usr/bin/chromium ] || need_bare+=(chromium)
[ -x /usr/bin/chromedriver ] || need_bare+=(chromium-driver)
pkg-config --exists avahi-client 2>/dev/null || need_bare+=(libavahi-client-dev)
command -v avahi-daemon >/dev/null 2>&1 || need_bare+=(avahi-daemon)
command -v avahi-browse >/dev/null 2>&1 || need_bare+=(avahi-utils)
command -v dbus-daemon >/dev/null 2>&1 || need_bare+=(dbus)
# The terminal surface's tests and screenshots: tmux, aha (ANSI to HTML); chromium above.
command -v tmux >/dev/null 2>&1 || need_apt+=(tmux)
command -v aha >/dev/null 2>&1 || need_apt+=(aha)
command -v curl >/dev/null 2>&1 || need_apt+=(curl)
# The release binary links libstdc++ statically (Scripts/build-release.sh): its archive.
[ -f "$("$(dirname "$(command -v swift)")/clang" -print-file-name=libstdc++.a 2>/dev/null)" ] ||
    need_apt+=(libstdc++-12-dev)

if [ $((${#need_apt[@]} + ${#need_bare[@]})) -gt 0 ]; then
    sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    echo "Installing Debian packages: ${need_apt[*]} ${need_bare[*]}" >&2
    $sudo apt-get update -qq
    if [ ${#need_apt[@]} -gt 0 ]; then
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need_apt[@]}" >&2
    fi
    if [ ${#need_bare[@]} -gt 0 ]; then
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need_bare[@]}" >&2
    fi
fi

if ! python3 -c 'import pythonosc' >/dev/null 2>&1; then
    echo "Installing python-osc from PyPI" >&2
    # Debian's own python3 refuses a global pip install (PEP 668); a user install is the fallback.
    python3 -m pip install -q python-osc >&2 \
        || python3 -m pip install -q --user --break-system-packages python-osc >&2
fi

if ! python3 -c 'import pythonoscquery' >/dev/null 2>&1; then
    echo "Installing python-oscquery from PyPI" >&2
    python3 -m pip install -q 'python-oscquery==0.4.0' >&2 \
        || python3 -m pip install -q --user --break-system-packages 'python-oscquery==0.4.0' >&2
fi

# Virtual environments next to the build products (git ignores .build).
build="$(cd "$(dirname "$0")/.." && pwd)/.build"
mkdir -p "$build"
browser_venv="$build/venv-browser"
if ! "$browser_venv/bin/python" -c 'import selenium, websockets' >/dev/null 2>&1; then
    echo "Installing selenium and websockets into $browser_venv" >&2
    python3 -m venv "$browser_venv" >&2
    "$browser_venv/bin/pip" install -q selenium websockets >&2
fi

zeroconf_venv="$build/zeroconf-venv"
if ! "$zeroconf_venv/bin/python" -c 'import zeroconf' >/dev/null 2>&1; then
    echo "Installing zeroconf from PyPI into $zeroconf_venv" >&2
    python3 -m venv "$zeroconf_venv" >&2 && "$zeroconf_venv/bin/pip" install -q zeroconf >&2
fi
