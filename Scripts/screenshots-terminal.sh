#!/usr/bin/env bash
# Makes Docs/images/terminal-dark.png and terminal-light.png: `knoblink serve --surface` in a
# tmux pane of its own (own -L socket, no configuration, 96×30), a few knobs moved with keys,
# the pane captured with its colours (capture-pane -e), turned into HTML by aha and
# photographed by headless chromium. Needs tmux, aha and chromium (Scripts/install-deps.sh).
set -euo pipefail

cd "$(dirname "$0")/.."
swift build --product knoblink >&2
knoblink="$(swift build --show-bin-path)/knoblink"
work="$(mktemp -d)"
socket="knoblink-shots-$$"
trap 'tmux -L "$socket" kill-server 2>/dev/null || true; rm -rf "$work"' EXIT
mkdir -p Docs/images

for scheme in dark light; do
    tmux -L "$socket" -f /dev/null new-session -d -s shot -x 96 -y 30 \
        "env -u NO_COLOR COLORTERM=truecolor TERM=xterm-256color '$knoblink' serve --surface --port 0 \
        --bind 127.0.0.1 --name studio --theme $scheme --log-file '$work/log'"
    for _ in $(seq 100); do
        tmux -L "$socket" capture-pane -t shot -p | grep -q Gain && break
        sleep 0.1
    done
    # A click on the waveform row seeks to 40 % (column 38 of the row's 94 cells), and Tab takes
    # the focus from the row to Gain.
    tmux -L "$socket" send-keys -t shot -l $'\e[<0;39;1M\e[<0;39;1m'
    sleep 0.1
    # Gain to 7.2 dB, Frequency to 60 %, Pan a little left, Retrigger on, Attack and Sustain up;
    # Shift-Tab brings the focus back to Gain, whose value then shows under it.
    for keys in Tab L Tab 6 Tab H Tab ' ' Tab Tab Tab 3 Tab Tab 7 BTab BTab BTab BTab BTab BTab BTab BTab; do
        if [ "${#keys}" -eq 1 ]; then
            tmux -L "$socket" send-keys -t shot -l "$keys"
        else
            tmux -L "$socket" send-keys -t shot "$keys"
        fi
        sleep 0.05
    done
    sleep 1.6  # the titles go back from the value to the name after 1.25 s
    background=$([ "$scheme" = dark ] && echo "#18181b" || echo "#fafafa")
    {
        echo "<style>body{margin:8px;background:$background}"
        echo "pre{margin:0;font:15px/1.15 'DejaVu Sans Mono',monospace}</style><pre>"
        tmux -L "$socket" capture-pane -t shot -p -e | aha $([ "$scheme" = dark ] && echo --black) --no-header
        echo "</pre>"
    } >"$work/$scheme.html"
    chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=900,560 \
        --screenshot="Docs/images/terminal-$scheme.png" "file://$work/$scheme.html" >/dev/null 2>&1
    tmux -L "$socket" kill-session -t shot
    echo "Docs/images/terminal-$scheme.png" >&2
done
