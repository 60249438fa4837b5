"""A past game in a real browser (Debian's headless Chromium): from the live page to
the list, then to a game, stepped through with the arrow keys and by clicking moves
and a point of the analysis chart; the page swaps in each position without a reload."""

from __future__ import annotations

import pytest

import browser
from companion.analyses import FILE, Analyses
from companion.autoplay import AutoPlayer
from companion.games.entanglion.analysis import analyse
from companion.journal import Journal
from companion.web import replay
from test_browser import wait_for
from web_rig import Rig, play


@pytest.fixture
def rig(tmp_path):
    r = Rig(tmp_path, seed=3)
    with r.lock:
        play(r.sim, AutoPlayer(5))
        r.sim.run("press ok")
    yield r
    r.close()


@pytest.fixture
def driver():
    d = browser.page(390, 844, mobile=True)
    yield d
    browser.release(d)


def shown(driver) -> int:
    return int(driver.execute_script(
        "return document.querySelector('#position h2').dataset.at"))


def test_a_past_game_opens_from_the_live_page_and_steps_to_any_position(rig, driver):
    record = rig.sim.box.session.journal.load(1)
    found = analyse(record.seed, record.options, record.setup,
                    Journal.effective_inputs(record.entries), budget=16)
    Analyses(rig.sim.box.session.journal.path.parent / FILE).save(1, found)
    last = len(replay.replay(record).positions) - 1
    driver.get(rig.server.url)
    wait_for(lambda: driver.find_element("css selector", 'header a[href="/games"]'))
    driver.find_element("css selector", 'header a[href="/games"]').click()
    wait_for(lambda: driver.current_url.endswith("/games"))
    driver.find_element("css selector", 'a[href="/game/1"]').click()
    wait_for(lambda: shown(driver) == last, what="the game's page")
    driver.execute_script("window.marker = 1")  # gone if the page reloads
    body = driver.find_element("tag name", "body")
    body.send_keys("\ue012")  # the left arrow
    wait_for(lambda: shown(driver) == last - 1, what="the position before")
    assert driver.execute_script("return window.marker") == 1, "reloaded by a key"
    assert driver.current_url.endswith(f"?at={last - 1}")
    body.send_keys("\ue011")  # Home
    wait_for(lambda: shown(driver) == 0, what="the set-up")
    driver.execute_script("document.querySelector('.moves a[data-at=\"5\"]').click()")
    wait_for(lambda: shown(driver) == 5, what="a clicked move")
    assert driver.execute_script("return window.marker") == 1, "reloaded"
    assert driver.execute_script(
        "return document.querySelector('.moves a[aria-current]').dataset.at") == "5"
    assert "<svg" in driver.execute_script(
        "return document.querySelector('#position .board-holder').innerHTML")
    point = found["decisions"][len(found["decisions"]) // 2]["input"]
    driver.find_element("css selector", f'svg.chart a[data-at="{point}"] circle').click()
    wait_for(lambda: shown(driver) == point, what="a point of the chart")
    assert driver.execute_script("return window.marker") == 1
    assert not [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
