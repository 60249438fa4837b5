"""The LED chain under the board, as pure functions: a small model in, 25 colours out.

Logical pixel order (the hardware LED map remaps it to the physical chain later):
pixels 0-11 are the planets in :data:`~companion.games.entanglion.board.PLANETS`
order, pixels 12-23 the detection-rate track spaces 1..12 (space 12 is the X).
QNO (:func:`qno_frame`) and QLANET (:func:`qlanet_frame`) reuse the same pixels.

The model is a plain mapping; every key is optional::

    {
        "ships": {"mercurial": "ZERO", "rubicon": "PLUS"},  # planet or None
        "components": ["OMEGA_ONE", ...],   # planets still holding a component
        "highlight": ["PHI_MINUS"],         # steady warm white (setup placement)
        "targets": ["PSI_PLUS", ...],       # choice targets: blink amber
        "detection": 3,                     # space 1..12, or None for all off
        "result": None,                     # or "won" / "lost"
        "turn": "mercurial",                # whose turn: the turn pixel, or None
    }

The frame has one more pixel after the 24 of the board: ``turn``, lit in the colour of
the player (ship, camp or seat) whose turn it is. A build wires it only if its LED map
names it (the board pixels are required, ``turn`` is optional).

``phase`` is the only time input: the shell bumps it from a blink timer, and only
runs that timer while :func:`blinking` says the frame depends on it, so an idle box
never redraws. Brightness capping is the sink's job; these colours are the logical
ones, and normal states stay clear of full white so a cap is rarely needed.
"""

from __future__ import annotations

import colorsys
from collections.abc import Iterable, Mapping

from companion.games.entanglion.board import MERCURIAL, PLANETS, RUBICON
from companion.games.entanglion.cards import LAST_SPACE

RGB = tuple[int, int, int]
Frame = tuple[RGB, ...]

OFF: RGB = (0, 0, 0)
MERCURIAL_BLUE: RGB = (0, 80, 255)
RUBICON_RED: RGB = (255, 0, 0)
BOTH_VIOLET: RGB = (160, 0, 255)
COMPONENT_DIM: RGB = (20, 20, 20)  # dim white: a component is there, nobody is
HIGHLIGHT_WARM: RGB = (255, 170, 90)  # warm white, deliberately not (255, 255, 255)
TARGET_AMBER: RGB = (255, 130, 0)
LOST_RED: RGB = (255, 0, 0)
WON_GREEN: RGB = (0, 255, 0)

TRACK_NAMES = tuple(f"track{space}" for space in range(1, LAST_SPACE + 1))
PIXELS: tuple[str, ...] = tuple(PLANETS) + TRACK_NAMES  # the board: every map has them
PIXEL_COUNT = len(PIXELS)  # 24
TRACK_OFFSET = len(PLANETS)  # index of track1
TURN = "turn"
OPTIONAL_PIXELS: tuple[str, ...] = (TURN,)  # a map may wire them; frames always carry them
FRAME_PIXELS = PIXELS + OPTIONAL_PIXELS
FRAME_LENGTH = len(FRAME_PIXELS)  # 25
TURN_INDEX = FRAME_PIXELS.index(TURN)
_PLANET_INDEX = {planet: i for i, planet in enumerate(PLANETS)}

OFF_FRAME: Frame = (OFF,) * FRAME_LENGTH

RESULTS = (None, "won", "lost")


def _detection_colour(space: int) -> RGB:
    """Green at space 1 to red at space 12 through yellow.

    Red rises to full over the first half while green is full, then green falls:
    every step changes one channel by a non-zero amount, so all 12 colours differ
    and the hue falls strictly (the tests check both).
    """
    t = (space - 1) / (LAST_SPACE - 1)
    return (round(255 * min(1.0, 2 * t)), round(255 * min(1.0, 2 * (1 - t))), 0)


# DETECTION_COLOURS[space - 1] is the colour of a lit track space.
DETECTION_COLOURS: tuple[RGB, ...] = tuple(
    _detection_colour(space) for space in range(1, LAST_SPACE + 1)
)


def _rainbow(i: int, phase: int) -> RGB:
    """Hue for planet pixel ``i`` of the win show; advancing phase rotates it."""
    hue = ((i + phase) % len(PLANETS)) / len(PLANETS)
    r, g, b = colorsys.hsv_to_rgb(hue, 1.0, 1.0)
    return (round(255 * r), round(255 * g), round(255 * b))


def _planets(value: Iterable[str] | None, key: str) -> set[str]:
    """The planets named under ``key``; an unknown name is a caller bug, so raise."""
    planets = set(value or ())
    unknown = planets - _PLANET_INDEX.keys()
    if unknown:
        raise ValueError(f"unknown planet(s) in {key!r}: {sorted(unknown)}")
    return planets


def _ship_planet(ships: Mapping[str, str | None], ship: str) -> str | None:
    planet = ships.get(ship)
    if planet is not None and planet not in _PLANET_INDEX:
        raise ValueError(f"unknown planet for {ship}: {planet!r}")
    return planet


def _validated_detection(detection: object) -> int | None:
    if detection is None:
        return None
    # bool is an int subclass; True as "space 1" would only ever be a bug.
    if isinstance(detection, bool) or not isinstance(detection, int):
        raise ValueError(f"detection must be an int 1..{LAST_SPACE} or None: {detection!r}")
    if not 1 <= detection <= LAST_SPACE:
        raise ValueError(f"detection must be 1..{LAST_SPACE} or None: {detection!r}")
    return detection


def _planet_colours(model: Mapping, phase: int) -> list[RGB]:
    ships = model.get("ships") or {}
    mercurial = _ship_planet(ships, MERCURIAL)
    rubicon = _ship_planet(ships, RUBICON)
    components = _planets(model.get("components"), "components")
    highlight = _planets(model.get("highlight"), "highlight")
    targets = _planets(model.get("targets"), "targets")

    colours = []
    for planet in PLANETS:
        # Precedence, lowest first: component < ship < highlight. A ship hides the
        # component under it (the rule asks for "no ship there"); a highlight is a
        # transient instruction from the current screen, so it wins while it lasts.
        colour = OFF
        if planet in components:
            colour = COMPONENT_DIM
        if planet == mercurial and planet == rubicon:
            colour = BOTH_VIOLET
        elif planet == mercurial:
            colour = MERCURIAL_BLUE
        elif planet == rubicon:
            colour = RUBICON_RED
        if planet in highlight:
            colour = HIGHLIGHT_WARM
        # Targets alternate with what the planet shows anyway, so a player can still
        # see which ship or component sits on a planet they are choosing.
        if planet in targets and phase % 2 == 0:
            colour = TARGET_AMBER
        colours.append(colour)
    return colours


def _track_colours(detection: int | None, result: str | None, phase: int) -> list[RGB]:
    if result == "won":
        return [WON_GREEN] * LAST_SPACE
    if result == "lost":
        x = LOST_RED if phase % 2 == 0 else OFF
        return [LOST_RED] * (LAST_SPACE - 1) + [x]
    lit = detection or 0
    return [DETECTION_COLOURS[i] if i < lit else OFF for i in range(LAST_SPACE)]


def entanglion_frame(model: Mapping, phase: int = 0) -> Frame:
    """The 24 logical pixel colours for ``model`` at blink ``phase``.

    Raises ``ValueError`` for an unknown planet, a detection outside 1..12 or an
    unknown result: a wrong model is a bug upstream and should show in tests.
    """
    result = model.get("result")
    if result not in RESULTS:
        raise ValueError(f"result must be one of {RESULTS}: {result!r}")
    detection = _validated_detection(model.get("detection"))

    planets = _planet_colours(model, phase)  # validates planets even when won
    if result == "won":
        planets = [_rainbow(i, phase) for i in range(len(PLANETS))]
    turn = model.get("turn")
    if turn not in (None, MERCURIAL, RUBICON):
        raise ValueError(f"turn must be mercurial, rubicon or None: {turn!r}")
    turn_colour = {MERCURIAL: MERCURIAL_BLUE, RUBICON: RUBICON_RED}.get(turn, OFF)
    return tuple(planets + _track_colours(detection, result, phase) + [turn_colour])


def blinking(model: Mapping) -> bool:
    """Whether :func:`frame` depends on ``phase`` for this model (any game).

    The shell runs a blink timer only while this is true, so a box waiting on a
    player does not redraw at all.
    """
    return bool(model.get("targets")) or model.get("result") in ("won", "lost")


# ------------------------------------------------------------------ QNO

# Card colours of the four basis states (as the original and its GUI colour them).
QNO_STATE_COLOURS: dict[str, RGB] = {
    "00": (255, 0, 0), "01": (255, 190, 0), "10": (0, 200, 0), "11": (0, 60, 255),
}
SEAT_DIM: RGB = (20, 20, 20)
QNO_SEATS = 6


def qno_frame(model: Mapping, phase: int = 0) -> Frame:
    """QNO on the same chain: the twelve track pixels glow in the effective top
    state's colour; planet pixels 0..n-1 are the seats, the player to move lit in
    that colour and the others dim. A win rotates a rainbow over the seats."""
    state = model.get("state")
    if state is not None and state not in QNO_STATE_COLOURS:
        raise ValueError(f"unknown QNO state {state!r}")
    players = model.get("players", 0)
    if not 0 <= players <= QNO_SEATS:
        raise ValueError(f"QNO seats are 0..{QNO_SEATS}: {players!r}")
    colour = QNO_STATE_COLOURS[state] if state else OFF
    seat = model.get("seat")
    won = model.get("result") == "won"
    seats = []
    for i in range(len(PLANETS)):
        if i >= players:
            seats.append(OFF)
        elif won:
            seats.append(_rainbow(i, phase))
        else:
            seats.append(colour if seat == i + 1 else SEAT_DIM)
    return tuple(seats + [colour] * LAST_SPACE + [colour if seat else OFF])


# ------------------------------------------------------------------ QLANET

# The app's colour code: camp 0 pink, camp 1 blue; a known state
# is a medium shade, a 50/50 state a pale one, a fixed planet full brightness.
QLANET_COLOURS: dict[str, RGB] = {
    "F0": (255, 0, 90), "0": (140, 0, 50), "+": (90, 40, 60),
    "-": (40, 55, 100), "1": (0, 40, 150), "F1": (0, 70, 255),
    "?": (24, 24, 24),  # dim white: nobody here knows it
}
QLANET_ENTANGLED: RGB = (90, 0, 160)  # violet: a pair known to be entangled ("~6")
QLANET_CAMPS: tuple[RGB, RGB] = (QLANET_COLOURS["F0"], QLANET_COLOURS["F1"])
QLANET_PLANETS = 9
QLANET_SEAT_OFFSET = 9  # pixels 9 and 10: camp 0's and camp 1's seat


def _qlanet_colour(shown: str) -> RGB:
    if shown.startswith("~"):
        return QLANET_ENTANGLED
    if shown not in QLANET_COLOURS:
        raise ValueError(f"unknown QLANET planet state {shown!r}")
    return QLANET_COLOURS[shown]


def qlanet_frame(model: Mapping, phase: int = 0) -> Frame:
    """QLANET on the same chain. Pixels 0-8 are planets 1-9 in the colours of the
    board the model carries (the public one in play, the truth once the game is
    over); choice targets blink amber. Pixels 9 and 10 are the camps' seats: the camp
    to play lit in its colour, the other dim; pixel 11 is off. The twelve track
    pixels glow in the colour of the camp to play. A win blinks the winning line (if
    any) and lights the track in the winners' colours (both: half each)."""
    planets = list(model.get("planets") or ["?"] * QLANET_PLANETS)
    if len(planets) != QLANET_PLANETS:
        raise ValueError(f"QLANET has {QLANET_PLANETS} planets: {planets!r}")
    targets = {int(t) for t in model.get("targets") or ()}
    highlight = {int(t) for t in model.get("highlight") or ()}
    won = model.get("result") == "won"
    line = set(model.get("line") or ()) if won else set()
    colours = []
    for number, shown in enumerate(planets, 1):
        colour = _qlanet_colour(shown)
        if number in highlight:
            colour = HIGHLIGHT_WARM
        if number in targets and phase % 2 == 0:
            colour = TARGET_AMBER
        if number in line and phase % 2 == 1:
            colour = OFF
        colours.append(colour)
    turn = model.get("turn")
    seats = [QLANET_CAMPS[c] if turn == c else SEAT_DIM for c in (0, 1)] + [OFF]
    if won:
        winners = list(model.get("winners") or [])
        half = LAST_SPACE // 2
        track = [QLANET_CAMPS[winners[0] if len(winners) == 1 else i // half]
                 for i in range(LAST_SPACE)] if winners else [OFF] * LAST_SPACE
    else:
        track = [QLANET_CAMPS[turn] if turn in (0, 1) else OFF] * LAST_SPACE
    return tuple(colours + seats + track + [QLANET_CAMPS[turn] if turn in (0, 1) and not won
                                            else OFF])


def frame(model: Mapping, phase: int = 0) -> Frame:
    """The logical frame for any game's LED model (its ``game`` key picks the layout)."""
    if model.get("game") == "qno":
        return qno_frame(model, phase)
    if model.get("game") == "qlanet":
        return qlanet_frame(model, phase)
    return entanglion_frame(model, phase)
