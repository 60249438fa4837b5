#!/usr/bin/env python3
"""Draw ``hardware/wiring.svg`` and write the wiring tables of ``hardware/README.md``.

    python hardware/make_wiring.py           # rewrite both
    python hardware/make_wiring.py --check   # exit 1 if either is out of date

Every pin comes from ``pins.json`` and the LED chain from ``led-map.json`` (both beside
this file), so the drawing, the tables and the software cannot tell different stories.
Standard library only; the SVG is plain text written line by line, so the output is
byte-for-byte reproducible and the test suite compares it with the committed file.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape

HERE = Path(__file__).resolve().parent
PINS_FILE = HERE / "pins.json"
MAP_FILE = HERE / "led-map.json"
SVG_FILE = HERE / "wiring.svg"
README_FILE = HERE / "README.md"

# ---------------------------------------------------------------- fixed facts
# The Raspberry Pi 40-pin header (the same on Zero 2 W, 4 and 5): BCM GPIO -> physical pin.
PI_GPIO_PIN = {
    2: 3, 3: 5, 4: 7, 17: 11, 27: 13, 22: 15, 10: 19, 9: 21, 11: 23, 0: 27, 5: 29, 6: 31,
    13: 33, 19: 35, 26: 37, 14: 8, 15: 10, 18: 12, 23: 16, 24: 18, 25: 22, 8: 24, 7: 26,
    1: 28, 12: 32, 16: 36, 20: 38, 21: 40,
}
PI_POWER_PINS = {1: "3V3", 17: "3V3", 2: "5V", 4: "5V"}
PI_GND_PINS = (6, 9, 14, 20, 25, 30, 34, 39)

# The Raspberry Pi Pico's 40 pins: GP number -> physical pin, and the power pins.
PICO_GP_PIN = {
    0: 1, 1: 2, 2: 4, 3: 5, 4: 6, 5: 7, 6: 9, 7: 10, 8: 11, 9: 12, 10: 14, 11: 15, 12: 16,
    13: 17, 14: 19, 15: 20, 16: 21, 17: 22, 18: 24, 19: 25, 20: 26, 21: 27, 22: 29, 26: 31,
    27: 32, 28: 34,
}
PICO_3V3_OUT = 36
PICO_VBUS = 40
PICO_GND_PINS = (3, 8, 13, 18, 23, 28, 38)
# Which GP pins can carry which SPI0 signal (RP2040 datasheet function table).
PICO_SPI0 = {"sck": (2, 6, 18), "mosi": (3, 7, 19), "miso": (0, 4, 16)}

# The detection-rate scale as printed (space 12 is the X); the tests compare it with
# companion.games.entanglion.cards.TRACK.
TRACK_VALUES = (1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 7, "X")

# Where each logical pixel sits on the board (for the LED map table).
PLANET_PLACE = {
    "ZERO": "Centarious galaxy (purple): planet ZERO",
    "ONE": "Centarious galaxy (purple): planet ONE",
    "PLUS": "Superious galaxy (green): planet PLUS",
    "MINUS": "Superious galaxy (green): planet MINUS",
    "OMEGA_ZERO": "Entanglion ring (yellow), top left",
    "OMEGA_ONE": "Entanglion ring, top right",
    "PSI_MINUS": "Entanglion ring, right side, upper",
    "PHI_MINUS": "Entanglion ring, right side, lower",
    "OMEGA_THREE": "Entanglion ring, bottom right",
    "OMEGA_TWO": "Entanglion ring, bottom left",
    "PHI_PLUS": "Entanglion ring, left side, lower",
    "PSI_PLUS": "Entanglion ring, left side, upper",
}
SHORT = {
    "ZERO": "0", "ONE": "1", "PLUS": "+", "MINUS": "\u2212",
    "OMEGA_ZERO": "\u03a90", "OMEGA_ONE": "\u03a91", "OMEGA_TWO": "\u03a92",
    "OMEGA_THREE": "\u03a93", "PHI_PLUS": "\u03a6+", "PHI_MINUS": "\u03a6\u2212",
    "PSI_PLUS": "\u03a8+", "PSI_MINUS": "\u03a8\u2212", "turn": "turn",
}
LOGICAL = tuple(PLANET_PLACE) + tuple(f"track{n}" for n in range(1, 13))
TURN = "turn"  # the optional 25th logical pixel: whose turn it is
READER_PINS = ("SDA (CS)", "SCK", "MOSI", "MISO", "IRQ", "GND", "RST", "3.3V")
# The 74LVC125 that gives each reader's MISO its own gate: (OE, A, Y) pins of gates 1-4
# (the 74x125 pinout). Gate n serves pad n; gate 4 is spare.
BUFFER_GATES = ((1, 2, 3), (4, 5, 6), (10, 9, 8), (13, 12, 11))
SERIES_OHMS = 47  # in SCK and MOSI at the Pico: damps ringing on long reader wires


def load_pins(path: Path = PINS_FILE) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def load_chain(path: Path = MAP_FILE) -> list[str | None]:
    return json.loads(path.read_text(encoding="utf-8"))["chain"]


def check_pins(pins: dict) -> None:
    """Catch a typo in pins.json before it is drawn: a pin used twice, a GPIO that is
    not on the header, an SPI signal on a pin that cannot carry it."""
    pi, pico = pins["pi"], pins["pico"]
    used = [pi["oled"]["sda"], pi["oled"]["scl"], *pi["buttons"].values(), pi["buzzer"]["gpio"]]
    for gpio in used:
        if gpio not in PI_GPIO_PIN:
            raise ValueError(f"pins.json: GPIO {gpio} is not on the 40-pin header")
    if len(set(used)) != len(used):
        raise ValueError("pins.json: a Pi GPIO is used twice")
    if (pi["oled"]["sda"], pi["oled"]["scl"]) != (2, 3):
        raise ValueError("pins.json: I2C1 is GPIO 2 (SDA) and 3 (SCL) on every Pi")
    for pin in (pi["oled"]["gnd_pin"], pi["buttons_gnd_pin"], pi["buzzer"]["gnd_pin"]):
        if pin not in PI_GND_PINS:
            raise ValueError(f"pins.json: Pi pin {pin} is not a GND pin")
    gps = [pico["sck"], pico["mosi"], pico["miso"], *pico["reader_cs"].values(),
           pico["reader_rst"], pico["led_data"]]
    if len(set(gps)) != len(gps) or any(gp not in PICO_GP_PIN for gp in gps):
        raise ValueError("pins.json: a Pico GP pin is used twice or does not exist")
    for signal, allowed in PICO_SPI0.items():
        if pico[signal] not in allowed:
            raise ValueError(f"pins.json: SPI0 {signal.upper()} cannot be GP{pico[signal]}")
    for pin in (pico["readers_gnd_pin"], pico["led_gnd_pin"]):
        if pin not in PICO_GND_PINS:
            raise ValueError(f"pins.json: Pico pin {pin} is not a GND pin")


# ---------------------------------------------------------------- the tables


def _table(header: tuple[str, ...], rows: list[tuple[str, ...]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def pi_rows(pins: dict) -> list[tuple[str, str, str, str]]:
    """(physical pin, BCM, function, goes to) for every Pi header pin the build uses."""
    pi = pins["pi"]
    oled, buzzer = pi["oled"], pi["buzzer"]
    rows = [
        (str(oled["vcc_pin"]), "-", PI_POWER_PINS[oled["vcc_pin"]] + " power", "OLED VCC"),
        (str(PI_GPIO_PIN[oled["sda"]]), f"GPIO {oled['sda']}", f"I2C{oled['i2c_bus']} SDA",
         f"OLED SDA (address {oled['address']})"),
        (str(PI_GPIO_PIN[oled["scl"]]), f"GPIO {oled['scl']}", f"I2C{oled['i2c_bus']} SCL",
         "OLED SCL"),
        (str(oled["gnd_pin"]), "-", "GND", "OLED GND"),
    ]
    notes = {"BACK": " (hold = undo)"}
    for name, gpio in pi["buttons"].items():
        rows.append((str(PI_GPIO_PIN[gpio]), f"GPIO {gpio}", "input, internal pull-up",
                     f"button {name}{notes.get(name, '')}, other leg to GND"))
    rows += [
        (str(pi["buttons_gnd_pin"]), "-", "GND", "the common leg of all six buttons"),
        (str(PI_GPIO_PIN[buzzer["gpio"]]), f"GPIO {buzzer['gpio']}", "output (optional)",
         "buzzer: 1 kΩ to the NPN transistor's base"),
        (str(buzzer["supply_pin"]), "-", PI_POWER_PINS[buzzer["supply_pin"]] + " power",
         "buzzer + (optional; the buzzer's - goes to the NPN collector)"),
        (str(buzzer["gnd_pin"]), "-", "GND", "NPN emitter (optional)"),
        ("USB", "-", "USB host port", "the Pico's micro-USB (Zero 2 W: the port marked USB, "
                                      "through an OTG cable or adapter)"),
    ]
    return rows


def pico_rows(pins: dict) -> list[tuple[str, str, str, str]]:
    """(physical pin, GP, function, goes to) for every Pico pin the build uses."""
    p = pins["pico"]
    pads = pins["pads"]
    rows = [
        (str(PICO_GP_PIN[p["sck"]]), f"GP{p['sck']}", f"SPI{p['spi']} SCK",
         f"{SERIES_OHMS} Ω in series at the Pico, then SCK of every reader"),
        (str(PICO_GP_PIN[p["mosi"]]), f"GP{p['mosi']}", f"SPI{p['spi']} MOSI (TX)",
         f"{SERIES_OHMS} Ω in series at the Pico, then MOSI of every reader"),
        (str(PICO_GP_PIN[p["miso"]]), f"GP{p['miso']}", f"SPI{p['spi']} MISO (RX)",
         "74LVC125 pins 3, 6 and 8 (1Y, 2Y, 3Y): each reader's MISO through its own gate"),
    ]
    for pad, gp in p["reader_cs"].items():
        rows.append((str(PICO_GP_PIN[gp]), f"GP{gp}", f"chip select, pad {pad}",
                     f"SDA of reader {pad} ({pads[pad]}), 74LVC125 pin "
                     f"{BUFFER_GATES[int(pad) - 1][0]} ({pad}OE), 10 kΩ pull-up to 3.3 V"))
    rows += [
        (str(PICO_GP_PIN[p["reader_rst"]]), f"GP{p['reader_rst']}", "reader reset",
         "RST of every reader"),
        (str(PICO_3V3_OUT), "-", "3V3(OUT)",
         "3.3V of every reader, 74LVC125 pins 14 (VCC) and 13 (4OE), the CS pull-ups"),
        (str(p["readers_gnd_pin"]), "-", "GND", "GND of every reader"),
        ("-", "-", "-", "IRQ of every reader: not connected"),
        (str(PICO_GP_PIN[p["led_data"]]), f"GP{p['led_data']}", "WS2812 data (3.3 V)",
         "74AHCT125 pin 2 (1A)"),
        (str(PICO_VBUS), "-", "VBUS (USB 5 V)",
         "74AHCT125 pin 14 (VCC), LED chain 5 V, 10 µF capacitor +"),
        (str(p["led_gnd_pin"]), "-", "GND",
         "74AHCT125 pins 7 (GND) and 1 (1OE), LED chain GND, 10 µF capacitor -"),
        ("USB", "-", "micro-USB", "a USB port of the Pi (power and data)"),
    ]
    return rows


def shifter_rows(pins: dict) -> list[tuple[str, str, str]]:
    p = pins["pico"]
    data = f"Pico GP{p['led_data']} (pin {PICO_GP_PIN[p['led_data']]})"
    gnd = f"GND (Pico pin {p['led_gnd_pin']})"
    five = f"5 V (Pico VBUS, pin {PICO_VBUS})"
    return [
        ("1", "1OE", f"{gnd}: output enabled (active low)"),
        ("2", "1A", data),
        ("3", "1Y", "330 Ω resistor, then DIN of the first pixel (track1)"),
        ("4", "2OE", f"{five}: unused gate switched off"),
        ("5", "2A", "GND (unused input, never left floating)"),
        ("6", "2Y", "not connected"),
        ("7", "GND", gnd),
        ("8", "3Y", "not connected"),
        ("9", "3A", "GND"),
        ("10", "3OE", five),
        ("11", "4Y", "not connected"),
        ("12", "4A", "GND"),
        ("13", "4OE", five),
        ("14", "VCC", f"{five}, with a 100 nF capacitor to GND right at the chip"),
    ]


def buffer_rows(pins: dict) -> list[tuple[str, str, str]]:
    """(pin, name, goes to) of the 74LVC125 sharing MISO, powered from 3.3 V."""
    p = pins["pico"]
    three = f"3.3 V (Pico 3V3(OUT), pin {PICO_3V3_OUT})"
    gnd = f"GND (Pico pin {p['readers_gnd_pin']})"
    miso = f"Pico GP{p['miso']} (pin {PICO_GP_PIN[p['miso']]}), joined with the other gates' Y"
    rows: dict[int, tuple[str, str]] = {7: ("GND", gnd),
                                        14: ("VCC", f"{three}, with a 100 nF capacitor to "
                                                    "GND right at the chip")}
    cs = p["reader_cs"]
    for gate, (oe, a, y) in enumerate(BUFFER_GATES, start=1):
        pad = str(gate)
        if pad in cs:
            gp = cs[pad]
            rows[oe] = (f"{gate}OE", f"chip select of pad {pad}: GP{gp} (pin "
                                     f"{PICO_GP_PIN[gp]}), so only the selected reader "
                                     "drives MISO")
            rows[a] = (f"{gate}A", f"MISO of reader {pad}")
            rows[y] = (f"{gate}Y", miso)
        else:
            rows[oe] = (f"{gate}OE", f"{three}: spare gate switched off")
            rows[a] = (f"{gate}A", "GND (unused input, never left floating)")
            rows[y] = (f"{gate}Y", "not connected")
    return [(str(pin), *rows[pin]) for pin in range(1, 15)]


def where(name: str) -> str:
    if name.startswith("track"):
        n = int(name[5:])
        value = TRACK_VALUES[n - 1]
        what = "the X: reaching it loses the game" if value == "X" else f"value {value}"
        return f"detection-rate scale, space {n} ({what})"
    if name == TURN:
        return "on the box beside the OLED: whose turn it is"
    return PLANET_PLACE[name]


def map_rows(chain: list[str | None]) -> list[tuple[str, str, str, str]]:
    rows = []
    for position, name in enumerate(chain):
        if name is None:
            rows.append((str(position), "(spare)", "-", "dark spare pixel"))
        else:
            rows.append((str(position), name, str((LOGICAL + (TURN,)).index(name)),
                         where(name)))
    return rows


def sections(pins: dict, chain: list[str | None]) -> dict[str, str]:
    """The README's generated sections, by marker name."""
    return {
        "pi-header": _table(("pin", "BCM", "function", "goes to"), pi_rows(pins)),
        "pico": _table(("Pico pin", "GP", "function", "goes to"), pico_rows(pins)),
        "level-shifter": _table(("74AHCT125 pin", "name", "goes to"), shifter_rows(pins)),
        "miso-buffer": _table(("74LVC125 pin", "name", "goes to"), buffer_rows(pins)),
        "led-map": _table(("chain position", "pixel", "logical index", "where on the board"),
                          map_rows(chain)),
    }


_SECTION = re.compile(r"(<!-- begin generated: ([a-z-]+) -->\n)(.*?)(<!-- end generated -->)",
                      re.DOTALL)


def fill_readme(text: str, generated: dict[str, str]) -> str:
    """``text`` with every generated section replaced; unknown or missing ones raise."""
    seen = set()

    def replace(m: re.Match) -> str:
        name = m.group(2)
        if name not in generated:
            raise ValueError(f"README.md: unknown generated section {name!r}")
        seen.add(name)
        return m.group(1) + generated[name] + "\n" + m.group(4)

    out = _SECTION.sub(replace, text)
    missing = set(generated) - seen
    if missing:
        raise ValueError(f"README.md: no generated section for {', '.join(sorted(missing))}")
    return out


# ---------------------------------------------------------------- the drawing

W, H = 1400, 1220
FONT = "DejaVu Sans, Arial, Helvetica, sans-serif"
INK, GREY, BOX_FILL = "#222222", "#666666", "#f7f7f4"
COLOURS = {"power": "#c0392b", "gnd": "#222222", "i2c": "#2471a3", "button": "#1e8449",
           "spi": "#7d3c98", "cs": "#af601a", "rst": "#117a65", "data": "#d35400",
           "usb": "#555555"}


@dataclass
class Svg:
    parts: list[str]

    def add(self, element: str) -> None:
        self.parts.append("  " + element)

    def rect(self, x: int, y: int, w: int, h: int, fill: str = BOX_FILL, stroke: str = INK,
             dashed: bool = False, rx: int = 6) -> None:
        dash = ' stroke-dasharray="6 4"' if dashed else ""
        self.add(f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="{rx}" fill="{fill}" '
                 f'stroke="{stroke}" stroke-width="1.5"{dash}/>')

    def line(self, points: list[tuple[int, int]], colour: str, width: float = 2) -> None:
        coords = " ".join(f"{x},{y}" for x, y in points)
        self.add(f'<polyline points="{coords}" fill="none" stroke="{colour}" '
                 f'stroke-width="{width}" stroke-linejoin="round"/>')

    def dot(self, x: int, y: int, colour: str) -> None:
        self.add(f'<circle cx="{x}" cy="{y}" r="3.5" fill="{colour}"/>')

    def port(self, x: int, y: int) -> None:
        self.add(f'<circle cx="{x}" cy="{y}" r="3" fill="#ffffff" stroke="{INK}" '
                 f'stroke-width="1.2"/>')

    def resistor(self, x: int, y: int, colour: str, vertical: bool = False) -> None:
        """A resistor (IEC: a plain box) centred on (x, y), in a wire of ``colour``."""
        w, h = (8, 22) if vertical else (22, 8)
        self.add(f'<rect x="{x - w // 2}" y="{y - h // 2}" width="{w}" height="{h}" '
                 f'fill="#ffffff" stroke="{colour}" stroke-width="1.5"/>')

    def capacitor(self, x: int, top: int, bottom: int, colour: str = INK) -> None:
        """A capacitor between (x, top) and (x, bottom): two plates in the middle."""
        mid = (top + bottom) // 2
        self.line([(x, top), (x, mid - 3)], colour, 1.5)
        self.line([(x, mid + 3), (x, bottom)], colour, 1.5)
        self.line([(x - 7, mid - 3), (x + 7, mid - 3)], INK, 2)
        self.line([(x - 7, mid + 3), (x + 7, mid + 3)], INK, 2)

    def label(self, x: int, y: int, s: str, size: int = 9, anchor: str = "start",
              colour: str = INK) -> None:
        """Text on a white ground, readable where it lies across other wires."""
        width = int(len(s) * size * 0.58) + 4
        left = x - width if anchor == "end" else x - 2
        self.add(f'<rect x="{left}" y="{y - size}" width="{width}" height="{size + 4}" '
                 f'fill="#ffffff"/>')
        self.text(x, y, s, size, anchor=anchor, colour=colour)

    def text(self, x: int, y: int, s: str, size: int = 12, anchor: str = "start",
             weight: str = "normal", colour: str = INK) -> None:
        bold = ' font-weight="bold"' if weight == "bold" else ""
        self.add(f'<text x="{x}" y="{y}" font-size="{size}" text-anchor="{anchor}" '
                 f'fill="{colour}"{bold}>{escape(s)}</text>')


# Rows of the Pi's header column: OLED (4), buttons (6 + GND), buzzer (3), with gaps.
def _rows(groups: tuple[int, ...], top: int = 130, step: int = 28,
          gap: int = 24) -> list[list[int]]:
    out, y = [], top
    for n in groups:
        out.append([y + i * step for i in range(n)])
        y += n * step + gap
    return out


def draw_buffer(svg: Svg, pins: dict) -> None:
    """The 74LVC125 sharing MISO, pin by pin, with the chip selects' pull-ups. Its wires
    end in named nets: a label names the Pico pin or reader pin it joins."""
    pico = pins["pico"]
    cs = pico["reader_cs"]
    x0, y0 = 90, 690
    svg.rect(x0, y0 - 24, 870, 318, fill="#ffffff", dashed=True)
    svg.text(x0 + 10, y0 - 6, "Sharing MISO: 74LVC125 quad tri-state buffer at 3.3 V "
             "(DIP-14, top view), beside the Pico", 12, weight="bold")
    # The chip: pins 1-7 down the left side, 14-8 down the right, as on the package.
    cx, cw, top, step = 440, 200, y0 + 34, 30
    svg.rect(cx, top - 20, cw, 7 * step + 10, rx=3)
    svg.add(f'<path d="M {cx + cw // 2 - 10} {top - 20} A 10 10 0 0 0 {cx + cw // 2 + 10} '
            f'{top - 20}" fill="none" stroke="{INK}" stroke-width="1.5"/>')
    svg.text(cx + cw // 2, top + 3 * step + 4, "74LVC125", 12, anchor="middle", weight="bold")
    rows = {int(pin): (name, to) for pin, name, to in buffer_rows(pins)}
    three, gnd = f"3V3(OUT) (pin {PICO_3V3_OUT})", f"GND (pin {pico['readers_gnd_pin']})"
    miso = f"GP{pico['miso']} MISO (pin {PICO_GP_PIN[pico['miso']]})"

    def net(pin: int) -> tuple[str, str]:
        name, _ = rows[pin]
        gate = int(name[0]) if name[0].isdigit() else 0
        pad = str(gate)
        if name == "VCC":
            return three, "power"
        if name == "GND":
            return gnd, "gnd"
        if name.endswith("OE"):
            if pad in cs:
                return f"CS pad {pad}: GP{cs[pad]} (pin {PICO_GP_PIN[cs[pad]]})", "cs"
            return three + ": gate off", "power"
        if name.endswith("A"):
            return (f"MISO of reader {pad}", "spi") if pad in cs else (gnd, "gnd")
        return (miso, "spi") if pad in cs else ("not connected", "usb")

    for i in range(7):
        for pin, side in ((i + 1, -1), (14 - i, 1)):
            y = top + i * step
            x = cx if side < 0 else cx + cw
            name, _ = rows[pin]
            svg.text(x - side * 8, y + 4, f"{name} ({pin})", 10,
                     anchor="start" if side < 0 else "end")
            label, kind = net(pin)
            end = x + side * 46
            svg.line([(x, y), (end, y)], COLOURS[kind])
            svg.port(x, y)
            svg.text(end + side * 6, y + 4, label, 10, anchor="end" if side < 0 else "start",
                     colour=GREY if label == "not connected" else INK)
    # The chip's own decoupling, at pin 14.
    svg.capacitor(cx + cw + 24, top, top - 24)
    svg.dot(cx + cw + 24, top, COLOURS["power"])
    svg.line([(cx + cw + 16, top - 24), (cx + cw + 32, top - 24)], COLOURS["gnd"], 2)
    svg.text(cx + cw + 36, top - 16, "100 nF to GND at pin 14", 9, colour=GREY)
    # The chip selects' pull-ups: a reader stays deselected while the Pico boots.
    px, rail_y = x0 + 20, y0 + 250
    svg.text(px, rail_y - 64, "Chip-select pull-ups (one per pad):", 11)
    svg.line([(px, rail_y), (px + 60 * len(cs) + 20, rail_y)], COLOURS["power"])
    svg.text(px + 60 * len(cs) + 26, rail_y + 4, three, 10)
    for i, (pad, gp) in enumerate(cs.items()):
        x = px + 30 + 60 * i
        svg.line([(x, rail_y), (x, rail_y - 44)], COLOURS["cs"], 1.5)
        svg.dot(x, rail_y, COLOURS["power"])
        svg.resistor(x, rail_y - 22, COLOURS["cs"], vertical=True)
        svg.text(x + 7, rail_y - 18, "10 kΩ", 9)
        svg.port(x, rail_y - 44)
        svg.text(x, rail_y - 50, f"CS {pad}", 9, anchor="middle")
    notes = [
        "A gate's OE (active low) is its reader's chip select: only the selected reader",
        "reaches MISO. 3.3 V only: its outputs drive the Pico's pin. Without it: a diode-OR",
        "(BAT43 from each MISO to GP4) and a 2.2-4.7 kΩ pull-down, if MISO idles low.",
    ]
    for i, line in enumerate(notes):
        svg.text(x0 + 345, rail_y + 8 + 13 * i, line, 9, colour=GREY)


def draw(pins: dict, chain: list[str | None]) -> str:
    check_pins(pins)
    pi, pico, pads = pins["pi"], pins["pico"], pins["pads"]
    svg = Svg([])
    svg.text(40, 36, "Companion box: reference wiring", 20, weight="bold")
    svg.text(40, 56, "Raspberry Pi + OLED + 6 buttons; Pico + MFRC522 pads + WS2812 chain. "
                     "Dots join wires; lines that cross without a dot do not touch; a label "
                     "at a wire's end names what it joins.", 12, colour=GREY)

    oled_rows, button_rows, buzzer_rows = _rows((4, 7, 3))

    # ---- Raspberry Pi: header pins on its left edge
    px, pw = 330, 240
    pi_top, pi_bottom = 70, buzzer_rows[-1] + 26
    svg.rect(px, pi_top, pw, pi_bottom - pi_top)
    svg.text(px + 10, pi_top + 20, "Raspberry Pi (Zero 2 W, 4 or 5)", 13, weight="bold")
    svg.text(px + 10, pi_top + 36, "40-pin header: pin  BCM", 11, colour=GREY)
    oled = pi["oled"]
    pi_ports = [
        (oled["vcc_pin"], "3V3", "power"),
        (PI_GPIO_PIN[oled["sda"]], f"GPIO {oled['sda']} (SDA)", "i2c"),
        (PI_GPIO_PIN[oled["scl"]], f"GPIO {oled['scl']} (SCL)", "i2c"),
        (oled["gnd_pin"], "GND", "gnd"),
        *((PI_GPIO_PIN[g], f"GPIO {g}", "button") for g in pi["buttons"].values()),
        (pi["buttons_gnd_pin"], "GND", "gnd"),
        (PI_GPIO_PIN[pi["buzzer"]["gpio"]], f"GPIO {pi['buzzer']['gpio']}", "button"),
        (pi["buzzer"]["supply_pin"], "5V", "power"),
        (pi["buzzer"]["gnd_pin"], "GND", "gnd"),
    ]
    pi_y = oled_rows + button_rows + buzzer_rows
    for (pin, label, _), y in zip(pi_ports, pi_y):
        svg.text(px + 12, y + 4, f"pin {pin:<2}  {label}", 12)

    # ---- OLED
    svg.rect(40, oled_rows[0] - 16, 190, oled_rows[-1] - oled_rows[0] + 32)
    svg.text(50, oled_rows[0] + 4, "OLED 128x64", 13, weight="bold")
    svg.text(50, oled_rows[1] + 4, "SSD1306 or", 11, colour=GREY)
    svg.text(50, oled_rows[2] + 4, "SH1106, I2C", 11, colour=GREY)
    svg.text(50, oled_rows[3] + 4, f"address {oled['address']}", 11, colour=GREY)
    for name, y, (_, _, kind) in zip(("VCC", "SDA", "SCL", "GND"), oled_rows, pi_ports):
        svg.text(222, y + 4, name, 12, anchor="end")
        svg.line([(230, y), (px, y)], COLOURS[kind])
        svg.port(230, y)

    # ---- Buttons: GPIO -> button -> common GND rail -> GND pin
    svg.text(40, button_rows[0] - 20, "Push buttons (GPIO to GND, Pi pull-ups)", 12)
    rail = 70
    notes = {"BACK": "BACK (hold: undo)"}
    for name, y in zip(pi["buttons"], button_rows):
        svg.rect(110, y - 10, 120, 20, fill="#ffffff", rx=4)
        svg.text(170, y + 4, notes.get(name, name), 11, anchor="middle")
        svg.line([(230, y), (px, y)], COLOURS["button"])
        svg.line([(rail, y), (110, y)], COLOURS["gnd"], 1.5)
        svg.dot(rail, y, COLOURS["gnd"])
    gnd_y = button_rows[-1]
    svg.line([(rail, button_rows[0]), (rail, gnd_y), (px, gnd_y)], COLOURS["gnd"])
    svg.text(rail + 44, gnd_y - 5, "common GND", 10, colour=GREY)

    # ---- Buzzer (optional)
    svg.text(40, buzzer_rows[0] - 22, "Buzzer (optional, active, NPN switch)", 12)
    svg.rect(40, buzzer_rows[0] - 14, 190, buzzer_rows[-1] - buzzer_rows[0] + 28, dashed=True)
    for name, y, (_, _, kind) in zip(("NPN base via 1 kΩ", "buzzer + (5 V)", "NPN emitter"),
                                     buzzer_rows, pi_ports[-3:]):
        svg.text(222, y + 4, name, 11, anchor="end")
        svg.line([(230, y), (px, y)], COLOURS[kind])
        svg.port(230, y)
    svg.text(40, buzzer_rows[-1] + 32, "NPN (BC337: legs C B E; 2N2222A: E B C, flat", 9,
             colour=GREY)
    svg.text(40, buzzer_rows[-1] + 44, "side facing you): E to GND, B via 1 kΩ, C to", 9,
             colour=GREY)
    svg.text(40, buzzer_rows[-1] + 56, "buzzer -; 1N4148 across a magnetic buzzer", 9,
             colour=GREY)
    for y in pi_y:
        svg.port(px, y)

    # ---- USB cable
    usb_y = 250
    qx, qw = 680, 240
    svg.line([(px + pw, usb_y), (qx, usb_y)], COLOURS["usb"], 5)
    svg.text(px + pw - 8, usb_y + 4, "USB port", 11, anchor="end")
    svg.text((px + pw + qx) // 2, usb_y - 10, "USB cable", 11, anchor="middle")
    svg.text((px + pw + qx) // 2, usb_y + 20, "5 V + data", 11, anchor="middle", colour=GREY)

    # ---- Pico: reader signals on the right edge, LED side on the bottom edge
    q_top, q_bottom = 70, 420
    svg.rect(qx, q_top, qw, q_bottom - q_top)
    svg.text(qx + 10, q_top + 20, "Raspberry Pi Pico (RP2040)", 13, weight="bold")
    svg.text(qx + 10, q_top + 36, "MicroPython, firmware/", 11, colour=GREY)
    svg.text(qx + 10, usb_y + 4, "micro-USB", 11)
    cs = pico["reader_cs"]
    nets = [  # (label in the Pico, reader pin index or "cs", colour)
        (f"SPI0 SCK  GP{pico['sck']} ({PICO_GP_PIN[pico['sck']]})", 1, "spi"),
        (f"SPI0 MOSI  GP{pico['mosi']} ({PICO_GP_PIN[pico['mosi']]})", 2, "spi"),
        (f"SPI0 MISO  GP{pico['miso']} ({PICO_GP_PIN[pico['miso']]})", 3, "spi"),
        (f"GND ({pico['readers_gnd_pin']})", 5, "gnd"),
        (f"RST  GP{pico['reader_rst']} ({PICO_GP_PIN[pico['reader_rst']]})", 6, "rst"),
        (f"3V3(OUT) ({PICO_3V3_OUT})", 7, "power"),
        *((f"CS pad {pad}  GP{gp} ({PICO_GP_PIN[gp]})", ("cs", pad), "cs")
          for pad, gp in cs.items()),
    ]
    reader_x, reader_w = 1140, 230
    reader_tops = [400 + 210 * i for i in range(len(cs))]

    def reader_pin_y(reader: int, index: int) -> int:
        return reader_tops[reader] + 36 + 20 * index

    port_y = [130 + 28 * k for k in range(len(nets))]
    for k, ((label, target, kind), y) in enumerate(zip(nets, port_y)):
        svg.text(qx + qw - 8, y + 4, label, 11, anchor="end")
        channel = reader_x - 24 - 16 * k  # the top port's channel is nearest the readers
        if isinstance(target, tuple):
            stubs = [reader_pin_y(list(cs).index(target[1]), 0)]
        else:
            stubs = [reader_pin_y(r, target) for r in range(len(cs))]
        colour = COLOURS[kind]
        if target == READER_PINS.index("MISO"):  # the readers' MISO meet in the 74LVC125
            svg.line([(qx + qw, y), (qx + qw + 50, y)], colour)
            svg.port(qx + qw + 50, y)
            svg.text(qx + qw + 6, y - 5, "to 74LVC125 Y", 9, colour=GREY)
            svg.port(qx + qw, y)
            continue
        if target in (READER_PINS.index("SCK"), READER_PINS.index("MOSI")):
            svg.line([(qx + qw, y), (qx + qw + 26, y)], colour)
            svg.resistor(qx + qw + 26, y, colour)
            svg.text(qx + qw + 26, y - 7, f"{SERIES_OHMS} Ω", 9, anchor="middle")
        svg.line([(qx + qw, y), (channel, y), (channel, stubs[-1])], colour)
        for sy in stubs:
            svg.line([(channel, sy), (reader_x, sy)], colour)
            if sy != stubs[-1]:
                svg.dot(channel, sy, colour)
        svg.port(qx + qw, y)

    # ---- Readers
    for r, (pad, top) in enumerate(zip(cs, reader_tops)):
        svg.rect(reader_x, top, reader_w, 190)
        svg.text(reader_x + 10, top + 20, f"Reader pad {pad} (MFRC522)", 13, weight="bold")
        seat = textwrap.wrap(pads[pad], 16) + ["antenna side up"]
        for i, line in enumerate(seat):
            svg.text(reader_x + 110, top + 60 + 16 * i, line, 11, colour=GREY)
        for i, name in enumerate(READER_PINS):
            y = reader_pin_y(r, i)
            svg.text(reader_x + 10, y + 4, name + (" (n.c.)" if name == "IRQ" else ""), 11)
            svg.port(reader_x, y)
        irq = reader_pin_y(r, READER_PINS.index("IRQ"))
        svg.line([(reader_x, irq), (reader_x - 12, irq)], GREY, 1.5)
        svg.line([(reader_x - 16, irq - 4), (reader_x - 8, irq + 4)], GREY, 1.5)
        svg.line([(reader_x - 16, irq + 4), (reader_x - 8, irq - 4)], GREY, 1.5)
        miso = reader_pin_y(r, READER_PINS.index("MISO"))
        svg.line([(reader_x, miso), (reader_x - 14, miso)], COLOURS["spi"])
        oe, a, _ = BUFFER_GATES[r]
        svg.label(reader_x - 17, miso + 3, f"MISO {pad}: 74LVC125 {r + 1}A (pin {a})",
                  anchor="end", colour=COLOURS["spi"])
        # Decoupling right at the module: 10 µF and 100 nF across its 3.3V and GND.
        gnd_y = reader_pin_y(r, READER_PINS.index("GND"))
        v_y = reader_pin_y(r, READER_PINS.index("3.3V"))
        svg.line([(reader_x + 42, gnd_y), (reader_x + 80, gnd_y)], COLOURS["gnd"], 1.5)
        svg.line([(reader_x + 42, v_y), (reader_x + 80, v_y)], COLOURS["power"], 1.5)
        svg.capacitor(reader_x + 80, gnd_y, v_y)
        svg.text(reader_x + 92, (gnd_y + v_y) // 2 + 4, "10 µF + 100 nF", 10)

    # ---- Notes on the pads
    notes_lines = [
        ("Reader pads", "bold"),
        ("under the table mat, one per seat:", ""),
        *((f"pad {pad}: {pads[pad]}", "") for pad in cs),
        ("at least 10 cm apart, antenna side up,", ""),
        ("away from the LED data wire", ""),
        ("readers share SCK, MOSI, RST,", ""),
        ("3.3V and GND; one chip select each", ""),
        ("MISO through a 3.3 V 74LVC125 (below)", ""),
        (f"SCK, MOSI: {SERIES_OHMS} Ω in series at the Pico", ""),
        ("each reader: 10 µF + 100 nF at its pins", ""),
    ]
    svg.rect(reader_x, 70, reader_w, 24 + 18 * len(notes_lines), fill="#ffffff", dashed=True)
    for i, (line, weight) in enumerate(notes_lines):
        svg.text(reader_x + 10, 92 + 18 * i, line, 11, weight=weight)

    # ---- Level shifter, fed from the Pico's bottom edge
    data_x, vbus_x, gnd_x = 720, 800, 880
    for x, label in ((data_x, f"GP{pico['led_data']} ({PICO_GP_PIN[pico['led_data']]})"),
                     (vbus_x, f"VBUS ({PICO_VBUS})"), (gnd_x, f"GND ({pico['led_gnd_pin']})")):
        svg.text(x, q_bottom - 8, label, 10, anchor="middle")
    sx, sy, sw, sh = 620, 520, 240, 140
    svg.rect(sx, sy, sw, sh)
    svg.text(data_x, sy + 16, "1A (2)", 10, anchor="middle")
    svg.text(vbus_x, sy + 16, "VCC (14)", 10, anchor="middle")
    svg.text(sx + 12, sy + 46, "74AHCT125 level shifter", 12, weight="bold")
    svg.text(sx + sw - 8, sy + 74, "GND (7)", 10, anchor="end")
    svg.text(sx + sw - 8, sy + 104, "1OE (1)", 10, anchor="end")
    svg.text(sx + 10, sy + 84, "1Y (3)", 10)
    svg.text(sx + 10, sy + 120, "unused: 2A 3A 4A to GND, 2OE 3OE 4OE to 5 V", 9, colour=GREY)
    svg.text(sx + 10, sy + 133, "100 nF from VCC to GND at the chip", 9, colour=GREY)
    svg.line([(data_x, q_bottom), (data_x, sy)], COLOURS["data"])
    svg.text(data_x - 6, 470, "3.3 V data", 10, anchor="end", colour=GREY)
    svg.line([(vbus_x, q_bottom), (vbus_x, sy)], COLOURS["power"])
    svg.text(vbus_x - 6, 470, "5 V", 10, anchor="end", colour=GREY)
    svg.line([(gnd_x, q_bottom), (gnd_x, sy + 100), (sx + sw, sy + 100)], COLOURS["gnd"])
    svg.line([(gnd_x, sy + 70), (sx + sw, sy + 70)], COLOURS["gnd"])
    svg.dot(gnd_x, sy + 70, COLOURS["gnd"])
    for x, y in ((data_x, q_bottom), (vbus_x, q_bottom), (gnd_x, q_bottom), (data_x, sy),
                 (vbus_x, sy), (sx + sw, sy + 70), (sx + sw, sy + 100), (sx, sy + 80)):
        svg.port(x, y)

    draw_buffer(svg, pins)

    # ---- LED chain along the bottom, in chain order from led-map.json
    cy, pitch, cw = 1070, 52, 40
    c0 = 90
    mid = cy + 15
    din_x = 60
    svg.line([(sx, sy + 80), (din_x, sy + 80), (din_x, mid), (c0, mid)], COLOURS["data"])
    svg.text(sx - 10, sy + 74, "5 V data, short wire", 10, anchor="end", colour=GREY)
    svg.add(f'<rect x="{din_x - 5}" y="990" width="10" height="30" fill="#ffffff" '
            f'stroke="{COLOURS["data"]}" stroke-width="1.5"/>')
    svg.text(din_x + 12, 1004, "330 Ω", 11)
    svg.text(din_x + 12, 1018, "near DIN", 10, colour=GREY)
    svg.text(c0, cy - 18, "detection-rate track: one 12-pixel strip piece, space 1 first", 11)
    n_track = sum(1 for name in chain if name and name.startswith("track"))
    svg.text(c0 + pitch * n_track, cy - 18,
             "planets: single pixels wired on (Centarious, Superious, Entanglion ring "
             "clockwise), then turn", 11)
    for i, name in enumerate(chain):
        x = c0 + pitch * i
        svg.add(f'<rect x="{x}" y="{cy}" width="{cw}" height="30" rx="3" fill="#ffffff" '
                f'stroke="{INK}" stroke-width="1.2"/>')
        svg.text(x + cw // 2, cy - 4, str(i), 9, anchor="middle", colour=GREY)
        label = "spare" if name is None else ("T" + name[5:] if name.startswith("track")
                                              else SHORT[name])
        svg.text(x + cw // 2, mid + 4, label, 11, anchor="middle")
        if i + 1 < len(chain):
            svg.line([(x + cw, mid), (x + pitch, mid)], COLOURS["data"], 1.5)
    svg.text(c0 - 4, cy + 44, "DIN", 9, anchor="end", colour=GREY)
    end = c0 + pitch * (len(chain) - 1) + cw
    v_rail, g_rail = 1130, 1150
    svg.line([(120, v_rail), (end, v_rail)], COLOURS["power"])
    svg.line([(120, g_rail), (end, g_rail)], COLOURS["gnd"])
    # Every pixel's 5 V and GND pads on the two rails.
    for i in range(len(chain)):
        x = c0 + pitch * i
        for px_off, rail, kind in ((12, v_rail, "power"), (28, g_rail, "gnd")):
            svg.line([(x + px_off, cy + 30), (x + px_off, rail)], COLOURS[kind], 1.2)
            svg.dot(x + px_off, rail, COLOURS[kind])
    svg.text(c0 + pitch * len(chain) - 4, cy + 44, "each pixel: 5 V and GND to the rails",
             9, anchor="end", colour=GREY)
    # The rails' feed, as named nets: the same name at both ends is one wire.
    for x, y, kind, name in ((vbus_x, 488, "power", "CHAIN 5V"),
                             (gnd_x, 500, "gnd", "CHAIN GND")):
        svg.line([(x, y), (x + 22, y)], COLOURS[kind], 1.5)
        svg.dot(x, y, COLOURS[kind])
        svg.port(x + 22, y)
        svg.text(x + 28, y + 4, name, 9, weight="bold")
    svg.line([(40, v_rail), (120, v_rail)], COLOURS["power"])
    svg.line([(40, g_rail), (120, g_rail)], COLOURS["gnd"])
    svg.port(40, v_rail)
    svg.port(40, g_rail)
    svg.text(36, v_rail - 6, "CHAIN 5V (Pico VBUS)", 9, weight="bold")
    svg.text(36, g_rail + 16, "CHAIN GND (Pico GND)", 9, weight="bold")
    # The bulk capacitor, polarised: + to 5 V, the curved plate to GND.
    cap = 150
    svg.line([(cap, v_rail), (cap, v_rail + 6)], COLOURS["power"], 1.5)
    svg.line([(cap - 8, v_rail + 6), (cap + 8, v_rail + 6)], INK, 2)
    svg.add(f'<path d="M {cap - 8} {v_rail + 15} Q {cap} {v_rail + 10} {cap + 8} '
            f'{v_rail + 15}" fill="none" stroke="{INK}" stroke-width="2"/>')
    svg.line([(cap, v_rail + 12), (cap, g_rail)], COLOURS["gnd"], 1.5)
    svg.text(cap - 12, v_rail + 6, "+", 11, anchor="end", weight="bold")
    svg.dot(cap, v_rail, COLOURS["power"])
    svg.dot(cap, g_rail, COLOURS["gnd"])
    svg.text(190, g_rail + 30,
             f"10 µF (+ to 5 V) at the chain input: a USB port allows about 10 µF on a "
             f"device plugged in. 5 V from Pico VBUS (pin {PICO_VBUS}), GND from Pico GND "
             f"(pin {pico['led_gnd_pin']}). A chain fed from its own supply takes 1000 µF.",
             11)
    svg.text(40, H - 12, "Generated by hardware/make_wiring.py from pins.json and "
                         "led-map.json: edit those, not this file.", 10, colour=GREY)

    head = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" '
        f'viewBox="0 0 {W} {H}" font-family="{FONT}">',
        f'  <rect x="0" y="0" width="{W}" height="{H}" fill="#ffffff"/>',
    ]
    return "\n".join(head + svg.parts + ["</svg>"]) + "\n"


# ---------------------------------------------------------------- command line


def outputs() -> dict[Path, str]:
    """Every file this script owns, with the content it should have."""
    pins, chain = load_pins(), load_chain()
    readme = README_FILE.read_text(encoding="utf-8")
    return {SVG_FILE: draw(pins, chain), README_FILE: fill_readme(readme, sections(pins, chain))}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 if a file is out of date")
    args = parser.parse_args(argv)
    stale = []
    for path, content in outputs().items():
        current = path.read_text(encoding="utf-8") if path.exists() else None
        if current == content:
            continue
        stale.append(path.name)
        if not args.check:
            path.write_text(content, encoding="utf-8")
    if args.check and stale:
        print(f"out of date: {', '.join(stale)} (run python hardware/make_wiring.py)",
              file=sys.stderr)
        return 1
    for name in stale:
        print(f"wrote {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
