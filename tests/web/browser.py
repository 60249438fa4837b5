"""Headless Chromium (Debian's package) driven by Selenium through the system
chromedriver: never a browser or driver download. Tests skip with the reason when
either is missing."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("COMPANION_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("COMPANION_CHROMEDRIVER", "/usr/bin/chromedriver")


def missing() -> str | None:
    for path in (CHROMIUM, CHROMEDRIVER):
        if not Path(path).exists():
            return f"{path} is not installed (apt-get install chromium chromium-driver)"
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[test]')"
    return None


def chromium(width: int = 1280, height: int = 900, mobile: bool = False) -> Any:
    """A fresh headless Chromium; ``mobile`` emulates a phone's viewport (a headless
    window cannot be narrower than about 500 px)."""
    reason = missing()
    if reason:
        pytest.skip(reason)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="companion-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run", f"--user-data-dir={profile}",
                 f"--window-size={width},{height}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    if mobile:
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": height, "deviceScaleFactor": 2, "mobile": True})
    driver.set_page_load_timeout(20)
    driver.set_script_timeout(20)
    driver._companion_profile = profile  # noqa: SLF001 - removed by quit()
    return driver


def quit(driver: Any) -> None:
    try:
        driver.quit()
    finally:
        shutil.rmtree(driver._companion_profile, ignore_errors=True)  # noqa: SLF001
