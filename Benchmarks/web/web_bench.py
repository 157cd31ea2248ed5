#!/usr/bin/env python3
"""The web page's two benchmarks (issue 12), against a real `knoblink serve` in headless Chromium.

1. Frame cost: 64 knobs and a 3840-bar waveform, the playhead moving and a knob dragged with real
   pointer events, the frame rate unlocked. Every `knoblink-frame` measure of the page is
   collected; the normal page (dirty tracking) and `?draw=all` (the seed's way: every bar and
   every knob on every frame) run in alternating rounds of one run. Prints p50/p99/mean of each
   and their ratios.
2. Latency from a UDP set to the page's `aria-valuenow`: 1,000 sets of one knob, hand-encoded OSC
   over a plain UDP socket, in a second browser with its frame rate locked as usual. A
   MutationObserver in the page notes `performance.now()` at each change; the script notes
   `time.perf_counter()` before each send. Both are CLOCK_MONOTONIC on Linux, so the two differ
   by a constant, which is bounded from round trips over a WebSocket of this script's own
   (`ClockChannel.offset`). Prints p50/p99 and the bound.

Usage: web_bench.py --knoblink BIN [--seconds S] [--rounds R] [--sets N] [--spacing S]
                    [--only frames|latency] [--latency-unlocked] [--json FILE]
Docs/BENCHMARKS.md ("The web page") has the figures and Docs/WEB.md how to run it. No figure
here is asserted: the script fails only when the setup does (no server, no page, no bars).
"""
import argparse, array, bisect, contextlib, json, math, os, random, socket, statistics, struct, subprocess, sys, tempfile, threading, time, wave
from websockets.sync.server import serve
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

# The page's browser tests already start Chromium and encode OSC by hand (no dependency): their
# helpers serve here too.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../Tests/WebSurfaceTests/browser"))
import common as browser_tests  # noqa: E402
from server_tests import message  # noqa: E402

KNOBS = 64
BARS = 3840
# The page asks for one bar per two device pixels, up to 3840 (Docs/WEB.md, "Connection"): a
# waveform 3840 CSS pixels wide at a device pixel ratio of 2 gets all of them. The body has 20 px
# of padding on each side.
SCALE = 2
WINDOW = (3840 + 40, 900)
LATENCY_WINDOW = (1280, 800)
# Each round plays from the start, so a minute is enough for rounds of up to 50 s; the playhead
# then crosses 64 CSS pixels a second, as a three-minute song would on a 1,100 px wide page.
AUDIO_SECONDS = 60

# MARK: Inputs


def write_tree(path):
    """64 knobs in four groups of 16 (dB, Hz, %, generic), so that they fill four sections."""
    kinds = [("decibels", -60, 12, 0, "linear"), ("hertz", 10, 20000, 440, "logarithmic"),
             ("percent", 0, 100, 50, "linear"), ("generic", -1, 1, 0, "linear")]
    groups = []
    for g, (unit, low, high, default, taper) in enumerate(kinds):
        children = [{"kind": "parameter", "identifier": "k%02d" % i, "displayName": "Knob %d" % (g * 16 + i),
                     "address": 100 + g * 16 + i, "min": low, "max": high, "default": default,
                     "unit": unit, "taper": taper} for i in range(KNOBS // len(kinds))]
        groups.append({"kind": "group", "identifier": "g%d" % g, "displayName": "Group %d" % g,
                       "children": children})
    with open(path, "w") as file:
        json.dump({"format": "knoblink-tree", "version": 1, "children": groups}, file)


def write_audio(path):
    """A minute of mono 16-bit noise at 4 kHz under a slow swell, so that bars differ in height."""
    rate = 4000
    rng = random.Random(12)
    samples = array.array("h", (int(rng.uniform(-1, 1) * 32000 * (0.2 + 0.8 * abs(math.sin(n / rate * 0.7))))
                                for n in range(rate * AUDIO_SECONDS)))
    if sys.byteorder == "big":
        samples.byteswap()
    with wave.open(path, "wb") as file:
        file.setnchannels(1)
        file.setsampwidth(2)
        file.setframerate(rate)
        file.writeframes(samples.tobytes())


# MARK: OSC over UDP

def float32(value):
    """The value as the page gets it: a 32-bit float, read back as a double."""
    return struct.unpack(">f", struct.pack(">f", value))[0]


# MARK: Server and browser


def start_server(knoblink, directory, tree, audio):
    """`knoblink serve` on a free port of loopback; returns (process, port)."""
    log = open(os.path.join(directory, "serve.log"), "w")
    process = subprocess.Popen(
        [knoblink, "serve", "--tree", tree, "--audio", audio, "--port", "0", "--bind", "127.0.0.1",
         "--feedback-port", "auto", "--no-zeroconf", "--name", "webbench", "--summary", "0"],
        stdin=subprocess.DEVNULL, stdout=log, stderr=log)
    marker = "Listening on UDP and TCP port "
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and process.poll() is None:
        with open(log.name) as file:
            for line in file:
                if line.startswith(marker):
                    return process, int(line.split()[-1])
        time.sleep(0.05)
    process.kill()
    sys.exit("knoblink serve did not start:\n" + open(log.name).read())


def chromium(window, unlocked):
    """Headless Chromium as the page's tests start it; `unlocked`: the frame rate unlocked
    (TESTING-RECIPES.md §1: the only pair of flags that lets requestAnimationFrame run as fast as
    the page can draw)."""
    extra = ["--run-all-compositor-stages-before-draw", "--disable-frame-rate-limit"] if unlocked else []
    driver = browser_tests.chromium(width=window[0], height=window[1], scale=SCALE, extra=extra)
    driver.set_page_load_timeout(30)
    driver.set_script_timeout(60)
    return driver


def wait_until(condition, timeout, what):
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            sys.exit("timed out waiting for " + what)
        time.sleep(0.05)


def open_page(driver, url, query, bars=BARS):
    """Loads the page and waits for its 64 knobs (with their ranges) and its bars (3840 at the
    frame benchmark's size; the latency benchmark takes what the window gives, bars=0)."""
    driver.get(url + "/ui" + query)
    ready = """
        const page = KnobLink.page, controls = Array.from(page.controls.values());
        return document.body.dataset.connection === 'open' && controls.length === %d
            && controls.every((c) => c.info) && (%d === 0 || page.wave.state.bars.length === %d)
            && page.wave.state.bars.some((b) => b > 0);
    """ % (KNOBS, bars, bars)
    wait_until(lambda: driver.execute_script(ready), 20, "the page's knobs and bars")


# MARK: 1. Frame cost

# Collects every knoblink-frame measure as it is made: the page clears its own entries every
# 20,000 frames, which an unlocked frame rate reaches in seconds.
COLLECT = """
    window.benchFrames = [];
    window.benchObserver = new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) {
            if (entry.name === 'knoblink-frame') benchFrames.push(entry.startTime, entry.duration);
        }
    });
    benchObserver.observe({ entryTypes: ['measure'] });
"""


def drag_for(driver, element, seconds):
    """Holds the pointer down on the knob and moves it up and down (±60 px of a 160 px sweep)
    in 4 px steps for `seconds`, in chunks of about a second of W3C actions."""
    ActionChains(driver).move_to_element(element).click_and_hold().perform()
    end = time.monotonic() + seconds
    direction = -1
    while time.monotonic() < end:
        chain = ActionChains(driver, duration=16)
        for _ in range(30):
            chain.move_by_offset(0, 4 * direction)
        chain.perform()
        direction = -direction
    ActionChains(driver).release().perform()


def frame_round(driver, url, udp, server, query, seconds):
    """One round in one mode: play from the start, drag a knob, return [(start, duration)] in ms.

    Each round gets a tab of its own and closes the one before: navigated in one tab, the rounds
    after a `?draw=all` round ran at a tenth of the frame rate of the same page run alone
    (36 against 460 frames a second), as if the endless frames of `?draw=all` outlived it."""
    previous = driver.current_window_handle
    driver.switch_to.new_window("tab")
    driver.switch_to.window(previous)
    driver.close()
    driver.switch_to.window(driver.window_handles[0])
    open_page(driver, url, query)
    udp.sendto(message("/wave/progress", 0.0), server)
    udp.sendto(message("/wave/play"), server)
    wait_until(lambda: driver.execute_script("return KnobLink.page.wave.state.playing"), 5, "playback")
    time.sleep(0.5)  # past the page's first frames (layers drawn, fonts)
    driver.execute_script(COLLECT)
    # A knob of the second section, in the middle of the page.
    knob = driver.find_element(By.CSS_SELECTOR, '[data-address="/g1/k08"] canvas')
    drag_for(driver, knob, seconds)
    values, progress = driver.execute_script(
        "benchObserver.disconnect(); return [benchFrames, KnobLink.page.wave.state.anchor.progress];")
    udp.sendto(message("/wave/pause"), server)
    if not 0 < progress < 1:
        sys.exit("the playhead did not move during the round (progress %s)" % progress)
    return list(zip(values[0::2], values[1::2]))


def percentile(values, fraction):
    """The nearest-rank percentile."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(fraction * len(ordered)) - 1))]


def summary(frames):
    durations = [duration for _, duration in frames]
    starts = [start for start, _ in frames]
    gaps = [b - a for a, b in zip(starts, starts[1:])]
    return {
        "frames": len(durations), "p50": percentile(durations, 0.50), "p99": percentile(durations, 0.99),
        "max": max(durations), "mean": statistics.fmean(durations),
        "frames_per_second": len(gaps) / ((starts[-1] - starts[0]) / 1000) if gaps else 0,
        "interval_p50": percentile(gaps, 0.50) if gaps else 0, "interval_p99": percentile(gaps, 0.99) if gaps else 0,
    }


# MARK: 2. Latency


OBSERVE = """
    const knob = document.querySelector('[data-address="%s"]');
    window.benchChanges = [];
    window.benchMutations = new MutationObserver(() => {
        benchChanges.push(performance.now(), Number(knob.getAttribute('aria-valuenow')));
    });
    benchMutations.observe(knob, { attributes: true, attributeFilter: ['aria-valuenow'] });
    // The clock channel: every message from the script is answered with the page's clock.
    const clock = new WebSocket('ws://127.0.0.1:%d/');
    clock.onmessage = () => clock.send(String(performance.now()));
    window.benchClock = clock;
"""


class ClockChannel:
    """A WebSocket server of this script that the page connects to, only to read its clock.

    WebDriver's own round trip (script → chromedriver → DevTools → page and back) takes some
    5 ms here, too long to align clocks to a fraction of a millisecond; a WebSocket on loopback
    takes a tenth of that. It carries nothing while the sets are measured.
    """

    def __init__(self):
        self.connected = threading.Event()
        self.done = threading.Event()
        self.connection = None
        self.server = serve(self.handle, "127.0.0.1", 0)
        self.port = self.server.socket.getsockname()[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def handle(self, connection):
        self.connection = connection
        self.connected.set()
        self.done.wait()  # the connection lives as long as this handler

    def offset(self, samples=500):
        """Bounds the constant c with perf_counter() = performance.now()/1000 + c.

        Both clocks are CLOCK_MONOTONIC on Linux (Chromium's TimeTicks, Python's perf_counter),
        so they differ by a constant. Each sample brackets one `performance.now()` p between two
        perf_counter() readings t0 < t1; the page's clock is coarsened to `res` (100 µs without
        cross-origin isolation, jittered, so it may read up to `res` either way), so each sample
        says t0 - p - res <= c <= t1 - p + res. The intersection over all samples is the bound;
        the latency uses its middle, and half its width is the most that can be wrong by.
        """
        res = 0.0001
        low, high = -math.inf, math.inf
        for _ in range(samples):
            t0 = time.perf_counter()
            self.connection.send("t")
            page = float(self.connection.recv(timeout=5)) / 1000
            t1 = time.perf_counter()
            low, high = max(low, t0 - page - res), min(high, t1 - page + res)
        if low > high:
            sys.exit("the two clocks do not agree: performance.now() is not perf_counter() plus a constant here")
        return (low + high) / 2, high - low

    def close(self):
        self.done.set()
        self.server.shutdown()


def latency(driver, url, udp, server, sets, spacing):
    """Sends `sets` values to one knob, `spacing` seconds apart; returns latencies (s) and counts."""
    open_page(driver, url, "", bars=0)
    address = "/g2/k03"
    clock = ClockChannel()
    driver.execute_script(OBSERVE % (address, clock.port))
    if not clock.connected.wait(10):
        sys.exit("the page did not open the clock channel")
    offset_before, width_before = clock.offset()
    # Values 0.05…0.95, each far from the one before, as float32 like the page will get them.
    values = [float32(0.05 + 0.9 * ((i * 0.6180339887) % 1)) for i in range(sets)]
    sent = []
    next_send = time.perf_counter()
    for value in values:
        while time.perf_counter() < next_send:
            pass  # a busy wait: sleep() would add its own wake-up jitter to the send times
        sent.append(time.perf_counter())
        udp.sendto(message(address, value), server)
        next_send = sent[-1] + spacing
    time.sleep(0.2)
    changes = driver.execute_script("benchMutations.disconnect(); return benchChanges;")
    offset_after, width_after = clock.offset()
    driver.execute_script("benchClock.close()")
    clock.close()
    offset = (offset_before + offset_after) / 2
    # The server keeps a value in the parameter's units, so the norm it sends on may differ from
    # the one set in the last bit or so: a change belongs to the set whose value is nearest (the
    # values are at least 1e-4 apart), and the first change for it counts.
    ordered = sorted(range(sets), key=lambda i: values[i])
    keys = [values[i] for i in ordered]
    seen = {}
    for page_time, value in zip(changes[0::2], changes[1::2]):
        position = bisect.bisect_left(keys, value)
        best = min((p for p in (position - 1, position) if 0 <= p < sets), key=lambda p: abs(keys[p] - value))
        if abs(keys[best] - value) < 1e-6:
            seen.setdefault(ordered[best], page_time / 1000 + offset)
    latencies, late = [], 0
    for index, send_time in enumerate(sent):
        if index in seen:
            latencies.append(seen[index] - send_time)
            if index + 1 < len(sent) and seen[index] > sent[index + 1]:
                late += 1  # it changed only after the next set had gone
    return latencies, {
        "sets": sets, "changes_seen": len(latencies), "changed_after_next_set": late,
        "offset_bound_ms": max(width_before, width_after) * 1000,
        "offset_drift_ms": abs(offset_after - offset_before) * 1000,
    }


# MARK: Main


def main():
    arguments = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    arguments.add_argument("--knoblink", required=True)
    arguments.add_argument("--seconds", type=float, default=5, help="seconds of drag per round and mode")
    arguments.add_argument("--rounds", type=int, default=3, help="rounds, each running both modes")
    arguments.add_argument("--sets", type=int, default=1000)
    arguments.add_argument("--spacing", type=float, default=0.02, help="seconds between sets")
    arguments.add_argument("--json", help="also write the figures here")
    arguments.add_argument("--only", choices=["frames", "latency"], help="run one of the two benchmarks")
    arguments.add_argument("--modes", default="dirty,all", help="the frame benchmark's modes (dirty, all)")
    arguments.add_argument("--latency-unlocked", action="store_true",
                           help="measure the latency in the frame benchmark's browser (unlocked, 3880 px wide)")
    options = arguments.parse_args()
    if options.seconds > AUDIO_SECONDS - 10:
        arguments.error("--seconds: at most %d (the audio is %d s long)" % (AUDIO_SECONDS - 10, AUDIO_SECONDS))

    directory = tempfile.mkdtemp(prefix="knoblink-webbench-")
    tree, audio = os.path.join(directory, "tree.json"), os.path.join(directory, "audio.wav")
    write_tree(tree)
    write_audio(audio)
    process, port = start_server(options.knoblink, directory, tree, audio)
    url, server = "http://127.0.0.1:%d" % port, ("127.0.0.1", port)
    udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    udp.bind(("127.0.0.1", 0))
    results = {}
    try:
        if options.only != "latency":
            with browser(WINDOW, True) as driver:
                results["frames"] = run_frames(driver, url, udp, server, options)
        if options.only != "frames":
            # The latency is measured as a browser usually runs, its frame rate locked to the
            # display's: a frame rate left free keeps the compositor busy on both cores, which
            # is a condition of the frame benchmark, not of a page in use.
            unlocked = options.latency_unlocked
            with browser(WINDOW if unlocked else LATENCY_WINDOW, unlocked) as driver:
                results["latency"] = run_latency(driver, url, udp, server, options)
        if options.json:
            with open(options.json, "w") as file:
                json.dump(results, file, indent=2)
    finally:
        process.terminate()
        process.wait(10)


@contextlib.contextmanager
def browser(window, unlocked):
    driver = chromium(window, unlocked)
    try:
        print("Chromium %s, window %dx%d CSS px at %dx, frame rate %s"
              % (driver.capabilities.get("browserVersion"), *window, SCALE, "unlocked" if unlocked else "locked"))
        yield driver
    finally:
        driver.quit()


def run_frames(driver, url, udp, server, options):
    modes = {mode: query for mode, query in [("dirty", ""), ("all", "?draw=all")] if mode in options.modes}
    frames = {mode: [] for mode in modes}
    for round_index in range(options.rounds):
        # Alternate the order, so that neither mode always runs first (warmer or cooler).
        order = list(modes) if round_index % 2 == 0 else list(reversed(modes))
        for mode in order:
            collected = frame_round(driver, url, udp, server, modes[mode], options.seconds)
            if not collected:
                sys.exit("no knoblink-frame measures in mode " + mode)
            frames[mode] += collected
            one = summary(collected)
            print("round %d %-5s frames %6d  p50 %.2f ms  p99 %.2f ms  mean %.3f ms  %5.0f frames/s"
                  % (round_index + 1, mode, one["frames"], one["p50"], one["p99"], one["mean"],
                     one["frames_per_second"]))
    results = {mode: summary(frames[mode]) for mode in modes}
    if len(modes) < 2:
        print(results)
        return results
    print()
    print("frame cost (knoblink-frame), %d rounds of %.0f s per mode:" % (options.rounds, options.seconds))
    for mode, label in [("dirty", "page (dirty tracking)"), ("all", "?draw=all (seed's way)")]:
        r = results[mode]
        print("  %-23s frames %6d  p50 %.2f ms  p99 %.2f ms  max %.1f ms  mean %.3f ms  %5.0f frames/s"
              "  (frame interval p50 %.2f ms, p99 %.2f ms)"
              % (label, r["frames"], r["p50"], r["p99"], r["max"], r["mean"], r["frames_per_second"],
                 r["interval_p50"], r["interval_p99"]))
    ratio = {key: results["all"][key] / results["dirty"][key] if results["dirty"][key] else math.inf
             for key in ["p50", "p99", "mean"]}
    print("  ratio seed / page: p50 %.1f×, p99 %.1f×, mean %.1f×" % (ratio["p50"], ratio["p99"], ratio["mean"]))
    results["ratio"] = ratio
    return results


def run_latency(driver, url, udp, server, options):
    latencies, counts = latency(driver, url, udp, server, options.sets, options.spacing)
    if not latencies:
        sys.exit("the page showed none of the sets")
    milliseconds = [value * 1000 for value in latencies]
    lat = dict(counts, p50=percentile(milliseconds, 0.5), p99=percentile(milliseconds, 0.99),
               min=min(milliseconds), max=max(milliseconds))
    print()
    print("UDP set → aria-valuenow of one knob, %d sets %.0f ms apart: p50 %.2f ms  p99 %.2f ms  (min %.2f, max %.2f)"
          % (options.sets, options.spacing * 1000, lat["p50"], lat["p99"], lat["min"], lat["max"]))
    print("  changes seen %d of %d, %d only after the next set; clock offset known to ±%.2f ms (drift %.3f ms)"
          % (lat["changes_seen"], lat["sets"], lat["changed_after_next_set"], lat["offset_bound_ms"] / 2,
             lat["offset_drift_ms"]))
    return lat


if __name__ == "__main__":
    main()
