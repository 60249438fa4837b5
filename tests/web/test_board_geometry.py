"""The board can be read: from the SVG's own geometry, no text lies on a planet or a
ship marker other than its own, no two texts overlap, and every edge label is nearer
its own line than any other (so it cannot be read as another path's). Checked in
every position of the ships and in every language the box speaks."""

from __future__ import annotations

import math
import unicodedata
import xml.etree.ElementTree as ET

import pytest

from companion import i18n
from companion.games.entanglion import board
from companion.games.entanglion.cards import COMPONENTS
from companion.web import svg

NS = "{http://www.w3.org/2000/svg}"


@pytest.fixture(autouse=True)
def _english_after():
    yield
    i18n.set_language("en")


def width(text: str, size: float) -> float:
    # Generous on purpose: DejaVu Sans (Debian's default) averages about 0.55 em.
    return sum(size if unicodedata.east_asian_width(c) in "WF" else 0.6 * size for c in text)


def text_box(e: ET.Element) -> tuple[float, float, float, float]:
    x, y, size = float(e.get("x")), float(e.get("y")), float(e.get("font-size"))
    w = width(e.text or "", size)
    left = {"start": x, "middle": x - w / 2, "end": x - w}[e.get("text-anchor", "start")]
    return (left, y - 0.8 * size, left + w, y + 0.2 * size)


def shape_box(e: ET.Element) -> tuple[float, float, float, float]:
    if e.tag == NS + "circle":
        x, y, r = (float(e.get(k)) for k in ("cx", "cy", "r"))
        return (x - r, y - r, x + r, y + r)
    x, y = float(e.get("x")), float(e.get("y"))
    return (x, y, x + float(e.get("width")), y + float(e.get("height")))


def overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def seg_dist(px, py, x1, y1, x2, y2) -> float:
    dx, dy = x2 - x1, y2 - y1
    t = max(0.0, min(1.0, ((px - x1) * dx + (py - y1) * dy) / (dx * dx + dy * dy)))
    return math.hypot(px - x1 - t * dx, py - y1 - t * dy)


def crosses(seg, box) -> bool:
    x1, y1, x2, y2 = seg
    n = 200
    return any(box[0] < x1 + (x2 - x1) * i / n < box[2] and box[1] < y1 + (y2 - y1) * i / n
               < box[3] for i in range(n + 1))


def drawing(snap):
    root = ET.fromstring(svg.entanglion_board(snap))
    texts, shapes, lines = [], [], []  # (owner planet or None, element)
    for group in root.iter():
        owner = group.get("data-planet")
        for child in group:
            if child.tag == NS + "text":
                texts.append((owner, child))
            elif child.tag in (NS + "circle", NS + "rect") and owner:
                shapes.append((owner, child))
            elif child.tag == NS + "line" and child.get("data-path"):
                lines.append(child)
    return root, texts, shapes, lines


def check(snap) -> None:
    root, texts, shapes, lines = drawing(snap)
    view = [float(v) for v in root.get("viewBox").split()]
    boxes = [(owner, e, text_box(e)) for owner, e in texts]
    for owner, e, b in boxes:
        assert view[0] <= b[0] and b[2] <= view[2] and b[3] <= view[3], e.text
        for where, s in shapes:
            if where != owner:
                assert not overlap(b, shape_box(s)), f"{e.text!r} lies on {where}"
    for i, (_, e, b) in enumerate(boxes):
        for _, f, c in boxes[i + 1:]:
            assert not overlap(b, c), f"{e.text!r} and {f.text!r} overlap"
    segs = {}
    for line in lines:
        segs.setdefault(line.get("data-path"), []).append(
            tuple(float(line.get(k)) for k in ("x1", "y1", "x2", "y2")))
    labels = [(e, b) for _, e, b in boxes if e.get("class") == "edge"]
    assert {e.get("data-for") for e, _ in labels} == set(segs)  # every line is labelled
    for e, b in labels:
        cx, cy = (b[0] + b[2]) / 2, (b[1] + b[3]) / 2
        own = min(seg_dist(cx, cy, *s) for s in segs[e.get("data-for")])
        for pid, ss in segs.items():
            if pid == e.get("data-for"):
                continue
            for s in ss:
                assert not crosses(s, b), f"line {pid} runs through {e.get('data-for')}'s label"
                assert seg_dist(cx, cy, *s) > own + 3, \
                    f"{e.get('data-for')}'s label {e.text!r} is as near {pid}"


def positions():
    return [dict(zip(board.SHIPS, pos)) for pos in board.POSITIONS]


@pytest.mark.parametrize("code", i18n.LANGUAGES)
def test_no_label_lies_on_a_planet_or_between_two_lines(code):
    i18n.set_language(code)
    components = dict(zip(board.RING, COMPONENTS))
    for ships in positions():
        check({"ships": ships, "components": {"planets": components},
               "detection": {"space": 5}})


def test_the_known_misreadings_are_gone():
    """The CNOT ways into Entanglion are written on their Bell planets (no label out
    on a line crossing the ring), and ZERO-ONE has its printed CNOT."""
    root, texts, _, lines = drawing({"ships": {}, "components": {}, "detection": {}})
    on = {owner: [e.text for o, e in texts if o == owner] for owner in board.PLANETS}
    for (centre, sup), bell in board.CNOT_ENTRY.items():
        assert f"CNOT {svg.LABEL[centre]}{svg.LABEL[sup]}" in on[bell]
    assert any(line.get("data-path") == "C2" for line in lines)
    assert any(e.get("data-for") == "C2" and e.text == "CNOT" for _, e in texts)


def test_components_are_named_on_their_planets_and_ships_lettered():
    from companion.games.entanglion.ui import part

    snap = {"ships": {"mercurial": "PSI_PLUS", "rubicon": "PSI_PLUS"},
            "components": {"planets": {"PSI_PLUS": "qubit_interconnect"}}, "detection": {}}
    _, texts, _, _ = drawing(snap)
    on = [e.text for owner, e in texts if owner == "PSI_PLUS"]
    assert part("qubit_interconnect") in "".join(on).replace("-", "")  # maybe broken
    assert "M" in on and "R" in on
    words = " ".join(e.text for _, e in texts)
    assert "Mercurial" in words and "Rubicon" in words  # the legend


def test_every_text_is_at_least_the_smallest_size():
    root, texts, _, _ = drawing({"ships": {}, "components": {}, "detection": {}})
    assert min(float(e.get("font-size")) for _, e in texts) >= svg.SMALLEST
    # 12 CSS px on a 390 px phone, the board drawn 366 px wide (margins of 12 px)
    assert svg.SMALLEST * 366 / svg.WIDTH >= 12
