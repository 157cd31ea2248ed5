#!/usr/bin/env bash
# Makes the pictures of Docs/WAVEFORM.md ("Pictures"): a six-second phrase written by Python's
# `wave` module (plucked notes, a silent gap, a swell; the same bytes every time), drawn by
# `knoblink waveform`; it prints the `.txt` example of "The command line" at the end.
# Usage: bash Scripts/waveform-images.sh
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product knoblink >/dev/null
knoblink="$(swift build --show-bin-path)/knoblink"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
audio="$scratch/phrase.wav"

python3 - "$audio" <<'PY'
import math, struct, sys, wave

rate = 22050
samples = [0.0] * (rate * 6)

def pluck(start, frequency, level, decay):
    for n in range(int(start * rate), min(len(samples), int((start + 1.6) * rate))):
        t = n / rate - start
        samples[n] += level * math.exp(-t * decay) * math.sin(2 * math.pi * frequency * t)

for index, (start, frequency) in enumerate([(0.0, 220), (0.4, 277), (0.8, 330), (1.2, 440), (1.6, 330)]):
    pluck(start, frequency, 0.45 + 0.1 * index, 3.5)
# 2.8 s to 3.4 s stay silent; then a swell that grows to full scale and stops.
for n in range(int(3.4 * rate), int(5.7 * rate)):
    t = n / rate - 3.4
    samples[n] += min(1.0, t / 2.0) ** 2 * 0.95 * math.sin(2 * math.pi * 110 * t) * (0.75 + 0.25 * math.sin(2 * math.pi * 3 * t))

with wave.open(sys.argv[1], "wb") as out:
    out.setnchannels(1)
    out.setsampwidth(2)
    out.setframerate(rate)
    out.writeframes(b"".join(struct.pack("<h", max(-32767, min(32767, int(s * 32767)))) for s in samples))
PY

for format in svg png; do
    "$knoblink" waveform "$audio" -o "Docs/images/waveform-light.$format" --progress 0.37 --background-color ffffff
    "$knoblink" waveform "$audio" -o "Docs/images/waveform-dark.$format" --theme dark --progress 0.62 \
        --bar-width 3 --bar-gap 1 --background-color 1c1c1e --unplayed-color 5a5a5f
    "$knoblink" waveform "$audio" -o "Docs/images/waveform-square-db.$format" --bar-style square --reduction db \
        --width 600 --height 80 --bar-width 4 --bar-gap 2 --progress 0.5 --played-color 0a84ff \
        --unplayed-color 8e8e9380
done
echo "wrote Docs/images/waveform-{light,dark,square-db}.{svg,png}"
"$knoblink" waveform "$audio" --bars 4
