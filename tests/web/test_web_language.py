"""The page speaks the box's language: its catalog comes from the box, and when the
players change the language in Settings the open pages follow."""

from __future__ import annotations

import json

import pytest

import browser
from companion import i18n
from companion.web import server as web
from test_browser import text, wait_for
from web_rig import Rig


@pytest.fixture
def rig(tmp_path):
    r = Rig(tmp_path)
    yield r
    r.close()
    i18n.set_language("en")


def _choose_language(rig, own_name: str) -> None:
    """Settings > the language, with the box's buttons (as a player would)."""
    with rig.lock:
        items = rig.sim.box.session.screen()["items"]
    for _ in range(items.index(next(i for i in items if i in ("Settings", "Ustawienia")))):
        rig.run("press down")
    rig.run("press ok")
    rig.wait_idle()
    with rig.lock:
        items = [i.strip(" ●") for i in rig.sim.box.session.screen()["items"]]
    for _ in range(items.index(own_name)):
        rig.run("press down")
    rig.run("press ok")
    rig.wait_idle()


def test_the_catalog_is_the_language_the_box_speaks(rig):
    english = json.loads(rig.request("GET", "/catalog.json")[2])
    assert english == {"language": "en", "messages": {}}
    _choose_language(rig, "Polski")
    got = json.loads(rig.request("GET", "/catalog.json")[2])
    assert got["language"] == "pl" and rig.snapshot()["language"] == "pl"
    assert got["messages"]["core"]["The story of the game"] == "Historia gry"
    assert got["messages"]["entanglion"]["Quantum Tunnel"] == "Quantum Tunnel"  # its names


def test_every_shipped_language_has_a_page_catalog():
    for code in i18n.LANGUAGES:
        body = json.loads(web.page_catalog(code))
        assert body["language"] == code
        assert bool(body["messages"]) == (code != "en")


def test_the_page_follows_the_box_into_polish(rig):
    driver = browser.page()
    try:
        driver.get(rig.server.url)
        wait_for(lambda: text(driver, "link") == "live", what="the stream")
        wait_for(lambda: "New Entanglion" in text(driver, "prompt-items"))
        _choose_language(rig, "Polski")
        wait_for(lambda: "Nowa gra: Entanglion" in text(driver, "prompt-items"),
                 what="the menu in Polish")
        wait_for(lambda: text(driver, "history-button") == "Pokaż poprzednie gry",
                 what="the page's own words in Polish")
        assert driver.execute_script("return document.documentElement.lang") == "pl"
        # theme.js's button too: it says what a press does, in the new words
        dark = driver.execute_script("return document.documentElement.dataset.theme") == "dark"
        assert text(driver, "theme-button") == ("Jasny motyw" if dark else "Ciemny motyw")
        buttons = driver.execute_script(
            "return [...document.querySelectorAll('#buttons button')].map(b => b.textContent)")
        assert "Przytrzymaj BACK (cofnij)" in buttons
    finally:
        browser.release(driver)
