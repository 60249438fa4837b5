"""The theme switch and the head both live pages share (companion/web/assets: theme.js,
theme.css, head.html): the box's page and the room's serve the same files at the same
paths, load them before their own, and in headless Chromium each page follows the device
until the reader chooses, and keeps that choice across a reload, under the strict policy."""

from __future__ import annotations

import gzip
from importlib import resources

import pytest

import browser
from companion.room.server import RoomServer
from companion.room.store import Store
from companion.room.tables import Tables
from companion.web.handler import SECURITY_HEADERS
from test_browser import text, wait_for
from web_rig import Client, Rig

SHARED = ("theme.js", "theme.css")
DARK_BG, LIGHT_BG = "rgb(17, 24, 39)", "rgb(243, 244, 246)"  # theme.css's --bg


@pytest.fixture
def box(tmp_path):
    r = Rig(tmp_path)
    yield r
    r.close()


@pytest.fixture
def room(tmp_path):
    store = Store(tmp_path / "records")
    server = RoomServer("r1", Tables("r1", on_record=store.add), store, lambda command: None,
                        dict, "k" * 24).start()
    yield Client(server)
    server.stop()


@pytest.fixture(params=[("box", "style.css", "app.js"), ("room", "room.css", "room.js")],
                ids=["box", "room"])
def live(request):
    """Either live page's server (a :class:`web_rig.Client`), its stylesheet and script."""
    server, css, js = request.param
    return request.getfixturevalue(server), css, js


def test_both_servers_serve_the_same_shared_files(box, room):
    for name in SHARED:
        packaged = (resources.files("companion.web") / "assets" / name).read_bytes()
        for server in (box, room):
            status, headers, body = server.request("GET", "/" + name)
            assert status == 200 and body == packaged, (server, name)
            assert headers["content-type"].startswith(
                "text/javascript" if name.endswith(".js") else "text/css")
            for header, value in SECURITY_HEADERS.items():
                assert headers[header.lower()] == value
            status, headers, body = server.request("GET", "/" + name,
                                                   headers={"Accept-Encoding": "gzip"})
            assert headers["content-encoding"] == "gzip" and gzip.decompress(body) == packaged
    for server in (box, room):  # the fragment is built into the pages, never served alone
        assert server.request("GET", "/head.html")[0] == 404


def test_each_page_loads_the_shared_files_before_its_own(live):
    server, css, js = live
    page = server.request("GET", "/")[2].decode()
    head = page.split("</head>", 1)[0]
    assert head.count("<script") == 2 and head.count('rel="stylesheet"') == 2
    assert head.index('href="/theme.css"') < head.index(f'href="/{css}"')
    assert head.index('src="/theme.js"') < head.index(f'src="/{js}"')
    assert '<meta charset="utf-8">' in head and "<!--head-->" not in page
    assert "<script>" not in page and "style=" not in page  # nothing inline: the policy


def _device(d, scheme: str) -> None:
    d.execute_cdp_cmd("Emulation.setEmulatedMedia", {
        "features": [{"name": "prefers-color-scheme", "value": scheme}]})


def test_the_theme_follows_the_device_until_chosen_and_the_choice_outlasts_a_reload(live):
    server = live[0]
    d = browser.page()
    theme = lambda: d.execute_script("return document.documentElement.dataset.theme")  # noqa: E731
    bg = lambda: d.execute_script("return getComputedStyle(document.body).backgroundColor")  # noqa: E731

    def load() -> None:
        d.get(server.server.url)
        wait_for(lambda: text(d, "link") == "live", what="the stream")

    try:
        _device(d, "light")
        load()
        assert theme() == "light" and bg() == LIGHT_BG
        assert text(d, "theme-button") == "Dark theme"  # what a press does
        _device(d, "dark")  # nothing chosen yet: the page follows the device at once
        wait_for(lambda: theme() == "dark", what="the device's dark theme")
        assert text(d, "theme-button") == "Light theme" and bg() == DARK_BG

        d.execute_script("document.getElementById('theme-button').click()")
        assert theme() == "light" and text(d, "theme-button") == "Dark theme"
        assert d.execute_script("return localStorage.getItem('companion-theme')") == "light"
        load()
        assert theme() == "light" and bg() == LIGHT_BG  # chosen: the device is still dark
        _device(d, "light")
        _device(d, "dark")
        assert theme() == "light"  # a change of the device's does not undo a choice

        logs = [e["message"] for e in d.get_log("browser")]
        assert not [m for m in logs if "Content Security Policy" in m or "Error" in m], logs
    finally:
        browser.release(d)


def test_the_past_games_pages_follow_the_theme_chosen_on_the_live_page(box):
    """They have no button of their own: the choice made on the live page holds there, and
    without one they follow the device."""
    d = browser.page()
    theme = lambda: d.execute_script("return document.documentElement.dataset.theme")  # noqa: E731
    bg = lambda: d.execute_script("return getComputedStyle(document.body).backgroundColor")  # noqa: E731
    past = box.server.url.rstrip("/") + "/games"
    try:
        _device(d, "dark")
        d.get(past)
        wait_for(lambda: theme() == "dark", what="the device's theme on the past games")
        assert bg() == "rgb(17, 24, 39)"  # replay.css's dark ground
        d.get(box.server.url)
        wait_for(lambda: text(d, "link") == "live", what="the stream")
        d.execute_script("document.getElementById('theme-button').click()")
        assert theme() == "light"
        d.get(past)
        wait_for(lambda: theme() == "light", what="the chosen theme on the past games")
        assert bg() == "rgb(249, 250, 251)"  # replay.css's light ground, the device still dark
        logs = [e["message"] for e in d.get_log("browser")]
        assert not [m for m in logs if "Content Security Policy" in m or "Error" in m], logs
    finally:
        browser.release(d)
