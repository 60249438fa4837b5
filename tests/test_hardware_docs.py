"""hardware/ stays true: the LED map loads and covers every pixel, the wiring diagram and
the README's wiring tables are exactly what make_wiring.py makes from pins.json and
led-map.json, and those pins are the software's defaults."""

from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from companion.config import Config
from companion.games.entanglion.board import PLANETS, RING
from companion.games.entanglion.cards import TRACK
from companion.hardware.leds import load_led_map
from companion.views.leds import (
    FRAME_LENGTH, FRAME_PIXELS, PIXEL_COUNT, PIXELS, entanglion_frame,
)

ROOT = Path(__file__).resolve().parents[1]
HW = ROOT / "hardware"
README = HW / "README.md"
SVG_NS = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def mw():
    """hardware/make_wiring.py as a module (it is a script, not part of the package)."""
    spec = importlib.util.spec_from_file_location("make_wiring", HW / "make_wiring.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["make_wiring"] = module  # dataclasses look their module up here
    try:
        spec.loader.exec_module(module)
        yield module
    finally:
        sys.modules.pop("make_wiring", None)


@pytest.fixture(scope="module")
def pins():
    return json.loads((HW / "pins.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def readme():
    return README.read_text(encoding="utf-8")


def _section(text: str, heading: str) -> str:
    """The text under a markdown heading, up to the next heading of any level."""
    m = re.search(rf"^#+ {re.escape(heading)}\n(.*?)(?=^#+ |\Z)", text, re.M | re.S)
    assert m, f"README has no section {heading!r}"
    return m.group(1)


def _rows(block: str, which: int = 0) -> list[list[str]]:
    """The body rows of the ``which``-th markdown table in ``block``, as lists of cells."""
    tables = re.findall(r"(?:^\|.*\n?)+", block, re.M)
    assert len(tables) > which and len(tables[which].splitlines()) >= 3, "no table"
    lines = tables[which].splitlines()
    return [[c.strip() for c in ln.strip("|").split("|")] for ln in lines[2:]]


# ------------------------------------------------------------------ the LED map


def test_led_map_loads_and_covers_every_pixel_once(pins):
    chain = load_led_map(HW / "led-map.json")
    lit = [i for i in chain if i is not None]
    # The board's 24 and, in the reference build, the turn pixel (index 24).
    assert sorted(lit) == list(range(FRAME_LENGTH)) == list(range(PIXEL_COUNT + 1))
    # The firmware's HELLO pixels= must equal the chain length, spares included.
    assert pins["pico"]["pixels"] == len(chain)


def test_led_map_order_is_the_documented_one():
    names = json.loads((HW / "led-map.json").read_text(encoding="utf-8"))["chain"]
    assert names[:12] == [f"track{n}" for n in range(1, 13)]  # the track first, space 1 first
    assert names[12:16] == ["ZERO", "ONE", "PLUS", "MINUS"]
    assert tuple(names[16:24]) == RING  # the Entanglion ring clockwise from OMEGA ZERO
    assert names[24:] == ["turn"]  # whose turn it is, on the box


def test_packaged_led_map_is_the_hardware_one():
    packaged = ROOT / "companion" / "data" / "led-map.json"
    if not packaged.exists():
        pytest.skip("the package ships no LED map yet")
    assert load_led_map(packaged) == load_led_map(HW / "led-map.json")


def test_make_wiring_speaks_the_softwares_vocabulary(mw):
    assert mw.LOGICAL == PIXELS
    assert mw.TRACK_VALUES == TRACK
    assert set(mw.PLANET_PLACE) == set(mw.SHORT) - {mw.TURN} == set(PLANETS)
    assert mw.LOGICAL + (mw.TURN,) == FRAME_PIXELS


# ------------------------------------------------------------------ generated files


def test_wiring_svg_is_what_make_wiring_draws(mw):
    committed = (HW / "wiring.svg").read_text(encoding="utf-8")
    assert mw.draw(mw.load_pins(), mw.load_chain()) == committed, \
        "hardware/wiring.svg is stale: run python hardware/make_wiring.py"


def test_readme_tables_are_what_make_wiring_writes(mw, readme):
    generated = mw.fill_readme(readme, mw.sections(mw.load_pins(), mw.load_chain()))
    assert generated == readme, "hardware/README.md is stale: run python hardware/make_wiring.py"


def test_make_wiring_check_passes():
    result = subprocess.run([sys.executable, str(HW / "make_wiring.py"), "--check"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr


def test_wiring_svg_is_well_formed_and_labelled(pins):
    root = ET.parse(HW / "wiring.svg").getroot()
    assert root.tag == f"{SVG_NS}svg"
    texts = " ".join(t.text or "" for t in root.iter(f"{SVG_NS}text"))
    for name in pins["pi"]["buttons"]:
        assert name in texts
    for gpio in pins["pi"]["buttons"].values():
        assert f"GPIO {gpio}" in texts
    for label in ("74AHCT125", "MFRC522", "330 Ω", "1000 µF", "USB cable", "OLED"):
        assert label in texts
    chain_boxes = [r for r in root.iter(f"{SVG_NS}rect") if r.get("width") == "40"]
    assert len(chain_boxes) == pins["pico"]["pixels"]


def test_bad_pins_are_refused(mw, pins):
    bad = json.loads(json.dumps(pins))
    bad["pi"]["buttons"]["UP"] = bad["pi"]["buttons"]["OK"]
    with pytest.raises(ValueError, match="twice"):
        mw.check_pins(bad)
    bad = json.loads(json.dumps(pins))
    bad["pico"]["miso"] = 9  # free, but not an SPI0 RX pin
    with pytest.raises(ValueError, match="MISO"):
        mw.check_pins(bad)


# ------------------------------------------------------------------ pins = software defaults


def test_pins_json_is_the_config_defaults(pins):
    defaults = Config()
    assert pins["pi"]["buttons"] == defaults.buttons.pins
    assert int(pins["pi"]["oled"]["address"], 16) == defaults.oled.address
    assert pins["pi"]["oled"]["i2c_bus"] == defaults.oled.port
    seats = defaults.game.pads
    assert set(pins["pico"]["reader_cs"]) == set(pins["pads"]) == {str(p) for p in seats}
    for pad, seat in seats.items():
        assert (seat or "shared") in pins["pads"][str(pad)].lower()


def test_pins_json_is_the_example_configs_defaults(pins):
    text = (ROOT / "examples" / "config.toml").read_text(encoding="utf-8")
    buttons = _toml_section(text, "buttons")
    for name, gpio in pins["pi"]["buttons"].items():
        assert re.search(rf"^#{name.lower()} = {gpio}$", buttons, re.M), name
    oled = _toml_section(text, "oled")
    assert re.search(rf"^#address = {pins['pi']['oled']['address']}$", oled, re.M | re.I)


def _toml_section(text: str, name: str) -> str:
    m = re.search(rf"^\[{name}\]\n(.*?)(?=^\[|\Z)", text, re.M | re.S)
    assert m, name
    return m.group(1)


def test_readme_pi_header_table_matches_the_config_defaults(readme):
    rows = _rows(_section(readme, "Raspberry Pi header"))
    buttons = {}
    for pin, bcm, _function, goes_to in rows:
        m = re.match(r"button (\w+)", goes_to)
        if m:
            buttons[m.group(1)] = (int(pin), int(bcm.removeprefix("GPIO ")))
    defaults = Config()
    assert {name: bcm for name, (_, bcm) in buttons.items()} == defaults.buttons.pins
    header = _header()
    for name, (pin, bcm) in buttons.items():
        assert header[pin] == f"GPIO{bcm}", f"button {name}: pin {pin} is not GPIO {bcm}"
    oled = {goes_to: (pin, bcm) for pin, bcm, _f, goes_to in rows if goes_to.startswith("OLED")}
    address = [re.search(r"address (0x[0-9A-Fa-f]+)", k) for k in oled]
    assert [int(m.group(1), 16) for m in address if m] == [defaults.oled.address]
    # The OLED's pins are real header pins doing what the table says.
    for goes_to, (pin, bcm) in oled.items():
        expected = {"VCC": "3V3", "GND": "GND"}.get(goes_to.split()[1])
        assert header[int(pin)] == (expected or f"GPIO{bcm.removeprefix('GPIO ')}")


def _header() -> dict[int, str]:
    """Physical pin -> 'GPIOn' / '3V3' / '5V' / 'GND', from gpiozero's own board data."""
    data = pytest.importorskip("gpiozero.pins.data")
    _rows_, _cols, pins = data.PI4_J8
    return {pin: names.get("gpio") or names[""] for pin, names in pins.items()}


def test_make_wiring_header_tables_agree_with_gpiozero(mw):
    header = _header()
    for bcm, pin in mw.PI_GPIO_PIN.items():
        assert header[pin] == f"GPIO{bcm}"
    for pin, name in mw.PI_POWER_PINS.items():
        assert header[pin] == name
    assert {p for p, n in header.items() if n == "GND"} == set(mw.PI_GND_PINS)


def test_pico_pins_are_the_reference_ones(pins):
    """The firmware drives exactly these; a change here is a change there too."""
    pico = pins["pico"]
    assert (pico["spi"], pico["sck"], pico["mosi"], pico["miso"]) == (0, 2, 3, 4)
    assert pico["reader_cs"] == {"1": 5, "2": 6, "3": 7}
    assert (pico["reader_rst"], pico["led_data"]) == (8, 16)


# ------------------------------------------------------------------ the rest of the README


def test_bom_rows_have_a_quantity_and_a_price(readme):
    rows = _rows(_section(readme, "Bill of materials"))
    assert len(rows) >= 20
    for part, qty, price, *_ in rows:
        assert re.fullmatch(r"\d+", qty), f"{part}: quantity {qty!r}"
        assert re.match(r"\d+(\.\d+)?\b", price), f"{part}: price {price!r}"


def test_readme_links_to_files_that_exist(readme):
    links = re.findall(r"\]\(([^)\s]+)\)", readme)
    assert "wiring.svg" in links
    for link in links:
        if re.match(r"[a-z]+:", link) or link.startswith("#"):
            continue
        path = (HW / link.split("#")[0]).resolve()
        assert path.exists(), f"README links to {link}, which does not exist"


def test_power_table_is_the_palettes(readme):
    """The figures follow from 20 mA per channel at full value, scaled by the cap."""

    def ma(frame, cap: int) -> int:
        return round(sum(map(sum, frame)) / 255 * 20 * cap / 255)

    white = ((255, 255, 255),) * FRAME_LENGTH  # the board's 24 and the turn pixel
    win = max((entanglion_frame({"result": "won"}, phase) for phase in range(len(PLANETS))),
              key=lambda f: sum(map(sum, f)))
    busy = entanglion_frame({"detection": 11, "ships": {"mercurial": "ZERO", "rubicon": "PLUS"},
                             "components": list(RING)})
    rows = _rows(_section(readme, "Power budget"))
    caps = []
    for cap, *figures in rows:
        level = int(cap.split()[0])
        caps.append(level)
        assert [int(f) for f in figures] == [ma(white, level), ma(win, level), ma(busy, level)]
    assert caps == [32, 64, 128, 255] and Config().leds.brightness in caps


def test_firmware_board_uses_the_same_pins(pins):
    """firmware/board.py (plain constants, importable under CPython) names the same pins."""
    path = ROOT / "firmware" / "board.py"
    if not path.exists():
        pytest.skip("no firmware/board.py")
    spec = importlib.util.spec_from_file_location("firmware_board_for_docs", path)
    board = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(board)
    pico = pins["pico"]
    assert (board.SPI_ID, board.SCK, board.MOSI, board.MISO) == \
        (pico["spi"], pico["sck"], pico["mosi"], pico["miso"])
    assert tuple(board.READER_CS) == tuple(pico["reader_cs"][p] for p in sorted(pico["reader_cs"]))
    assert tuple(board.READER_RST) == (pico["reader_rst"],)
    assert (board.LED_PIN, board.PIXELS) == (pico["led_data"], pico["pixels"])


# ------------------------------------------------------- what a maker needs to know

READER_MA = 100  # the MFRC522 datasheet's transmitter current, field on, at most


def test_the_pico_side_budget_counts_readers_at_their_datasheet_current(readme, pins):
    """Every column adds up; the readers count 100 mA each; the chain row is the
    full-white worst case of the table above."""
    block = _section(readme, "Power budget")
    white = _rows(block)
    rows = {row[0]: row[1:] for row in _rows(block, 1)}
    caps = [32, 64, 128]
    readers = len(pins["pico"]["reader_cs"])
    reader_row = next(v for k, v in rows.items() if k.startswith("MFRC522"))
    assert [int(x) for x in reader_row] == [READER_MA * readers] * 3
    chain_row = next(v for k, v in rows.items() if k.startswith("LED chain"))
    by_cap = {int(r[0].split()[0]): int(r[1]) for r in white}
    assert [int(x) for x in chain_row] == [by_cap[c] for c in caps]
    total = next(v for k, v in rows.items() if "worst case" in k and k.startswith("**"))
    loads = [v for k, v in rows.items() if not k.startswith(("**", "total"))]
    for i in range(3):
        assert int(total[i].strip("*")) == sum(int(v[i]) for v in loads)
    assert "15-30 mA per reader" not in readme


def test_the_miso_buffer_is_tabled_pin_by_pin_at_3_3_volts(readme, pins):
    rows = _rows(_section(readme, "Sharing MISO, chip selects and decoupling"))
    assert [r[0] for r in rows] == [str(n) for n in range(1, 15)]
    by_name = {r[1]: r[2] for r in rows}
    assert "3.3 V" in by_name["VCC"] and "VBUS" not in by_name["VCC"]
    assert "100 nF" in by_name["VCC"]
    for pad, gp in pins["pico"]["reader_cs"].items():
        assert f"GP{gp} " in by_name[f"{pad}OE"]  # its own reader's chip select
        assert by_name[f"{pad}A"] == f"MISO of reader {pad}"
        assert f"GP{pins['pico']['miso']} " in by_name[f"{pad}Y"]
    assert "spare gate switched off" in by_name["4OE"] and by_name["4A"].startswith("GND")


def test_the_diode_or_pull_down_is_2_2_to_4_7_kohm(readme):
    """10 kΩ is marginal at 1 MHz, and the RP2350's erratum E9 needs 8.2 kΩ or less."""
    text = _section(readme, "Sharing MISO, chip selects and decoupling")
    diode_or = text[text.index("**A diode-OR**"):]
    values = [float(v) for v in re.findall(r"(\d+(?:\.\d+)?) kΩ", diode_or.split("\n\n")[0])]
    assert values and all(2.2 <= v <= 8.2 for v in values if v != 10.0)
    assert "Not\n  10 kΩ" in diode_or or "Not 10 kΩ" in diode_or
    assert "E9" in diode_or
    assert not re.search(r"10 kΩ pull-down", readme)
    bom = " ".join(" ".join(r) for r in _rows(_section(readme, "Bill of materials")))
    assert "3.3 kΩ resistor (2.2-4.7 kΩ)" in bom


def test_the_bill_of_materials_has_the_header_and_the_buzzer_diode(readme):
    parts = [r[0] for r in _rows(_section(readme, "Bill of materials"))]
    assert any("pin header" in p and "Zero 2 W" in p for p in parts)
    assert any("1N4148" in p for p in parts)
    assert any("74LVC125" in p for p in parts)


def test_a_first_power_on_checklist_with_multimeter_steps(readme):
    text = _section(readme, "First power-on")
    steps = re.findall(r"^\s*(\d+)\. ", text, re.M)
    assert [int(n) for n in steps] == list(range(1, len(steps) + 1)) and len(steps) >= 10
    for must in ("VBUS", "3V3(OUT)", "74LVC125 pin 14", "no continuity", "4.75-5.25 V",
                 "3.2-3.4 V", "2.2-4.7 kΩ"):
        assert must in text, must


def test_the_drawing_shows_the_74lvc125_pin_by_pin_with_its_parts(mw, pins):
    svg = (HW / "wiring.svg").read_text(encoding="utf-8")
    texts = [t.text for t in ET.fromstring(svg).iter(f"{SVG_NS}text")]
    for pin, name, _ in mw.buffer_rows(pins):
        assert f"{name} ({pin})" in texts, f"74LVC125 pin {pin} {name} is not drawn"
    assert "74LVC125" in texts and "buf*" not in texts
    readers = len(pins["pico"]["reader_cs"])
    assert texts.count("10 kΩ") == readers  # the chip-select pull-ups
    assert texts.count(f"{mw.SERIES_OHMS} Ω") == 2  # SCK and MOSI
    assert texts.count("10 µF + 100 nF") == readers  # each reader's decoupling
    assert any("100 nF to GND at pin 14" == t for t in texts)
    assert any("2.2-4.7 kΩ pull-down" in (t or "") for t in texts)


STALE_24 = re.compile(r"WS2812 x 24|LED n of 24|\b24 (RGB|colours|pixels)\b|"
                      r"chain, 24 pixels|`PIXELS` \| 24")


@pytest.mark.parametrize("doc", ["README.md", "docs/design.md", "hardware/README.md",
                                 "firmware/README.md", "companion/views/leds.py"])
def test_the_chain_has_25_pixels_everywhere(doc):
    text = (ROOT / doc).read_text(encoding="utf-8")
    assert not STALE_24.search(text), STALE_24.search(text).group(0)
