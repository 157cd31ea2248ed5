#!/usr/bin/env python3
"""The web page against a running `knoblink serve`, in headless Chromium with real pointer events,
checked from the server's side by UDP peers (SURFACES.md §2–4, PROTOCOL.md §4–5, §7).

Usage: server_tests.py URL [--knoblink BIN --server-pid PID --name NAME] [--only TEST,...]
URL is the server's HTTP address (http://127.0.0.1:PORT); its UDP port is the same number. The
server must run with `--feedback-port auto` so that replies reach the UDP peers' own ports. With
--knoblink, --server-pid and --name the restart test stops that server and starts another on the
same port (left running until this script ends). Prints `ok NAME` or `FAIL NAME: reason` per test
and exits 1 if any failed.
"""
import argparse, json, os, signal, socket, struct, subprocess, sys, time, traceback, urllib.request
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from common import chromium

# MARK: OSC over UDP


def pad(data):
    return data + b"\0" * (4 - len(data) % 4)


def message(address, *args):
    tags, data = ",", b""
    for a in args:
        if isinstance(a, float):
            tags, data = tags + "f", data + struct.pack(">f", a)
        elif isinstance(a, int):
            tags, data = tags + "i", data + struct.pack(">i", a)
        else:
            tags, data = tags + "s", data + pad(str(a).encode())
    return pad(address.encode()) + pad(tags.encode()) + data


def read_string(data, offset):
    end = data.index(b"\0", offset)
    return data[offset:end].decode(), offset + ((end - offset) // 4 + 1) * 4


def decode(data, into):
    if data.startswith(b"#bundle\0"):
        offset = 16
        while offset + 4 <= len(data):
            size = struct.unpack(">i", data[offset:offset + 4])[0]
            decode(data[offset + 4:offset + 4 + size], into)
            offset += 4 + size
        return into
    address, offset = read_string(data, 0)
    args = []
    tags, offset = read_string(data, offset) if offset < len(data) else (",", offset)
    for tag in tags[1:]:
        if tag in "if":
            args.append(struct.unpack(">" + tag, data[offset:offset + 4])[0])
            offset += 4
        elif tag == "s":
            text, offset = read_string(data, offset)
            args.append(text)
        elif tag == "b":
            size = struct.unpack(">i", data[offset:offset + 4])[0]
            args.append(data[offset + 4:offset + 4 + size])
            offset += 4 + ((size + 3) & ~3)
    into.append((address, args))
    return into


class Peer:
    """A UDP peer on a port of its own; it remembers every message it received."""

    def __init__(self, port):
        self.server = ("127.0.0.1", port)
        self.socket = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.socket.bind(("127.0.0.1", 0))
        self.url = "osc.udp://127.0.0.1:%d/" % self.socket.getsockname()[1]
        self.received = []

    def send(self, address, *args):
        self.socket.sendto(message(address, *args), self.server)

    def pump(self, seconds):
        deadline = time.monotonic() + seconds
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return
            self.socket.settimeout(left)
            try:
                decode(self.socket.recv(65536), self.received)
            except socket.timeout:
                return

    def wait_for(self, predicate, timeout=5.0):
        """The first new message (address, args) that satisfies predicate, or None."""
        deadline = time.monotonic() + timeout
        seen = 0
        while time.monotonic() < deadline:
            for item in self.received[seen:]:
                if predicate(item):
                    return item
            seen = len(self.received)
            self.pump(0.05)
        return None

    def query(self, address, timeout=3.0):
        self.received.clear()
        self.send(address)
        reply = self.wait_for(lambda m: m[0] == address and m[1], timeout)
        return reply[1][0] if reply else None


# MARK: Helpers


def wait_until(condition, timeout=5.0, interval=0.05):
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value or time.monotonic() >= deadline:
            return value
        time.sleep(interval)


def check(condition, text):
    if not condition:
        raise AssertionError(text)


def knob(driver, address):
    return driver.find_element(By.CSS_SELECTOR, '[data-address="%s"]' % address)


def norm_of(driver, address):
    return float(knob(driver, address).get_attribute("aria-valuenow"))


def open_page(driver, url, query=""):
    driver.get(url + "/ui" + query)
    check(wait_until(lambda: driver.execute_script("return document.body.dataset.connection") == "open", 10),
          "the page did not connect")
    check(wait_until(lambda: driver.find_elements(By.CSS_SELECTOR, '[role=slider][data-address="/knob/gain"]'), 10),
          "the page did not draw the tree")
    time.sleep(0.3)


def drag(driver, element, dx, dy, steps=8):
    chain = ActionChains(driver, duration=16).move_to_element(element).click_and_hold()
    for _ in range(steps):
        chain.move_by_offset(dx / steps, dy / steps)
    chain.release().perform()


# MARK: Tests


def test_page_shows_the_tree(driver, ctx):
    tree = json.load(urllib.request.urlopen(ctx.url + "/"))
    addresses = []

    def walk(node):
        for child in node.get("CONTENTS", {}).values():
            walk(child) if "CONTENTS" in child else addresses.append(child["FULL_PATH"])

    walk(tree)
    shown = driver.execute_script(
        "return Array.from(document.querySelectorAll('[data-address]')).map(e => e.dataset.address)")
    check(sorted(shown) == sorted(addresses + ["/wave/progress"]), "controls %s, tree %s" % (shown, addresses))
    sections = driver.execute_script(
        "return Array.from(document.querySelectorAll('section[aria-label]')).map(s => s.getAttribute('aria-label'))")
    check(sections[:2] == ["Knob", "Toggle"], "sections %s" % sections)
    gain = knob(driver, "/knob/gain")
    check(gain.get_attribute("aria-valuemin") == "0" and gain.get_attribute("aria-valuemax") == "1", "aria range")
    check(gain.get_attribute("aria-label") == "Gain" and gain.get_attribute("tabindex") == "0", "gain labels")
    check(wait_until(lambda: gain.get_attribute("aria-valuetext") == "0 dB"), "gain text " + str(gain.get_attribute("aria-valuetext")))
    check(knob(driver, "/toggle/retrigger").get_attribute("role") == "switch", "a boolean is a switch")
    check(gain.find_element(By.CSS_SELECTOR, "[data-part=title]").text == "Gain", "title")
    check(driver.execute_script("return performance.getEntriesByName('knoblink-frame').length") > 0, "no frame measures")


def test_drag_sets_the_server(driver, ctx):
    before = ctx.peer.query("/knob/gain")
    canvas = knob(driver, "/knob/gain").find_element(By.TAG_NAME, "canvas")
    diameter = knob(driver, "/knob/gain").size["width"]
    drag(driver, canvas, 0, diameter * 0.5)
    expected = before - 0.25  # half a diameter down on the centre line: a quarter of the range
    check(wait_until(lambda: abs(norm_of(driver, "/knob/gain") - expected) < 0.02), "page %s" % norm_of(driver, "/knob/gain"))
    check(wait_until(lambda: abs(ctx.peer.query("/knob/gain") - norm_of(driver, "/knob/gain")) < 1e-4),
          "server %s page %s" % (ctx.peer.query("/knob/gain"), norm_of(driver, "/knob/gain")))
    seen = ctx.listener.wait_for(lambda m: m[0] == "/knob/gain" and m[1] and abs(m[1][0] - expected) < 0.02)
    check(seen, "the UDP subscriber saw no drag values")


def test_udp_set_shows_on_the_page(driver, ctx):
    ctx.peer.send("/knob/pan", 0.25)
    check(wait_until(lambda: abs(norm_of(driver, "/knob/pan") - 0.25) < 1e-6), "pan %s" % norm_of(driver, "/knob/pan"))
    check(wait_until(lambda: knob(driver, "/knob/pan").get_attribute("aria-valuetext") == "-25"),
          "pan text %s" % knob(driver, "/knob/pan").get_attribute("aria-valuetext"))
    ctx.peer.send("/knob/frequency/raw", 1000.0)
    check(wait_until(lambda: knob(driver, "/knob/frequency").get_attribute("aria-valuetext") == "1kHz"), "frequency text")


def test_held_knob_keeps_its_value(driver, ctx):
    ctx.peer.send("/knob/gain", 0.5)
    check(wait_until(lambda: abs(norm_of(driver, "/knob/gain") - 0.5) < 1e-6), "gain did not reach 0.5")
    canvas = knob(driver, "/knob/gain").find_element(By.TAG_NAME, "canvas")
    ActionChains(driver).move_to_element(canvas).click_and_hold().perform()
    time.sleep(0.2)
    ctx.peer.send("/knob/gain", 0.9)
    time.sleep(0.6)
    check(abs(norm_of(driver, "/knob/gain") - 0.5) < 1e-6, "the held knob jumped to %s" % norm_of(driver, "/knob/gain"))
    ActionChains(driver).release().perform()
    check(wait_until(lambda: abs(norm_of(driver, "/knob/gain") - 0.9) < 1e-6),
          "after release the page shows %s" % norm_of(driver, "/knob/gain"))


def test_toggles(driver, ctx):
    toggle = knob(driver, "/toggle/retrigger")
    start = toggle.get_attribute("aria-checked") == "true"
    toggle.click()
    check(wait_until(lambda: ctx.peer.query("/toggle/retrigger") == (0.0 if start else 1.0)), "click did not flip")
    check(toggle.get_attribute("aria-checked") == ("false" if start else "true"), "aria-checked")
    toggle.send_keys(" ")
    check(wait_until(lambda: ctx.peer.query("/toggle/retrigger") == (1.0 if start else 0.0)), "space did not flip")
    ctx.peer.send("/toggle/retrigger", 1.0)
    check(wait_until(lambda: toggle.get_attribute("aria-checked") == "true"), "a UDP set did not show")


def test_keyboard(driver, ctx):
    ctx.peer.send("/knob/pan", 0.5)
    element = knob(driver, "/knob/pan")
    check(wait_until(lambda: abs(norm_of(driver, "/knob/pan") - 0.5) < 1e-6), "pan not at 0.5")
    element.send_keys(Keys.ARROW_UP)
    check(wait_until(lambda: abs(ctx.peer.query("/knob/pan") - 0.51) < 1e-5), "arrow up")
    element.send_keys(Keys.SHIFT + Keys.ARROW_LEFT)
    check(wait_until(lambda: abs(ctx.peer.query("/knob/pan") - 0.41) < 1e-5), "shift+arrow left")
    element.send_keys(Keys.PAGE_UP)
    check(wait_until(lambda: abs(ctx.peer.query("/knob/pan") - 0.51) < 1e-5), "page up")
    element.send_keys(Keys.END)
    check(wait_until(lambda: ctx.peer.query("/knob/pan") == 1.0), "end")
    element.send_keys(Keys.HOME)
    check(wait_until(lambda: ctx.peer.query("/knob/pan") == 0.0), "home")
    check(element.get_attribute("aria-valuetext") == "-50", "home text %s" % element.get_attribute("aria-valuetext"))
    # A key gesture is bracketed by touch messages; it ends 300 ms after its last key.
    toucher = Peer(ctx.port)
    toucher.send("/sys/subscribe", toucher.url, "/knob/pan", 0.0, 17)
    toucher.pump(0.3)
    toucher.received.clear()
    element.send_keys(Keys.ARROW_UP)
    pressed = time.monotonic()
    check(toucher.wait_for(lambda m: m[0] == "/knob/pan/touch" and m[1] == [1], 2), "no touch 1 for a key")
    check(toucher.wait_for(lambda m: m[0] == "/knob/pan/touch" and m[1] == [0], 2), "no touch 0 after the key")
    check(time.monotonic() - pressed >= 0.25, "the key gesture ended before 300 ms")


def test_wheel(driver, ctx):
    ctx.peer.send("/knob/pan", 0.5)
    element = knob(driver, "/knob/pan")
    check(wait_until(lambda: abs(norm_of(driver, "/knob/pan") - 0.5) < 1e-6), "pan not at 0.5")
    driver.execute_script(
        "arguments[0].dispatchEvent(new WheelEvent('wheel', {deltaY: -100, bubbles: true, cancelable: true}))", element)
    check(wait_until(lambda: abs(ctx.peer.query("/knob/pan") - 0.51) < 1e-5), "a wheel notch up is 1 %")


def test_editor(driver, ctx):
    element = knob(driver, "/knob/gain")
    element.find_element(By.CSS_SELECTOR, "[data-part=title]").click()
    dialog = driver.find_element(By.CSS_SELECTOR, "[role=dialog]")
    check(wait_until(dialog.is_displayed), "the editor did not open")
    field = dialog.find_element(By.TAG_NAME, "input")
    check(field.get_attribute("value") != "", "the editor is not pre-filled")
    field.clear()
    field.send_keys("abc")
    check(field.get_attribute("value") == "", "invalid text was accepted: %r" % field.get_attribute("value"))
    field.send_keys("-6 dB")
    check(field.get_attribute("value") == "-6 dB", "display text was refused: %r" % field.get_attribute("value"))
    dialog.find_element(By.XPATH, ".//button[normalize-space()='OK']").click()
    check(wait_until(lambda: not dialog.is_displayed()), "OK did not close the editor")
    check(wait_until(lambda: ctx.peer.query("/knob/gain/raw") is not None and abs(ctx.peer.query("/knob/gain/raw") + 6) < 1e-3),
          "server gain %s" % ctx.peer.query("/knob/gain/raw"))
    check(wait_until(lambda: element.get_attribute("aria-valuetext") == "-6 dB"), "page text %s" % element.get_attribute("aria-valuetext"))
    element.send_keys(Keys.ENTER)
    check(wait_until(dialog.is_displayed), "Enter did not open the editor")
    field.clear()
    field.send_keys("3")
    dialog.find_element(By.XPATH, ".//button[normalize-space()='Cancel']").click()
    time.sleep(0.3)
    check(abs(ctx.peer.query("/knob/gain/raw") + 6) < 1e-3, "Cancel changed the value")


def test_double_click_resets(driver, ctx):
    ctx.peer.send("/knob/gain", 0.1)
    check(wait_until(lambda: abs(norm_of(driver, "/knob/gain") - 0.1) < 1e-6), "gain not at 0.1")
    canvas = knob(driver, "/knob/gain").find_element(By.TAG_NAME, "canvas")
    ActionChains(driver).double_click(canvas).perform()
    check(wait_until(lambda: abs(ctx.peer.query("/knob/gain/raw")) < 1e-4), "server not back at 0 dB")
    check(wait_until(lambda: knob(driver, "/knob/gain").get_attribute("aria-valuetext") == "0 dB"), "page not back")


def test_scrubbing_reaches_a_visualiser(driver, ctx):
    visualiser = Peer(ctx.port)
    visualiser.send("/wave/sub", visualiser.url, 64)
    check(visualiser.wait_for(lambda m: m[0] == "/wave/info"), "the visualiser got no /wave/info")
    wave = knob(driver, "/wave/progress")
    width = wave.size["width"]
    chain = ActionChains(driver, duration=16).move_to_element_with_offset(wave, int(-width * 0.3), 0).click_and_hold()
    for _ in range(10):
        chain.move_by_offset(width * 0.04, 0)
    chain.release().perform()
    check(wait_until(lambda: abs(float(wave.get_attribute("aria-valuenow")) - 0.6) < 0.02), "page progress %s" % wave.get_attribute("aria-valuenow"))
    seen = visualiser.wait_for(lambda m: m[0] == "/wave/progress" and abs(m[1][0] - 0.6) < 0.02)
    check(seen, "the visualiser did not see the scrub")


def test_two_tabs(driver, ctx):
    first = driver.current_window_handle
    driver.switch_to.new_window("tab")
    open_page(driver, ctx.url)
    second = driver.current_window_handle
    driver.switch_to.window(first)
    knob(driver, "/knob/pan").send_keys(Keys.END)
    driver.switch_to.window(second)
    check(wait_until(lambda: norm_of(driver, "/knob/pan") == 1.0), "the other tab shows %s" % norm_of(driver, "/knob/pan"))
    driver.close()
    driver.switch_to.window(first)


def test_dark_theme(driver, ctx):
    ctx.peer.send("/knob/pan", 0.5)
    open_page(driver, ctx.url, "?theme=dark")
    check(wait_until(lambda: norm_of(driver, "/knob/pan") == 0.5), "pan not at 0.5")
    check(driver.execute_script("return document.documentElement.dataset.theme") == "dark", "not dark")
    pixel = driver.execute_script(
        """const c = document.querySelector('[data-address="/knob/pan"] canvas');
           const r = devicePixelRatio, g = KnobLink.math.knobGeometry(c.clientWidth, 0);
           const p = KnobLink.math.pointAt(g.centre, g.radius, 300);
           return Array.from(c.getContext('2d').getImageData(Math.round(p.x * r), Math.round(p.y * r), 1, 1).data);""")
    check(pixel[:3] == [0x33, 0x33, 0x33], "the dark track is %s" % pixel)
    open_page(driver, ctx.url)


def test_reconnects_after_a_restart(driver, ctx):
    if not ctx.knoblink:
        raise SkipTest("needs --knoblink, --server-pid and --name")
    os.kill(ctx.server_pid, signal.SIGTERM)
    check(wait_until(lambda: driver.execute_script("return document.body.dataset.connection") == "closed", 10),
          "the page did not see the server go")
    ctx.restarted = subprocess.Popen(
        [ctx.knoblink, "serve", "--port", str(ctx.port), "--name", ctx.name, *ctx.extra],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(1)
    ctx.peer.send("/knob/pan", 0.75)
    check(wait_until(lambda: driver.execute_script("return document.body.dataset.connection") == "open", 15),
          "the page did not reconnect")
    check(wait_until(lambda: norm_of(driver, "/knob/pan") == 0.75, 5), "after reconnecting pan is %s" % norm_of(driver, "/knob/pan"))


class SkipTest(Exception):
    pass


def test_high_dpi(driver, ctx):
    hi = chromium(scale=2)
    try:
        open_page(hi, ctx.url)
        ratio, width, css = hi.execute_script(
            "const c = document.querySelector('[data-address=\"/knob/gain\"] canvas'); return [devicePixelRatio, c.width, c.clientWidth]")
        check(ratio == 2 and width == 2 * css, "ratio %s canvas %s css %s" % (ratio, width, css))
    finally:
        hi.quit()


TESTS = [test_page_shows_the_tree, test_drag_sets_the_server, test_udp_set_shows_on_the_page, test_held_knob_keeps_its_value,
         test_toggles, test_keyboard, test_wheel, test_editor, test_double_click_resets, test_scrubbing_reaches_a_visualiser,
         test_two_tabs, test_dark_theme, test_high_dpi, test_reconnects_after_a_restart]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("url")
    parser.add_argument("--knoblink")
    parser.add_argument("--server-pid", type=int)
    parser.add_argument("--name")
    parser.add_argument("--only", default="")
    parser.add_argument("--extra", default="", help="more serve options for the restarted server")
    ctx = parser.parse_args()
    ctx.url = ctx.url.rstrip("/")
    ctx.port = int(ctx.url.rsplit(":", 1)[1])
    ctx.extra = ctx.extra.split()
    ctx.restarted = None
    ctx.peer = Peer(ctx.port)
    ctx.listener = Peer(ctx.port)
    ctx.listener.send("/sys/subscribe", ctx.listener.url, "", 0.0)
    chosen = [t for t in TESTS if not ctx.only or t.__name__[5:] in ctx.only.split(",")]
    failed = 0
    driver = chromium()
    try:
        open_page(driver, ctx.url)
        for test in chosen:
            try:
                test(driver, ctx)
                print("ok", test.__name__[5:], flush=True)
            except SkipTest as reason:
                print("skip", test.__name__[5:], reason, flush=True)
            except Exception as error:
                failed += 1
                print("FAIL %s: %s" % (test.__name__[5:], error), flush=True)
                traceback.print_exc()
                logs = [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]
                if logs:
                    print("  browser: " + "\n  browser: ".join(logs), flush=True)
    finally:
        driver.quit()
        if ctx.restarted:
            ctx.restarted.terminate()
            ctx.restarted.wait(10)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":  # Benchmarks/web/web_bench.py imports its OSC encoder
    main()
