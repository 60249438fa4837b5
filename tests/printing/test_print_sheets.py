"""Print-and-play sheets: files, page sizes, the layout, the registry template, the art.

Rendering 112 cards at 300 dpi takes a few seconds, so each game is generated once per
module (QNO on A4, QLANET with its tokens on Letter) and the tests read the files.
"""

from __future__ import annotations

import contextlib
import io
import itertools
import json
import math
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from PIL import Image, ImageChops, PdfParser

from companion import printing
from companion.games.qno import cards as qno_cards
from companion.printing import qlanet, qno, sheet
from companion.printing.sheet import CARD_H, CARD_W, PAPERS, Card, mm

ROOT = Path(__file__).resolve().parents[2]


def run(argv: list[str]) -> tuple[int, list[str]]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = printing.main(argv)
    return status, out.getvalue().splitlines()


@pytest.fixture(scope="module")
def qno_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("qno")
    status, lines = run(["qno", "--out", str(out), "--paper", "a4", "--format", "both"])
    assert status == 0
    return out, lines


@pytest.fixture(scope="module")
def qlanet_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("qlanet") / "new" / "folder"  # made if missing
    status, lines = run(["qlanet", "--out", str(out), "--paper", "letter", "--format", "both",
                         "--tokens"])
    assert status == 0
    return out, lines


def pngs(out: Path, stem: str) -> list[Path]:
    return sorted(out.glob(f"{stem}-p*.png"))


def occupied_slots(page: Image.Image, paper: sheet.Paper) -> int:
    """How many of the page's nine card boxes hold a drawn card."""
    white = Image.new("RGB", (CARD_W, CARD_H), sheet.WHITE)
    return sum(ImageChops.difference(page.crop(box), white).getbbox() is not None
               for box in sheet.layout(paper))


# ---------------------------------------------------------------- files and pages


@pytest.mark.parametrize(("game", "paper", "n_cards", "n_pages"),
                         [("qno", "a4", 112, 13), ("qlanet", "letter", 57, 7)])
def test_every_card_is_drawn_once_on_the_right_pages(game, paper, n_cards, n_pages, request):
    out, lines = request.getfixturevalue(f"{game}_run")
    files = pngs(out, f"{game}-{paper}")
    assert [f.name for f in files] == [f"{game}-{paper}-p{p:02d}.png" for p in range(1, n_pages + 1)]
    assert n_pages == math.ceil(n_cards / 9)
    drawn = 0
    for path in files:
        with Image.open(path) as page:
            assert page.size == PAPERS[paper].size
            assert page.mode == "RGB"
            assert page.info["dpi"] == pytest.approx((300, 300), abs=0.01)
            drawn += occupied_slots(page.convert("RGB"), PAPERS[paper])
    assert drawn == n_cards
    other = "letter" if paper == "a4" else "a4"
    assert not list(out.glob(f"{game}-{other}*")), "only the paper asked for"
    written = {line.split(":")[0].removeprefix("wrote ") for line in lines}
    assert written == {str(p) for p in out.iterdir()}, "one summary line per file written"
    assert len(lines) == n_pages + 2


def test_paper_sizes_are_300_dpi():
    assert PAPERS["a4"].size == (2480, 3508)
    assert PAPERS["letter"].size == (2550, 3300)
    assert (CARD_W, CARD_H) == (mm(63), mm(88)) == (744, 1039)


@pytest.mark.parametrize(("game", "paper", "n_pages", "points"),
                         [("qno", "a4", 13, (595.2, 841.92)), ("qlanet", "letter", 7, (612, 792))])
def test_pdf_has_every_page_losslessly(game, paper, n_pages, points, request):
    out, _ = request.getfixturevalue(f"{game}_run")
    path = out / f"{game}-{paper}.pdf"
    data = path.read_bytes()
    assert data.startswith(b"%PDF-1.4\n") and data.rstrip().endswith(b"%%EOF")
    assert len(re.findall(rb"/Type /Page\b(?!s)", data)) == n_pages
    assert sheet.pdf_page_count(data) == n_pages
    pdf = PdfParser.PdfParser(str(path))  # Pillow's own reader follows the xref table
    try:
        assert len(pdf.pages) == n_pages
        first = pdf.read_indirect(pdf.pages[0])
        assert [float(v) for v in first[b"MediaBox"]] == pytest.approx([0, 0, *points], abs=0.01)
    finally:
        pdf.close()
    for png in (pngs(out, f"{game}-{paper}")[0], pngs(out, f"{game}-{paper}")[-1]):
        *_, idat = sheet._png_parts(png.read_bytes())
        assert idat in data, f"{png.name}'s pixels are embedded as they are"


def test_both_papers_and_pdf_by_default(tmp_path, monkeypatch):
    small = sheet.Deck("qno", qno.cards()[-3:], qno.face)  # three gates: one page
    monkeypatch.setattr(printing, "make_deck", lambda game, tokens=False: small)
    status, lines = run(["qno", "--out", str(tmp_path)])
    assert status == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "qno-a4.pdf", "qno-letter.pdf", "qno-registry-template.json"]
    assert len(lines) == 3
    assert sheet.pdf_page_count((tmp_path / "qno-letter.pdf").read_bytes()) == 1


# ---------------------------------------------------------------- layout


@pytest.mark.parametrize("paper", PAPERS.values(), ids=PAPERS.keys())
def test_cards_fit_the_printable_area_without_overlap(paper):
    left, top, right, bottom = sheet.printable(paper)
    assert left >= mm(5) and top >= mm(5)
    assert (paper.size[0] - right, paper.size[1] - bottom) == (left, top)
    boxes = sheet.layout(paper)
    assert len(boxes) == 9
    for x0, y0, x1, y1 in boxes:
        assert (x1 - x0, y1 - y0) == (CARD_W, CARD_H)
        assert left <= x0 and x1 <= right and top <= y0 and y1 <= bottom
    for a, b in itertools.combinations(boxes, 2):
        assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (a, b)
    # row by row from the top left
    assert boxes == sorted(boxes, key=lambda b: (b[1], b[0]))


@pytest.mark.parametrize("paper", PAPERS.values(), ids=PAPERS.keys())
def test_cut_marks_are_printable_and_off_the_cards(paper):
    left, top, right, bottom = sheet.printable(paper)
    half = sheet.CUT_MARK_WIDTH // 2 + 1  # the line's width, also round its ends
    boxes = sheet.layout(paper)
    marks = sheet.cut_marks(paper)
    assert len(marks) == 2 * (3 + 1) * 2  # both ends of the 4 vertical and 4 horizontal cuts
    for (ax, ay), (bx, by) in marks:
        assert ax == bx or ay == by
        assert max(abs(bx - ax), abs(by - ay)) >= mm(2), "long enough to see"
        x0, x1 = min(ax, bx) - half, max(ax, bx) + half
        y0, y1 = min(ay, by) - half, max(ay, by) + half
        assert left <= x0 and x1 < right and top <= y0 and y1 < bottom
        for cx0, cy0, cx1, cy1 in boxes:
            assert x1 < cx0 or x0 >= cx1 or y1 < cy0 or y0 >= cy1, "off every card"
    grid_x = {b[0] for b in boxes} | {boxes[-1][2] - 1}
    assert {ax for (ax, ay), (bx, by) in marks if ax == bx} == grid_x, "every cut line"


def test_pages_hold_nine_and_tokens_start_a_page():
    assert [len(c) for c in sheet.chunks(112)] == [9] * 12 + [4]
    assert [len(c) for c in qlanet.make_deck().chunks()] == [9, 9, 9, 9, 9, 3]
    with_tokens = qlanet.make_deck(tokens=True)
    assert [len(c) for c in with_tokens.chunks()] == [9, 9, 9, 9, 9, 3, 9]
    assert [with_tokens.cards[i].name for i in with_tokens.chunks()[-1]] == list("123456789")


# ---------------------------------------------------------------- registry template


def test_qno_template_lists_each_copy_in_print_order(qno_run):
    out, _ = qno_run
    data = json.loads((out / "qno-registry-template.json").read_text(encoding="utf-8"))
    assert data["game"] == "qno"
    entries = data["cards"]
    assert len(entries) == 112
    assert [e["n"] for e in entries] == list(range(1, 113))
    assert [e["name"] for e in entries] == qno_cards.full_deck()
    assert Counter(e["name"] for e in entries) == Counter(qno_cards.COUNTS)
    for e in entries:
        state, _ = qno_cards.parse(e["name"])
        assert e["kind"] == ("gate" if state is None else "state")
        assert e["label"] == qno_cards.label(e["name"])
    assert entries[0] == {"n": 1, "kind": "state", "name": "00_0", "label": "|00> 0"}
    assert entries[-1]["kind"] == "gate"


def test_qlanet_template_has_the_cards_then_the_tokens(qlanet_run):
    out, _ = qlanet_run
    data = json.loads((out / "qlanet-registry-template.json").read_text(encoding="utf-8"))
    assert data["game"] == "qlanet"
    entries = data["cards"]
    assert [e["n"] for e in entries] == list(range(1, 58))
    gates = [e for e in entries if e["kind"] == "gate"]
    assert Counter(e["name"] for e in gates) == dict.fromkeys(  # the engine's deck mode
        ("X", "H", "Z", "M", "CX0", "CX1", "SW", "BM"), 6)
    assert entries[:len(gates)] == gates, "the cards come first"
    assert [(e["kind"], e["name"]) for e in entries[48:]] == [("planet", str(n)) for n in range(1, 10)]
    costs = {"X": 6, "H": 3, "Z": 2, "M": 10, "CX0": 3, "CX1": 3, "SW": 4, "BM": 8}
    assert qlanet.COST == costs
    assert all(str(costs[e["name"]]) in e["label"] for e in gates)
    assert len(qlanet.cards()) == 48


# ---------------------------------------------------------------- determinism


def test_two_runs_give_the_same_bytes(qno_run, tmp_path):
    out, _ = qno_run
    sheet.font.cache_clear()
    again = next(sheet.pages(qno.make_deck(), PAPERS["a4"]))
    assert sheet.encode_png(again) == (out / "qno-a4-p01.png").read_bytes()
    small = sheet.Deck("qlanet", qlanet.cards(tokens=True)[37:41], qlanet.face, qlanet.number_centre,
                       ("planet",))
    for folder in ("one", "two"):
        sheet.write(small, tmp_path / folder, ["a4"], ["pdf"], say=lambda line: None)
    for name in ("qlanet-a4.pdf", "qlanet-registry-template.json"):
        assert (tmp_path / "one" / name).read_bytes() == (tmp_path / "two" / name).read_bytes()


# ---------------------------------------------------------------- the art


def dominant_colour(image: Image.Image) -> tuple[int, int, int]:
    """The commonest colour that is not (near) white or grey."""
    counts = Counter()
    for count, (r, g, b) in image.getcolors(maxcolors=1 << 20):
        if max(r, g, b) - min(r, g, b) > 60:
            counts[(r, g, b)] += count
    return counts.most_common(1)[0][0]


@pytest.mark.parametrize(("state", "hue"), [
    ("00", lambda r, g, b: r > 170 and g < 90 and b < 90),   # red
    ("01", lambda r, g, b: r > 200 and g > 140 and b < 80),  # yellow
    ("10", lambda r, g, b: g > r + 50 and g > b + 40),       # green
    ("11", lambda r, g, b: b > r + 100 and b > g + 50),      # blue
])
def test_state_cards_take_their_state_colour(state, hue):
    assert hue(*dominant_colour(qno.face(Card("state", f"{state}_5", ""))))


NFC_RING = mm(25) / 2 - 2  # Pillow draws an arc's width inwards from its box


def ring_samples(image: Image.Image, centre: tuple[int, int], radius: float, n: int = 360):
    px = image.load()
    return [px[round(centre[0] + radius * math.cos(2 * math.pi * i / n)),
               round(centre[1] + radius * math.sin(2 * math.pi * i / n))] for i in range(n)]


def test_the_nfc_mark_is_a_dashed_25_mm_circle_on_the_printed_card(qno_run):
    out, _ = qno_run
    with Image.open(out / "qno-a4-p01.png") as page:
        first = page.convert("RGB").crop(sheet.layout(PAPERS["a4"])[0])  # card 1: |00> 0
    assert dominant_colour(first)[0] > 170
    on_ring = ring_samples(first, qno.NFC_CENTRE, NFC_RING)
    white = sum(p == sheet.WHITE for p in on_ring) / len(on_ring)
    assert 0.35 < white < 0.75, "dashes and gaps"
    for radius in (mm(25) / 2 - mm(1.5), mm(25) / 2 + mm(1.5)):
        assert all(p != sheet.WHITE for p in ring_samples(first, qno.NFC_CENTRE, radius))
    cx, cy = qno.NFC_CENTRE
    label = first.crop((cx - mm(4), cy - mm(2), cx + mm(4), cy + mm(2)))
    assert sheet.WHITE in {c for _, c in label.getcolors(1 << 16)}, "labelled NFC"


def test_gate_cards_say_gate_in_the_four_colours():
    face = qno.face(Card("gate", "CNOT", "CNOT"))
    colours = {c for _, c in face.getcolors(1 << 20)}
    assert set(qno.COLOURS.values()) <= colours
    assert qno.GATE_FACE in colours
    assert qno.face(Card("gate", "H", "H")).tobytes() != face.tobytes()


def test_action_cards_have_their_own_drawings():
    faces = {v: qno.face(Card("state", f"11_{v}", "")).tobytes() for v in qno_cards.ACTIONS}
    assert len(set(faces.values())) == 3


def test_qlanet_two_planet_cards_have_a_cut_corner():
    corner = (sheet.SAFE + mm(1.5), sheet.SAFE + mm(1.5))
    for name, (_, _, planets, _) in qlanet.CARDS.items():
        face = qlanet.face(Card("gate", name, name))
        assert (face.getpixel(corner) == sheet.WHITE) == (planets == 2), name
        assert face.getpixel((sheet.SAFE + mm(1.5), sheet.CARD_H // 2)) != sheet.WHITE


def test_qlanet_tokens_are_round_and_marked():
    token = qlanet.face(Card("planet", "7", "planet 7"))
    assert token.getpixel((sheet.SAFE, sheet.SAFE)) == sheet.WHITE  # cut off round
    rim = ring_samples(token, qlanet.TOKEN_CENTRE, qlanet.TOKEN_RADIUS - mm(3))
    assert {qlanet.PINK, qlanet.BLUE} <= set(rim), "the two camps round the rim"
    nfc = ring_samples(token, (qlanet.TOKEN_CENTRE[0], qlanet.TOKEN_CENTRE[1] + mm(3)), NFC_RING)
    assert 0.35 < sum(p == sheet.GREY for p in nfc) / len(nfc) < 0.75


def test_card_numbers_are_stamped_in_a_small_corner():
    face = qno.face(Card("state", "10_9", ""))
    one, two = sheet.stamp(face, "1/112"), sheet.stamp(face, "2/112")
    _, top, right, _ = ImageChops.difference(one, two).getbbox()
    assert right < CARD_W / 3 and top > CARD_H * 0.85


def test_without_a_scalable_font_the_bitmap_font_is_scaled(monkeypatch):
    monkeypatch.setattr(sheet, "font", lambda size: None)
    for card in (Card("state", "01_7", ""), Card("gate", "CNOT", "")):
        face = qno.face(card)
        ket = face.crop((qno.PANEL[0], qno.PANEL[1], qno.PANEL[2], qno.PANEL[1] + mm(16)))
        assert len(ket.getcolors(1 << 16)) > 1, "text was drawn"
    assert sheet.text_width("M", 100) > 3 * sheet.text_width("M", 20) > 0
    qlanet.face(Card("gate", "BM", "BM"))
    sheet.stamp(face, "17/112")


# ---------------------------------------------------------------- errors


def test_an_out_that_is_a_file_is_one_line_and_exit_2(tmp_path, capsys):
    afile = tmp_path / "afile"
    afile.write_text("x")
    for out in (afile, afile / "below"):
        assert printing.main(["qno", "--out", str(out)]) == 2
        captured = capsys.readouterr()
        assert captured.out == ""
        assert len(captured.err.splitlines()) == 1 and str(afile) in captured.err
    assert printing.main(["qno", "--out", str(tmp_path), "--tokens"]) == 2
    assert len(capsys.readouterr().err.splitlines()) == 1


def test_the_module_runs_as_a_command(tmp_path):
    afile = tmp_path / "afile"
    afile.write_text("x")
    done = subprocess.run([sys.executable, "-m", "companion.printing", "qlanet", "--out",
                           str(afile)], check=False, capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 2
    assert done.stdout == "" and len(done.stderr.splitlines()) == 1
    assert done.stderr.startswith("python -m companion.printing: error: ")


def test_qlanet_cards_agree_with_the_rules_engine():
    engine = pytest.importorskip("companion.games.qlanet.cards")
    assert set(qlanet.CARDS) == set(engine.CARDS)
    assert qlanet.COST == engine.COSTS
    assert {n for n, spec in qlanet.CARDS.items() if spec[2] == 2} == set(engine.TWO_PLANET)
