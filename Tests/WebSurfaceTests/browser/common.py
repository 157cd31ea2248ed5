"""What the browser scripts share: a headless Chromium from Debian driven by selenium."""
import os
from selenium import webdriver
from selenium.webdriver.chrome.service import Service


def chromium(width=1000, height=760, scale=1, extra=()):
    """A headless Chromium (as root it needs --no-sandbox), its logs kept."""
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("KNOBLINK_CHROMIUM", "/usr/bin/chromium")
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--hide-scrollbars",
                     f"--window-size={width},{height}", f"--force-device-scale-factor={scale}", *extra]:
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = Service(os.environ.get("KNOBLINK_CHROMEDRIVER", "/usr/bin/chromedriver"))
    driver = webdriver.Chrome(service=service, options=options)
    driver.set_page_load_timeout(20)
    driver.set_script_timeout(20)
    return driver
