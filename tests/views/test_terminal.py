"""Terminal renderer tests: exact half-block mapping and an honest, bounded board map."""

from __future__ import annotations

import re

import pytest
from PIL import Image

from companion.views import leds, terminal
from companion.views.leds import entanglion_frame
from companion.views.terminal import ansi_strip, board_compact, board_map, display_colour, halfblocks, letter

W, H = 128, 64


def image_from(lit: set[tuple[int, int]], size: tuple[int, int] = (W, H)) -> Image.Image:
    image = Image.new("1", size, 0)
    for xy in lit:
        image.putpixel(xy, 1)
    return image


# --- halfblocks -------------------------------------------------------------------


def test_blank_and_full() -> None:
    assert halfblocks(Image.new("1", (W, H), 0)) == [" " * W] * (H // 2)
    assert halfblocks(Image.new("1", (W, H), 1)) == ["█" * W] * (H // 2)


def test_checkerboard_maps_exactly() -> None:
    lit = {(x, y) for x in range(W) for y in range(H) if (x + y) % 2 == 0}
    lines = halfblocks(image_from(lit))
    # Even column: top pixel (row even) lit, bottom not -> upper half block.
    assert lines == ["▀▄" * (W // 2)] * (H // 2)


def test_corner_pixels() -> None:
    lines = halfblocks(image_from({(0, 0), (W - 1, 0), (0, H - 1), (W - 1, H - 1)}))
    assert len(lines) == 32 and all(len(line) == W for line in lines)
    assert lines[0] == "▀" + " " * (W - 2) + "▀"
    assert lines[-1] == "▄" + " " * (W - 2) + "▄"
    assert all(line == " " * W for line in lines[1:-1])


def test_single_pixels_in_a_cell() -> None:
    # Column 5, rows 10/11 are cell (line 5, char 5).
    def cell(lit: set[tuple[int, int]]) -> str:
        return halfblocks(image_from(lit))[5][5]

    assert cell(set()) == " "
    assert cell({(5, 10)}) == "▀"
    assert cell({(5, 11)}) == "▄"
    assert cell({(5, 10), (5, 11)}) == "█"


def test_border() -> None:
    lines = halfblocks(image_from({(0, 0)}), border=True)
    assert len(lines) == 34 and all(len(line) == W + 2 for line in lines)
    assert lines[0] == "┌" + "─" * W + "┐"
    assert lines[-1] == "└" + "─" * W + "┘"
    assert lines[1] == "│▀" + " " * (W - 1) + "│"
    assert all(line[0] == line[-1] == "│" for line in lines[1:-1])


def test_odd_sizes_and_width_not_multiple_of_8() -> None:
    # tobytes() of mode "1" pads rows to bytes; the renderer must not be fooled.
    lines = halfblocks(image_from({(0, 0), (9, 4)}, size=(10, 5)))
    assert lines == ["▀" + " " * 9, " " * 10, " " * 9 + "▀"]


def test_rejects_other_modes() -> None:
    with pytest.raises(ValueError):
        halfblocks(Image.new("L", (W, H)))


# --- board_map --------------------------------------------------------------------

SCENES = {
    "empty": {},
    "setup": {"components": ["OMEGA_ONE", "PHI_MINUS"], "highlight": ["PSI_PLUS"], "detection": 1},
    "play": {
        "ships": {"mercurial": "ZERO", "rubicon": "PLUS"},
        "components": ["OMEGA_ONE", "PHI_MINUS", "OMEGA_TWO"],
        "targets": ["ONE", "MINUS"],
        "detection": 7,
    },
    "inside": {"ships": {"mercurial": "OMEGA_THREE", "rubicon": "OMEGA_THREE"}, "detection": 11},
    "lost": {"result": "lost", "detection": 12},
    "won": {"result": "won", "detection": 5},
}
FRAMES = [
    pytest.param(entanglion_frame(model, phase), id=f"{name}-{phase}")
    for name, model in SCENES.items()
    for phase in (0, 1)
]


@pytest.mark.parametrize("frame", FRAMES)
def test_plain_map_has_no_escapes_and_fits(frame: tuple) -> None:
    lines = board_map(frame, colour=False)
    assert not any("\x1b" in line for line in lines)
    assert len(lines) < 14
    assert all(len(line) <= terminal.MAP_WIDTH for line in lines)
    assert max(len(line) for line in lines) >= 40  # "about 40-60 columns"


@pytest.mark.parametrize("frame", FRAMES)
def test_colour_map_fits_and_shows_every_planet_colour(frame: tuple) -> None:
    lines = board_map(frame)
    text = "\n".join(lines)
    assert len(lines) < 14
    assert all(len(ansi_strip(line)) <= terminal.MAP_WIDTH for line in lines)
    shown = {tuple(map(int, m)) for m in re.findall(r"\x1b\[38;2;(\d+);(\d+);(\d+)m", text)}
    for rgb in frame[:12]:
        assert (display_colour(rgb) if rgb != leds.OFF else terminal.OFF_GREY) in shown
    assert ansi_strip(text).count("●") + ansi_strip(text).count("○") == 13  # and the turn
    assert ansi_strip(text).count("○") == frame[:12].count(leds.OFF) + \
        (frame[leds.TURN_INDEX] == leds.OFF)


def test_display_colour_is_exact_except_when_too_dim() -> None:
    for rgb in (leds.MERCURIAL_BLUE, leds.RUBICON_RED, leds.BOTH_VIOLET, leds.TARGET_AMBER, leds.HIGHLIGHT_WARM):
        assert display_colour(rgb) == rgb
    for rgb in leds.DETECTION_COLOURS:
        assert display_colour(rgb) == rgb
    dim = display_colour(leds.COMPONENT_DIM)
    assert dim[0] == dim[1] == dim[2] > max(terminal.OFF_GREY)  # still white, brighter than "off"


def test_plain_map_letters() -> None:
    frame = entanglion_frame(SCENES["play"], phase=1)
    text = "\n".join(board_map(frame, colour=False))
    assert " M0 " in text and " R+ " in text  # ships
    assert "cΩ1" in text and "cΦ-" in text and "cΩ2" in text  # components
    assert "oΩ0" in text and "o1" in text  # off
    blink = "\n".join(board_map(entanglion_frame(SCENES["play"], phase=0), colour=False))
    assert "*1" in blink and "*-" in blink
    both = "\n".join(board_map(entanglion_frame(SCENES["inside"]), colour=False))
    assert "BΩ3" in both
    setup = "\n".join(board_map(entanglion_frame(SCENES["setup"]), colour=False))
    assert "wΨ+" in setup


def test_every_planet_and_label_appears_once() -> None:
    plain = "\n".join(board_map(leds.OFF_FRAME, colour=False))
    cells = re.findall(r"(?<!\S)o(\S+)", plain)  # a letter then its label, space-separated
    assert sorted(cells) == sorted(terminal.LABELS.values())
    assert set(terminal.LABELS) == set(leds.PIXELS[:12])


def test_track_rows() -> None:
    lines = board_map(entanglion_frame({"detection": 4, "turn": "rubicon"}), colour=False)
    assert lines[-2].endswith("1 2 2 3 3 4 4 5 5 6 7 X  turn R")
    assert lines[-1].strip() == "# # # # . . . . . . . ."
    # Values and marks line up column for column.
    assert lines[-2].index("1") == lines[-1].index("#")
    coloured = board_map(entanglion_frame({"detection": 4}))
    assert ansi_strip(coloured[-1]).endswith("1 2 2 3 3 4 4 5 5 6 7 X  turn ○")
    assert coloured[-1].count("\x1b[38;2;70;70;70m") == 9  # unlit spaces (and turn) grey
    for rgb in leds.DETECTION_COLOURS[:4]:
        assert "\x1b[38;2;%d;%d;%dm" % rgb in coloured[-1]


def test_lost_x_flashes_on_the_map() -> None:
    on = board_map(entanglion_frame({"result": "lost"}, 0), colour=False)[-1]
    off = board_map(entanglion_frame({"result": "lost"}, 1), colour=False)[-1]
    assert on.strip() == " ".join("#" * 12)
    assert off.strip() == " ".join("#" * 11 + ".")


def test_letter_is_nearest_named_colour() -> None:
    assert letter(leds.OFF) == "o"
    assert letter(leds.MERCURIAL_BLUE) == "M"
    assert letter(leds.RUBICON_RED) == "R"
    assert letter(leds.BOTH_VIOLET) == "B"
    assert letter(leds.COMPONENT_DIM) == "c"
    assert letter(leds.TARGET_AMBER) == "*"
    assert letter(leds.HIGHLIGHT_WARM) == "w"
    assert letter((0, 70, 240)) == "M"  # near, not equal
    assert letter((0, 255, 0)) == "?"  # far from every named planet colour


def test_wrong_frame_length_raises() -> None:
    with pytest.raises(ValueError):
        board_map(leds.OFF_FRAME[:12])


def test_ansi_strip() -> None:
    assert ansi_strip("\x1b[38;2;1;2;3mab\x1b[0mc") == "abc"
    assert ansi_strip("plain") == "plain"


def test_braille_keeps_every_pixel_in_64_by_16() -> None:
    from PIL import Image

    image = Image.new("1", (128, 64), 0)
    for x, y in ((0, 0), (1, 3), (127, 63), (64, 32)):
        image.putpixel((x, y), 1)
    lines = terminal.braille(image)
    assert len(lines) == 16 and all(len(line) == 64 for line in lines)
    assert lines[0][0] == chr(0x2800 + 0x01 + 0x80)  # (0,0) and (1,3) in one cell
    assert lines[15][63] == chr(0x2800 + 0x80)  # (127,63): right column, bottom row
    assert lines[8][32] == chr(0x2800 + 0x01)
    lit = sum(bin(ord(c) - 0x2800).count("1") for line in lines for c in line)
    assert lit == 4
    boxed = terminal.braille(image, border=True)
    assert len(boxed) == 18 and all(len(line) == 66 for line in boxed)


def test_compact_map_fits_beside_a_braille_oled() -> None:
    """66 columns of OLED, two of gap and the map: 80 columns."""
    frame = entanglion_frame({**SCENES["play"], "turn": "mercurial"}, phase=1)
    plain = board_compact(frame, colour=False)
    coloured = board_compact(frame)
    assert len(plain) <= 16 and all(len(line) <= terminal.COMPACT_WIDTH for line in plain)
    assert all(len(ansi_strip(line)) <= terminal.COMPACT_WIDTH for line in coloured)
    text = "\n".join(plain)
    assert "0M" in text and "+R" in text and "Turn M" in text
    for label in terminal.LABELS.values():
        assert label in text
