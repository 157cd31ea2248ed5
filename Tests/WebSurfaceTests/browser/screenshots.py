#!/usr/bin/env python3
"""Screenshots of the web page: screenshots.py URL OUTDIR writes OUTDIR/web-light.png and
OUTDIR/web-dark.png at twice the device pixel ratio (Scripts/screenshots-web.sh runs it)."""
import pathlib, sys, time
from common import chromium

url, out = sys.argv[1].rstrip("/"), pathlib.Path(sys.argv[2])
out.mkdir(parents=True, exist_ok=True)
driver = chromium(width=1000, height=860, scale=2)
try:
    for theme in ("light", "dark"):
        driver.get(f"{url}/ui?theme={theme}")
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            ready = driver.execute_script(
                "return document.body.dataset.connection === 'open' && !!KnobLink.page.wave"
                " && KnobLink.page.wave.state.bars.length > 0 && document.querySelectorAll('[role=slider]').length > 1")
            if ready:
                break
            time.sleep(0.1)
        else:
            sys.exit(f"the page at {url}/ui did not load its tree and waveform")
        if theme == "light":
            # The playhead part-way, so that both colours of the waveform show; the next load sees it.
            driver.execute_script("KnobLink.page.send('/wave/pause'); KnobLink.page.send('/wave/progress', [0.4])")
            time.sleep(0.3)
            driver.refresh()
            time.sleep(1.5)
        time.sleep(0.5)
        driver.save_screenshot(str(out / f"web-{theme}.png"))
        print(out / f"web-{theme}.png")
finally:
    driver.quit()
