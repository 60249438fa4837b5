"""The page in a real browser: loads, follows the box live, plays it, keeps secrets."""

from __future__ import annotations

import io
import json
import queue
import time

import pytest
from PIL import Image

import browser
from companion.inputs import Tag
from companion.web import snapshot
from companion.web.shell import start
from web_rig import Rig, make_sim


@pytest.fixture
def driver():
    d = browser.page()
    yield d
    browser.release(d)


def wait_for(check, timeout: float = 5.0, what: str = "the page"):
    deadline = time.monotonic() + timeout
    while True:
        try:
            got = check()
            if got:
                return got
        except Exception:  # noqa: BLE001 - the page may be mid-update
            if time.monotonic() > deadline:
                raise
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} did not change in {timeout} s")
        time.sleep(0.02)


def text(driver, element_id: str) -> str:
    return driver.execute_script(f"return document.getElementById('{element_id}').textContent")


def oled_of(driver) -> bytes:
    src = driver.execute_script("return document.getElementById('oled').src")
    return src.split(",", 1)[1].encode()


def press(driver, name: str) -> None:
    driver.execute_script(
        "[...document.querySelectorAll('#buttons button')]"
        ".find(b => b.textContent === arguments[0]).click()", name)


def test_the_page_loads_and_follows_a_typed_input_within_a_second(rig, driver):
    driver.get(rig.server.url)
    wait_for(lambda: text(driver, "link") == "live", what="the stream")
    wait_for(lambda: "New Entanglion" in text(driver, "prompt-items"))
    t0 = time.monotonic()
    rig.run("press ok")  # typed in the terminal: the page must follow
    wait_for(lambda: "Difficulty" in text(driver, "prompt-title"), timeout=1.0)  # set-up 1
    assert time.monotonic() - t0 < 1.0


def test_buttons_on_the_page_play_a_whole_entanglion_setup_and_change_the_oled(rig, driver):
    driver.get(rig.server.url)
    wait_for(lambda: text(driver, "link") == "live")
    before = oled_of(driver)
    press(driver, "OK")
    wait_for(lambda: oled_of(driver) != before, what="the OLED image")
    rig.wait_idle()
    assert rig.sim.box.session.mode == "setup"
    while rig.sim.box.session.mode == "setup":
        press(driver, "OK")
        rig.wait_idle()
        time.sleep(0.05)
    wait_for(lambda: driver.execute_script("return document.body.dataset.game") == "entanglion")
    # The page's OLED is the box's OLED, pixel for pixel.
    wait_for(lambda: oled_of(driver).decode() == snapshot.oled_png(rig.sim.box.display.image))
    board = driver.find_element("css selector", "svg.board")
    assert len(board.find_elements("css selector", "g.planet")) == 12
    ships = board.find_elements("css selector", "g.ship[data-planet]")
    assert {s.get_attribute("data-planet") for s in ships} <= {
        rig.sim.box.session.game.state.pos[0], rig.sim.box.session.game.state.pos[1]}
    assert len(ships) == 2
    # Tap a card on pad 1 from the page: the same Tag event a reader gives.
    uid = driver.execute_script("const b = document.querySelector('#cardlist button');"
                                "b.click(); return b.dataset.uid")
    wait_for(lambda: Tag(1, uid) in rig.handled, what="the tap")


def test_a_screenshot_of_the_board_has_the_ship_colours_where_the_ships_are(rig, driver):
    for line in ["press ok"] * 6:
        rig.run(line)
    rig.wait_idle()
    assert rig.sim.box.session.mode == "game"
    driver.get(rig.server.url)
    wait_for(lambda: driver.find_elements("css selector", "svg.board g.ship[data-planet]"))
    png = driver.find_element("css selector", "svg.board").screenshot_as_png
    image = Image.open(io.BytesIO(png)).convert("RGB")
    colours = set(image.getdata())
    blue, red = (0x3B, 0x82, 0xF6), (0xEF, 0x44, 0x44)

    def near(c, want):
        return sum((a - b) ** 2 for a, b in zip(c, want)) < 30 ** 2

    assert any(near(c, blue) for c in colours) and any(near(c, red) for c in colours)
    assert image.width > 300 and image.height > 200


def test_a_qlanet_page_never_contains_a_secret(rig, driver):
    from companion.autoplay import AutoPlayer
    from companion.games.qlanet.knowledge import view

    driver.get(rig.server.url)
    wait_for(lambda: text(driver, "link") == "live")
    player = AutoPlayer(2, game="qlanet")
    checked = 0
    for _ in range(400):
        with rig.lock:
            cmd = player.next_command(rig.sim.box.session)
        if cmd is None:
            break
        rig.run(cmd)
        rig.wait_idle()
        s = rig.sim.box.session
        if s.mode != "game" or s.game.state.status != "playing" or not s.game.state.bells:
            continue
        html = driver.execute_script("return document.documentElement.outerHTML")
        public = json.dumps(view(s.game, "spectator"))
        for bell in s.game.state.bells:
            if bell["code"] not in public:
                assert f"{bell['code']}" not in html.replace("New QLANET", "")
        checked += 1
        if checked >= 5:
            break
    assert checked, "no Bell measurement was made: pick another seed"


def test_the_page_reconnects_by_itself_when_the_box_restarts(tmp_path, driver):
    first = Rig(tmp_path / "a")
    port = first.server.port
    driver.get(first.server.url)
    wait_for(lambda: text(driver, "link") == "live")
    first.close()
    wait_for(lambda: text(driver, "link") != "live", what="the link state")
    sim = make_sim(tmp_path / "b")
    sim.run("press down")
    server = None
    events: queue.SimpleQueue = queue.SimpleQueue()
    for _ in range(50):  # the old socket may linger a moment
        try:
            server = start(sim, f"127.0.0.1:{port}", events)
            break
        except OSError:
            time.sleep(0.1)
    assert server is not None
    try:
        wait_for(lambda: text(driver, "link") == "live", timeout=10, what="the reconnection")

        def cursor() -> str:
            while not events.empty():  # the game thread: the page asks it for a snapshot
                sim._input(events.get())
            return driver.execute_script(
                "return document.querySelector('#prompt-items li.cursor').textContent")

        wait_for(lambda: cursor() != "New Entanglion", timeout=5)
    finally:
        server.stop()
        sim.box.session.journal.close()


def test_the_page_is_readable_on_a_phone(rig):
    d = browser.page(390, 844, mobile=True)
    try:
        for line in ["press ok"] * 6:
            rig.run(line)
        rig.wait_idle()
        d.get(rig.server.url)
        wait_for(lambda: d.find_elements("css selector", "svg.board"))
        width = d.execute_script("return document.documentElement.scrollWidth")
        assert width <= 400  # nothing wider than the phone: no sideways scrolling
        board = d.find_element("css selector", "svg.board")
        assert board.size["width"] > 300
    finally:
        browser.release(d)


def test_the_hint_button_shows_the_box_s_hint_and_clears_when_the_game_moves(
        rig, driver, monkeypatch):
    from companion.games.entanglion import hint, ui

    monkeypatch.setattr(hint, "DEFAULT_BUDGET", 1500)  # the box's, only shorter
    for line in ("press ok", "press ok", "press ok", "press ok", "press back"):
        rig.run(line)  # a new Entanglion game with the set-up defaults
    rig.wait_idle()
    driver.get(rig.server.url)
    wait_for(lambda: driver.execute_script("return document.body.dataset.game") == "entanglion")
    assert driver.execute_script("return document.getElementById('hint').hidden") is False
    driver.execute_script("document.getElementById('hint-button').click()")
    items = lambda: driver.execute_script(  # noqa: E731
        "return [...document.querySelectorAll('#hint-list li')].map(li => li.textContent)")
    wait_for(lambda: len(items()) == 2, timeout=30, what="the hint")
    with rig.lock:
        want = [i.label for i in ui.hint_menu(rig.sim.box.session.game)["items"][:-1]]
    assert items() == want and "Chance to win" in text(driver, "hint-why")
    rig.run("press ok")
    rig.run("press down")  # the first move of the move menu, under its Hint
    rig.run("press ok")
    wait_for(lambda: items() == [], what="the stale hint to go")


def test_the_page_follows_a_whole_game_through_patches(rig, driver):
    """After its first snapshot a page is sent only what changed: what it shows at the
    end is the box's last snapshot, rebuilt in the browser."""
    from companion.autoplay import AutoPlayer

    driver.get(rig.server.url)
    wait_for(lambda: text(driver, "link") == "live")
    rig.autoplay(AutoPlayer(6), 400)
    want = rig.snapshot()
    wait_for(lambda: driver.execute_script("return last && last.game_id") == want["game_id"]
             and driver.execute_script("return JSON.stringify(last.log)")
             == json.dumps(want["log"], ensure_ascii=False, separators=(",", ":")),
             timeout=10, what="the page's log")
    got = driver.execute_script("return last")
    assert got["board_svg"] == rig.server.feed.snap["board_svg"]
    assert {k: v for k, v in got.items() if k != "board_svg"} == \
        {k: v for k, v in want.items() if k != "board_svg"}
