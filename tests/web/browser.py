"""Headless Chromium (Debian's package) driven by Selenium through the system
chromedriver: never a browser or driver download. Tests skip with the reason when
either is missing.

Tests take a page with :func:`page` and give it back with :func:`release`: one browser
per test process serves them all (starting Chromium is most of a short test's time),
and each test gets it as a fresh one would be: its size, no emulation, no cookies,
storage, cache or console messages left by the test before. :func:`chromium` starts a
browser of its own, for a script that wants to set it up its way.
"""

from __future__ import annotations

import contextlib
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


_shared: list[Any] = []  # this process's browser for page(), started by the first test


def page(width: int = 1280, height: int = 900, mobile: bool = False) -> Any:
    """This process's browser at a blank page of the given size, as :func:`chromium`
    would start it; give it back with :func:`release`."""
    if _shared:
        try:
            _shared[0].set_window_size(width, height)
        except Exception:  # noqa: BLE001 - it died since the last test: start another
            close_shared()
    if not _shared:
        _shared.append(chromium(width, height, mobile))
        return _shared[0]
    driver = _shared[0]
    if mobile:
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": height, "deviceScaleFactor": 2, "mobile": True})
    return driver


def release(driver: Any) -> None:
    """Back to a blank page with nothing of the test left; a browser that cannot be
    brought back (crashed, hung) is quit, and the next test starts a new one."""
    try:
        for handle in driver.window_handles[1:]:  # windows the page opened
            driver.switch_to.window(handle)
            driver.close()
        driver.switch_to.window(driver.window_handles[0])
        origin = driver.execute_script("return location.origin")
        driver.get("about:blank")  # ends the page's stream and timers
        if origin.startswith("http"):
            driver.execute_cdp_cmd("Storage.clearDataForOrigin",
                                   {"origin": origin, "storageTypes": "all"})
        driver.execute_cdp_cmd("Network.clearBrowserCookies", {})  # cookies ignore ports
        driver.execute_cdp_cmd("Network.clearBrowserCache", {})
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "", "features": []})
        driver.get_log("browser")  # the next test reads only its own messages
        driver.set_page_load_timeout(20)
        driver.set_script_timeout(20)
    except Exception:  # noqa: BLE001 - whatever broke it, a new browser is the cure
        close_shared()


def close_shared() -> None:
    """Quit this process's browser (the web tests' session fixture, at the end); one
    that already died is let go."""
    while _shared:
        with contextlib.suppress(Exception):
            quit(_shared.pop())


def quit(driver: Any) -> None:
    try:
        driver.quit()
    finally:
        shutil.rmtree(driver._companion_profile, ignore_errors=True)  # noqa: SLF001
