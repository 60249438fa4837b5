"""The web page's address on the OLED: a QR code a phone decodes back to the URL, its
modules 2x2 pixels exactly where the code says, the address found as a phone on the
network must type it, and the menu item and line that show it."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from PIL import Image

from companion.inputs import Press
from companion.session import Session, SessionConfig
from companion.views import oled, qr
from companion.web.address import PageAddress, page_url

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from test_no_cut_text import REG, MemoryJournal  # noqa: E402

URLS = ["http://192.168.178.23:8080/", "http://10.0.0.5:80/", "http://255.255.255.255:65535/",
        "http://companion.local:8080/", "http://[fd00::1]:8080/",
        "http://the-games-room-companion.example.org:8080/"]


def frame(url: str) -> Image.Image:
    return oled.render({"screen": "web_address", "title": "Web page", "url": url,
                        "hint": "OK"})


@pytest.mark.parametrize("url", URLS)
def test_the_frame_holds_the_code_module_for_module(url):
    """Pixel for pixel: every module a 2x2 block (dark for a dark module) inside a lit
    square the height of the panel, which is the code's quiet zone."""
    image = frame(url).convert("L")
    rows = qr.modules(url)
    size = len(rows) * qr.MODULE
    at = (64 - size) // 2
    assert at >= 3  # a quiet zone of at least 1.5 modules on every side, 3.5 at version 2
    for y in range(64):
        for x in range(64):
            inside = at <= x < at + size and at <= y < at + size
            dark = inside and rows[(y - at) // qr.MODULE][(x - at) // qr.MODULE] == "1"
            assert image.getpixel((x, y)) == (0 if dark else 255), (x, y)


@pytest.mark.parametrize("url", URLS)
def test_a_decoder_reads_the_url_back_from_the_frame(url):
    zxingcpp = pytest.importorskip("zxingcpp", reason="zxing-cpp is a test dependency")
    found = zxingcpp.read_barcodes(frame(url).convert("L"))
    assert [r.text.lower() for r in found] == [url.lower()]  # scheme and host: case-blind


def test_every_ipv4_address_fits_version_2_at_level_q():
    code = qr.encode("http://255.255.255.255:65535/")
    assert (code.version, code.error, code.mode) == (2, "Q", "alphanumeric")
    assert qr.encode("http://10.0.0.5:8080/").version == 2


def test_an_address_too_long_for_the_panel_is_shown_in_words_only():
    url = "http://" + "a-very-long-name." * 6 + "example:8080/"
    assert qr.encode(url) is None
    image = frame(url).convert("L")
    assert image.getpixel((63, 63)) == 0  # no lit square: the words from the left edge


@pytest.mark.parametrize("address, found, want", [
    ("0.0.0.0", "192.168.1.20", ("http://192.168.1.20:8080/", "")),
    ("::", "192.168.1.20", ("http://192.168.1.20:8080/", "")),
    ("192.168.5.5", None, ("http://192.168.5.5:8080/", "")),
    ("fd00::7", None, ("http://[fd00::7]:8080/", "")),
    ("companion.local", None, ("http://companion.local:8080/", "")),
])
def test_the_url_is_the_address_a_phone_on_the_network_reaches(address, found, want):
    assert page_url(address, 8080, lambda: found) == want


def test_no_network_or_a_page_for_this_box_only_says_why():
    url, why = page_url("0.0.0.0", 8080, lambda: None)
    assert url is None and "No network" in why
    url, why = page_url("127.0.0.1", 8080, lambda: "192.168.1.20")
    assert url is None and "this box only" in why


def test_the_address_is_looked_up_again_after_a_while():
    now, answers = [0.0], iter([None, "192.168.1.20"])
    address = PageAddress("0.0.0.0", 8080, lambda: next(answers), clock=lambda: now[0])
    assert address()[0] is None
    now[0] = 5.0
    assert address()[0] is None  # kept: the main menu asks at every frame
    now[0] = 11.0
    assert address() == ("http://192.168.1.20:8080/", "")




def _session(url):
    return Session(MemoryJournal(), REG, SessionConfig(web_url=lambda: url),
                   seed_source=lambda: 1)


def _select(session, label):
    screen = session.screen()
    target = screen["items"].index(label)
    for _ in range((target - screen["cursor"]) % len(screen["items"])):
        session.handle(Press("DOWN"))
    session.handle(Press("OK"))


def test_the_main_menu_names_the_page_and_its_item_shows_the_code():
    s = _session(("http://192.168.1.20:8080/", ""))
    menu = s.screen()
    assert "Page 192.168.1.20:8080" in menu["text"]
    _select(s, "Web address")
    shown = s.screen()
    assert shown["screen"] == "web_address" and shown["url"] == "http://192.168.1.20:8080/"
    s.handle(Press("BACK"))
    assert s.screen()["screen"] == "menu"


def test_without_a_network_the_item_says_why():
    s = _session((None, "No network: join the box to the table's Wi-Fi."))
    assert not any(line.startswith("Page") for line in s.screen()["text"])
    _select(s, "Web address")
    shown = s.screen()
    assert shown["screen"] == "text" and "No network" in " ".join(shown["lines"])


def test_a_box_without_the_page_has_no_item():
    s = Session(MemoryJournal(), REG, SessionConfig(), seed_source=lambda: 1)
    assert "Web address" not in s.screen()["items"]
