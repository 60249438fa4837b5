"""The live page as spectators, players and a teacher use it, in headless Chromium at
phone, laptop and TV sizes: text they can read, a log they can follow, a phone that
says when it is no longer paired, a board-only mode and axe-core's accessibility
rules in both themes (the theme switch itself: test_theme.py)."""

from __future__ import annotations

import gzip
import json
import time

import pytest

import axe
import browser
from companion.games.entanglion import board
from companion.web import publish
from companion.web.publish import Publisher
from companion.web.server import Pairing, WebServer
from test_browser import text, wait_for
from web_rig import Rig, make_sim

SIZES = {"phone": (390, 844, True), "laptop": (1280, 800, False), "tv": (1920, 1080, False)}


@pytest.fixture
def rig(tmp_path):
    r = Rig(tmp_path)
    yield r
    r.close()


def open_page(rig, size: str = "phone", query: str = ""):
    width, height, mobile = SIZES[size]
    d = browser.page(width, height, mobile=mobile)
    d.get(rig.server.url + query)
    wait_for(lambda: text(d, "link") == "live", what="the stream")
    return d


def start_game(rig) -> None:
    for line in ["press ok"] * 6:  # a new Entanglion game with the set-up's defaults
        rig.run(line)
    rig.wait_idle()
    assert rig.sim.box.session.mode == "game"


# Every text of the board and what it may not cover, measured by the browser (getBBox:
# the fonts it really uses), in the board's units.
MEASURE = """
const svg = document.querySelector('svg.board');
const owner = (e) => { const g = e.closest('[data-planet]'); return g ? g.dataset.planet : null; };
const box = (e) => { const b = e.getBBox(); return [b.x, b.y, b.x + b.width, b.y + b.height]; };
return {
  scale: svg.getScreenCTM().a,
  texts: [...svg.querySelectorAll('text')].map(e => ({text: e.textContent, owner: owner(e),
    size: parseFloat(e.getAttribute('font-size')), box: box(e),
    edge: e.getAttribute('data-for')})),
  shapes: [...svg.querySelectorAll('[data-planet] circle, [data-planet] rect')].map(e =>
    ({owner: owner(e), box: box(e)})),
};
"""


def overlap(a, b, by: float = 0.5) -> bool:
    return a[0] + by < b[2] and b[0] + by < a[2] and a[1] + by < b[3] and b[1] + by < a[3]


@pytest.mark.parametrize("size", list(SIZES))
def test_every_text_of_the_board_is_readable_and_clear_of_the_rest(rig, size):
    start_game(rig)
    d = open_page(rig, size)
    try:
        wait_for(lambda: d.find_elements("css selector", "svg.board g.ship[data-planet]"))
        got = d.execute_script(MEASURE)
        for t in got["texts"]:
            for s in got["shapes"]:
                if s["owner"] != t["owner"]:
                    assert not overlap(t["box"], s["box"]), f"{t['text']!r} on {s['owner']}"
        for i, t in enumerate(got["texts"]):
            for u in got["texts"][i + 1:]:
                if t["owner"] is None or t["owner"] != u["owner"]:
                    assert not overlap(t["box"], u["box"]), f"{t['text']!r} / {u['text']!r}"
        smallest = min(t["size"] for t in got["texts"]) * got["scale"]
        if size == "phone":
            assert smallest >= 12, f"the board's smallest text is {smallest:.1f} CSS px"
            # The rest of the page too: every element with text of its own.
            small = d.execute_script("""
              return [...document.querySelectorAll('body *')].filter(e =>
                e.offsetParent && [...e.childNodes].some(n => n.nodeType === 3 && n.data.trim())
                && !e.closest('svg') && parseFloat(getComputedStyle(e).fontSize) < 12)
                .map(e => e.tagName + ' ' + e.textContent.slice(0, 30));""")
            assert small == []
            assert d.execute_script("return document.documentElement.scrollWidth") <= 390
        else:
            assert smallest >= 10, f"the board's smallest text is {smallest:.1f} CSS px"
    finally:
        browser.release(d)


def test_the_log_is_numbered_by_input_and_does_not_pull_a_reader_down(rig):
    start_game(rig)
    d = open_page(rig, "laptop")
    try:
        numbers = lambda: d.execute_script(  # noqa: E731
            "return [...document.querySelectorAll('#log .n')].map(e => e.textContent)"
            ".filter(Boolean).map(Number)")
        from companion.autoplay import AutoPlayer

        player = AutoPlayer(6)
        rig.autoplay(player, 120)  # past the 40 lines the page keeps
        with rig.lock:
            inputs = len(rig.sim.box.session.game.inputs)
        wait_for(lambda: numbers() and numbers()[-1] == inputs,
                 what=f"the log's numbers (want {inputs})")
        got = numbers()
        assert got == sorted(got) and got[0] > 1  # the game's own numbers, not 1-40
        # No number is clipped: each is as wide as its column shows.
        assert d.execute_script("return [...document.querySelectorAll('#log .n')]"
                                ".every(e => e.scrollWidth <= e.clientWidth + 1)")
        at_bottom = "const l = document.getElementById('log');" \
                    "return l.scrollHeight - l.scrollTop - l.clientHeight < 8"
        assert d.execute_script(at_bottom)
        d.execute_script("document.getElementById('log').scrollTop = 0")  # reading back
        before = d.execute_script("return document.getElementById('log').scrollTop")
        rig.run("press down")
        rig.run("press up")
        rig.wait_idle()
        time.sleep(0.3)
        assert d.execute_script("return document.getElementById('log').scrollTop") == before
        # Lines are added, not the list rebuilt (a screen reader hears the new ones only).
        d.execute_script("window.firstLine = document.querySelector('#log li')")
        rig.autoplay(player, 1)
        time.sleep(0.3)
        assert d.execute_script("return document.getElementById('log').getAttribute('role')") \
            == "log"
        assert d.execute_script("return document.getElementById('log').tabIndex") == 0
    finally:
        browser.release(d)


def test_log_numbers_follow_the_engine_s_inputs(tmp_path):
    from companion.autoplay import AutoPlayer
    from companion.web import snapshot
    from web_rig import play

    for game in ("entanglion", "qno", "qlanet"):
        sim = make_sim(tmp_path / game)
        checked = []

        def each(sim):
            s = sim.box.session
            snap = snapshot.build(s, None)
            publish.page_extras(s, snap)
            if "log" in snap and s.mode == "game":
                numbers = snap["log_numbers"]
                assert len(numbers) == len(snap["log"])
                shown = [n for n in numbers if n is not None]
                assert shown == sorted(shown) and (not shown or shown[-1] <= len(s.game.inputs))
                checked.append(snap)

        play(sim, AutoPlayer(3, game=game), each=each)
        assert checked and checked[-1]["log_numbers"][-1] == len(sim.box.session.game.inputs)
        if game == "qlanet":
            assert checked[-1]["refill"] == sim.box.session.game.state.options["refill"]
        sim.box.session.journal.close()


def _paired_server(tmp_path, pairing):
    sim = make_sim(tmp_path)
    publisher = Publisher()
    got: list = []
    server = WebServer(publisher, inputs=got.append, pairing=pairing).start()
    sim.box.observers.append(publisher.publish)
    sim.box.refresh()
    return sim, server, got


def test_a_phone_unpaired_by_a_restart_shows_its_pin_form_again_and_says_why(tmp_path):
    pairing = Pairing()
    sim, server, got = _paired_server(tmp_path, pairing)
    d = browser.page(*SIZES["phone"])
    try:
        d.get(server.url)
        wait_for(lambda: text(d, "link") == "live")
        assert d.execute_script("return document.getElementById('pair').hidden") is False
        d.find_element("id", "pin").send_keys(pairing.new_pin())
        d.execute_script("document.querySelector('#pairform button').click()")
        wait_for(lambda: d.execute_script("return document.getElementById('pair').hidden"),
                 what="the pairing")
        d.execute_script("[...document.querySelectorAll('#buttons button')]"
                         ".find(b => b.textContent === 'DOWN').click()")
        wait_for(lambda: got, what="the press")
        pairing.new_pin()  # as after a restart without the pairings: the phone is a stranger
        d.execute_script("[...document.querySelectorAll('#buttons button')]"
                         ".find(b => b.textContent === 'DOWN').click()")
        wait_for(lambda: not d.execute_script("return document.getElementById('pair').hidden"),
                 what="the PIN form")
        assert d.execute_script("return document.getElementById('pair-why').hidden") is False
        toast = d.find_element("id", "toast")
        assert toast.is_displayed() and "pair" in toast.text.lower()
        # By the form to use now (the buttons went with the pairing), not at the end.
        assert d.execute_script("return document.getElementById('toast').closest('section').id")\
            == "pair"
        assert abs(toast.rect["y"] - d.find_element("id", "pin").rect["y"]) < 200
    finally:
        browser.release(d)
        server.stop()
        sim.box.session.journal.close()


def test_pairings_outlast_a_restart_hashed_and_bounded(tmp_path):
    keep = tmp_path / "pairings.json"
    first = Pairing(keep=keep)
    token = first.pair(first.new_pin())
    assert token and first.paired(token)
    assert token not in keep.read_text()  # only its hash is written
    assert keep.stat().st_mode & 0o777 == 0o600
    again = Pairing(keep=keep)  # the box restarted
    assert again.paired(token) and not again.paired("forged")
    again.new_pin()  # a new PIN still ends every pairing, for good
    assert not Pairing(keep=keep).paired(token)
    # A clock that went back (or a file made by hand) cannot lengthen a pairing.
    later = Pairing(keep=keep)
    token = later.pair(later.new_pin())
    stored = json.loads(keep.read_text())
    keep.write_text(json.dumps({h: u + 10 * later.paired_for for h, u in stored.items()}))
    assert not Pairing(keep=keep).paired(token)
    keep.write_text("{not json")
    assert not Pairing(keep=keep).paired(token)  # unreadable: pair again, no crash


def test_tv_mode_shows_the_board_only(rig):
    start_game(rig)
    d = open_page(rig, "tv", "?tv=1")
    try:
        wait_for(lambda: d.find_elements("css selector", "svg.board"))
        assert d.find_element("css selector", "svg.board").is_displayed()
        for hidden in ("box", "log-box", "history"):
            assert not d.find_element("id", hidden).is_displayed()
        facts = d.find_element("css selector", "#game .facts")
        assert not facts.is_displayed()
        board_height = d.find_element("css selector", "svg.board").rect["height"]
        assert board_height > 0.8 * d.execute_script("return innerHeight")  # most of it
    finally:
        browser.release(d)


def test_spectators_see_words_not_identifiers(rig):
    start_game(rig)
    d = open_page(rig, "laptop")
    try:
        shown = d.execute_script("""
          const s = JSON.parse(JSON.stringify(last));
          s.status = 'lost';
          s.end = {turns: 3, rolls: {made: 1, failed: 1, each: []}, retrieved: [],
                   detections: {wave_function_collapse: 1, schrodinger: 2, probe: 1,
                                'orbital defence': 1}};
          render(s);
          return document.getElementById('end-facts').textContent;""")
        assert "Wave Function Collapse" in shown and "Schrödinger" in shown
        assert "wave_function_collapse" not in shown and "schrodinger" not in shown
        deck = d.execute_script("""
          render({mode: 'game', game: 'qlanet', game_id: 9, status: 'playing', winners: [],
                  turn: {player: 0, number: 1}, costs: [0, 0], hand_sizes: [3, 3],
                  deck_size: 0, refill: 'supply', planets: [], log: []});
          return document.getElementById('game').textContent;""")
        assert "0 cards" not in deck and "endless supply" in deck
    finally:
        browser.release(d)


@pytest.mark.parametrize("code,rolls,camps", [
    ("pl", ["2 udane", "5 nieudanych"], "obóz 0, obóz 1"),
    ("cs", ["1 úspěšný", "3 neúspěšné"], "tábor 0, tábor 1"),
    ("ja", ["成功2回、失敗5回"], "0じんえい、1じんえい")])
def test_counts_take_the_language_s_plural_and_lists_its_separator(rig, code, rolls, camps):
    from companion import i18n

    start_game(rig)
    d = open_page(rig, "laptop")
    i18n.set_language(code)
    try:
        rig.run("press down")  # a new snapshot, in the new language: the page follows
        wait_for(lambda: d.execute_script("return language") == code, what="the catalog")
        made, failed = (1, 3) if code == "cs" else (2, 5)
        shown = d.execute_script("""
          const s = JSON.parse(JSON.stringify(last));
          s.status = 'lost';
          s.end = {turns: 3, rolls: {made: arguments[0], failed: arguments[1], each: []},
                   retrieved: [], detections: {}};
          render(s);
          const end = document.getElementById('end-facts').textContent;
          render({mode: 'game', game: 'qlanet', game_id: 9, status: 'won', winners: [0, 1],
                  turn: {player: 0, number: 1}, costs: [0, 0], hand_sizes: [3, 3],
                  deck_size: 0, refill: 'supply', planets: [], log: []});
          return [end, document.getElementById('game').textContent];""", made, failed)
        assert all(r in shown[0] for r in rolls), shown[0]
        assert camps in shown[1], shown[1]
    finally:
        i18n.set_language("en")
        browser.release(d)


@pytest.mark.parametrize("theme", ["dark", "light"])
def test_axe_finds_no_serious_violation(rig, theme):
    script = axe.script()  # skips, saying why, without axe-core
    assert script
    start_game(rig)
    for line in ["press down", "press ok"]:
        rig.run(line)
    rig.wait_idle()
    d = open_page(rig, "phone")
    try:
        d.execute_script("localStorage.setItem('companion-theme', arguments[0])", theme)
        d.refresh()
        wait_for(lambda: text(d, "link") == "live")
        wait_for(lambda: d.find_elements("css selector", "svg.board g.ship[data-planet]"))
        d.execute_script("document.getElementById('history-button').click()")
        time.sleep(0.5)
        assert axe.serious(d) == []
    finally:
        browser.release(d)


def test_assets_and_json_are_gzipped_and_the_stream_is_not(rig):
    for path in ("/", "/app.js", "/style.css", "/snapshot"):
        status, headers, body = rig.request("GET", path, headers={"Accept-Encoding": "gzip"})
        assert status == 200 and headers.get("content-encoding") == "gzip", path
        plain = rig.request("GET", path)
        assert "content-encoding" not in plain[1]
        if path != "/snapshot":  # the box may have moved on between the two
            assert gzip.decompress(body) == plain[2] or path == "/"
    status, headers, _ = rig.request("GET", "/config", headers={"Accept-Encoding": "gzip"})
    assert status == 200  # small: sent as it is
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", rig.server.port, timeout=5)
    conn.request("GET", "/events", headers={"Accept-Encoding": "gzip"})
    r = conn.getresponse()
    assert r.getheader("Content-Encoding") is None
    conn.close()


def test_without_javascript_the_page_says_what_it_needs_in_the_box_s_language(rig):
    from companion import i18n

    _, _, body = rig.request("GET", "/")
    assert b"<noscript><section" in body and b"needs JavaScript" in body
    try:
        i18n.set_language("pl")
        _, _, body = rig.request("GET", "/")
        page = body.decode()
        assert '<html lang="pl">' in page
        assert i18n._("This page needs JavaScript") in page
    finally:
        i18n.set_language("en")


def test_the_board_letters_ships_and_names_components_on_the_page(rig):
    start_game(rig)
    d = open_page(rig, "laptop")
    try:
        wait_for(lambda: d.find_elements("css selector", "svg.board g.ship[data-planet]"))
        letters = d.execute_script(
            "return [...document.querySelectorAll('svg.board g.ship[data-planet] text')]"
            ".map(e => e.textContent)")
        assert sorted(letters) == ["M", "R"]
        with rig.lock:
            on = dict(rig.sim.box.session.game.state.planet_components)
        from companion.games.entanglion.ui import part

        for planet in board.RING:
            if on.get(planet):
                words = d.execute_script(
                    "return document.querySelector(`svg.board g.planet[data-planet=\"${arguments[0]}\"]`)"
                    ".textContent", planet)
                assert part(on[planet]).replace(" ", "") in words.replace("-", "")
    finally:
        browser.release(d)


def test_a_restart_keeps_a_phone_paired_or_the_page_says_so_by_itself(tmp_path):
    """The page reads /config again when its stream reconnects: after a restart that
    kept the pairings it still plays; after one that lost them, the PIN form is back
    with the reason, before anyone presses anything."""
    keep = tmp_path / "pairings.json"
    sim = make_sim(tmp_path / "box")
    publisher = Publisher()
    sim.box.observers.append(publisher.publish)
    got: list = []

    def serve(pairing, port=0):
        for _ in range(50):  # the old socket may linger a moment
            try:
                return WebServer(publisher, port=port, inputs=got.append,
                                 pairing=pairing).start()
            except OSError:
                time.sleep(0.1)
        raise AssertionError("the port stayed taken")

    pairing = Pairing(keep=keep)
    server = serve(pairing)
    sim.box.refresh()
    d = browser.page(*SIZES["phone"])
    hidden = lambda id_: d.execute_script(f"return document.getElementById('{id_}').hidden")  # noqa: E731
    try:
        d.get(server.url)
        wait_for(lambda: text(d, "link") == "live")
        d.find_element("id", "pin").send_keys(pairing.new_pin())
        d.execute_script("document.querySelector('#pairform button').click()")
        wait_for(lambda: hidden("pair"), what="the pairing")
        for kept, pairing in ((True, Pairing(keep=keep)), (False, Pairing())):
            port = server.port
            server.stop()
            wait_for(lambda: text(d, "link") != "live", what="the link going down")
            server = serve(pairing, port)
            sim.box.refresh()
            wait_for(lambda: text(d, "link") == "live", timeout=10, what="the reconnection")
            if kept:
                time.sleep(0.5)  # its /config answered
                assert hidden("pair") and not hidden("box")
                d.execute_script("[...document.querySelectorAll('#buttons button')]"
                                 ".find(b => b.textContent === 'DOWN').click()")
                wait_for(lambda: got, what="a press after the restart")
            else:
                wait_for(lambda: not hidden("pair"), what="the PIN form")
                assert not hidden("pair-why") and hidden("box")
                assert "restarted" in text(d, "pair-why")  # this box keeps no pairings
    finally:
        browser.release(d)
        server.stop()
        sim.box.session.journal.close()


def test_axe_finds_no_serious_violation_after_a_game_with_its_plots(rig):
    axe.script()  # skips, saying why, without axe-core
    from companion.autoplay import AutoPlayer

    rig.autoplay(AutoPlayer(6), 600)
    with rig.lock:
        assert rig.sim.box.session.game.state.status in ("won", "lost")
    d = open_page(rig, "laptop")
    try:
        for theme in ("light", "dark"):
            d.execute_script("localStorage.setItem('companion-theme', arguments[0])", theme)
            d.refresh()
            wait_for(lambda: text(d, "link") == "live")
            wait_for(lambda: d.find_elements("css selector", "#end-plots svg"), what="the plots")
            d.execute_script("document.getElementById('history-button').click()")
            wait_for(lambda: d.find_elements("css selector", "#history-body svg"),
                     what="the history")
            assert axe.serious(d) == [], theme
    finally:
        browser.release(d)
