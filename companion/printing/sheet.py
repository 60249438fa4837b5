"""Print-and-play sheets: the page layout, drawing helpers and the files written.

Everything is drawn at 300 dpi with Pillow primitives and Pillow's own font
(``ImageFont.load_default(size=...)``, scalable since Pillow 10.1 when FreeType is
present). Without a scalable font the tiny built-in bitmap font is drawn and scaled
up, so output never depends on which fonts a system happens to have, and two runs
give the same bytes. Pillow's fonts hold ASCII only, so the words on a sheet in
another language (``said=True``: they come from the catalogs) are drawn in the box's
own bitmap font, scaled up, which has every letter of the box's languages; a card
then never mixes two typefaces in its sentences. Kets, names and numbers keep
Pillow's font in every language.

Cards are poker size (63 x 88 mm), nine to a page in a 3 x 3 grid that is centred on
the paper, so the margins are equal and at least :data:`MIN_MARGIN_MM` on A4 and US
Letter. The cards touch: one cut separates two neighbours. Short cut marks in the
margin continue every cut line, and a hairline outlines each card.

A game module supplies the cards (:class:`Card`) in print order and a ``face(card)``
function that draws one card; this module numbers them ("17/112"), lays them out,
and writes PDF/PNG pages and the registry template. Pages are made and written one
at a time (a 300 dpi A4 page is 35 MB in memory; the box may be a 512 MB Zero 2 W).
"""

from __future__ import annotations

import contextlib
import functools
import io
import json
import math
import os
import re
import struct
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import BinaryIO

from PIL import Image, ImageDraw, ImageFont

from ..frozen import frozen
from ..i18n import DEFAULT, language
from ..views import font as box_font

DPI = 300
MM_PER_INCH = 25.4


def mm(value: float) -> int:
    """Millimetres to pixels at :data:`DPI`."""
    return round(value * DPI / MM_PER_INCH)


CARD_MM = (63.0, 88.0)
CARD_W, CARD_H = mm(CARD_MM[0]), mm(CARD_MM[1])  # 744 x 1039
SAFE = mm(3)  # art stays this far inside the cut line
MIN_MARGIN_MM = 5.0
MIN_MARGIN = mm(MIN_MARGIN_MM)
COLS = ROWS = 3
PER_PAGE = COLS * ROWS
NFC_DIAMETER_MM = 25.0
CUT_MARK_WIDTH = 3  # px, a quarter millimetre

WHITE = (255, 255, 255)
INK = (35, 35, 40)
GREY = (120, 120, 128)
HAIRLINE = (190, 190, 196)

Box = tuple[int, int, int, int]  # x0, y0, x1, y1 with x1, y1 exclusive
Segment = tuple[tuple[int, int], tuple[int, int]]


@frozen
class Paper:
    key: str
    title: str
    size_mm: tuple[float, float]

    @property
    def size(self) -> tuple[int, int]:
        return mm(self.size_mm[0]), mm(self.size_mm[1])


PAPERS = {
    "a4": Paper("a4", "A4", (210.0, 297.0)),  # 2480 x 3508 px
    "letter": Paper("letter", "Letter", (215.9, 279.4)),  # 2550 x 3300 px
}


@frozen
class Card:
    """One printed card: ``kind`` and ``name`` are what the tag registry stores."""

    kind: str
    name: str
    label: str


# ---------------------------------------------------------------- layout (pure)


def grid_origin(paper: Paper) -> tuple[int, int]:
    width, height = paper.size
    return (width - COLS * CARD_W) // 2, (height - ROWS * CARD_H) // 2


def printable(paper: Paper) -> Box:
    """The area a common printer can print: the paper less :data:`MIN_MARGIN` all round."""
    width, height = paper.size
    return MIN_MARGIN, MIN_MARGIN, width - MIN_MARGIN, height - MIN_MARGIN


def layout(paper: Paper) -> list[Box]:
    """The nine card boxes of a page, row by row from the top left."""
    x0, y0 = grid_origin(paper)
    return [(x0 + c * CARD_W, y0 + r * CARD_H, x0 + (c + 1) * CARD_W, y0 + (r + 1) * CARD_H)
            for r in range(ROWS) for c in range(COLS)]


def cut_marks(paper: Paper) -> list[Segment]:
    """Cut marks: every cut line continued into the margin, short of the printable edge."""
    x0, y0 = grid_origin(paper)
    x1, y1 = x0 + COLS * CARD_W, y0 + ROWS * CARD_H
    width, height = paper.size
    gap = mm(0.4)
    edge = MIN_MARGIN + CUT_MARK_WIDTH // 2 + 1  # the line's width, past its ends at worst
    marks: list[Segment] = []
    top, bottom = min(mm(5), y0 - gap - edge), min(mm(5), height - y1 - gap - edge)
    left, right = min(mm(5), x0 - gap - edge), min(mm(5), width - x1 - gap - edge)
    for c in range(COLS + 1):
        x = x0 + c * CARD_W - (1 if c == COLS else 0)  # the last column's last pixel
        marks.append(((x, y0 - gap - top), (x, y0 - gap)))
        marks.append(((x, y1 - 1 + gap), (x, y1 - 1 + gap + bottom)))
    for r in range(ROWS + 1):
        y = y0 + r * CARD_H - (1 if r == ROWS else 0)
        marks.append(((x0 - gap - left, y), (x0 - gap, y)))
        marks.append(((x1 - 1 + gap, y), (x1 - 1 + gap + right, y)))
    return marks


def page_count(n_cards: int) -> int:
    return -(-n_cards // PER_PAGE)


# ---------------------------------------------------------------- text


@functools.cache
def font(size: int) -> ImageFont.FreeTypeFont | None:
    """Pillow's built-in scalable font at ``size`` px, or None where there is none."""
    try:
        face = ImageFont.load_default(size=size)
    except (TypeError, OSError, ImportError):  # Pillow < 10.1 or no FreeType
        return None
    return face if isinstance(face, ImageFont.FreeTypeFont) else None


@functools.cache
def _bitmap_mask(text: str) -> Image.Image:
    """``text`` in the built-in bitmap font as an "L" mask cropped to its ink."""
    bitmap = ImageFont.load_default(size=None) if _has_size_arg() else ImageFont.load_default()
    left, top, right, bottom = bitmap.getbbox(text)
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=bitmap, fill=255)
    return mask


@functools.lru_cache(maxsize=1)
def _has_size_arg() -> bool:
    try:
        ImageFont.load_default(size=None)
    except TypeError:
        return False
    return True


_BITMAP_CAP = 8  # cap height of the bitmap font, px


def _scaled_mask(text: str, size: int) -> Image.Image:
    mask = _bitmap_mask(text)
    k = max(1, round(size * 0.72 / _BITMAP_CAP))
    return mask.resize((mask.width * k, mask.height * k), Image.Resampling.NEAREST)


def _in_box_font(text: str, said: bool) -> bool:
    """Whether ``text`` is drawn in the box's font: translated words (``said``) on a
    sheet that is not in English, and anything beyond Pillow's ASCII."""
    return not text.isascii() or (said and language() != DEFAULT)


@functools.lru_cache(maxsize=256)
def _box_font_mask(text: str, size: int) -> Image.Image:
    """``text`` in the box's bitmap font as a mode "1" mask, its cap height about
    that of Pillow's font at ``size`` (whole pixels scaled up, so it stays crisp)."""
    k = max(1, round(size * 0.72 / box_font.GLYPH_H))
    mask = Image.new("1", (max(1, box_font.text_width(text, k)), box_font.CELL_H * k), 0)
    box_font.draw_text(mask, (0, 0), text, 1, k)
    return mask


def text_width(text: str, size: int, said: bool = False) -> float:
    if _in_box_font(text, said):
        return _box_font_mask(text, size).width
    face = font(size)
    if face is not None:
        return face.getlength(text)
    return _scaled_mask(text, size).width


def fit_size(text: str, size: int, width: float, minimum: int = 12, said: bool = False) -> int:
    """The largest size up to ``size`` at which ``text`` is at most ``width`` px wide."""
    while size > minimum and text_width(text, size, said) > width:
        size -= 1
    return size


def text(image: Image.Image, xy: tuple[float, float], words: str, size: int,
         fill: tuple[int, int, int] = INK, anchor: str = "mm", stroke: int = 0,
         stroke_fill: tuple[int, int, int] | None = None, said: bool = False) -> None:
    """Draw ``words`` with its ``anchor`` (Pillow's two-letter codes) at ``xy``;
    ``said``: the words come from the catalogs (see the module's notes on fonts)."""
    face = font(size)
    box = _in_box_font(words, said)
    if face is not None and not box:
        ImageDraw.Draw(image).text(xy, words, font=face, fill=fill, anchor=anchor,
                                   stroke_width=stroke, stroke_fill=stroke_fill)
        return
    # Fallback: a scaled bitmap, anchored on its box.
    mask = _box_font_mask(words, size) if box else _scaled_mask(words, size)
    w, h = mask.size
    h_anchor, v_anchor = anchor[0], anchor[1]
    x = xy[0] - {"l": 0, "m": w / 2, "r": w}.get(h_anchor, w / 2)
    y = xy[1] - {"a": 0, "t": 0, "m": h / 2, "s": h, "b": h, "d": h}.get(v_anchor, h / 2)
    if stroke and stroke_fill is not None:
        for dx, dy in ((-stroke, 0), (stroke, 0), (0, -stroke), (0, stroke)):
            image.paste(stroke_fill, (round(x + dx), round(y + dy)), mask)
    image.paste(fill, (round(x), round(y)), mask)


# ---------------------------------------------------------------- shapes


def dashed_circle(draw: ImageDraw.ImageDraw, centre: tuple[float, float], radius: float,
                  fill: tuple[int, int, int], width: int = 4, dashes: int = 24) -> None:
    cx, cy = centre
    box = (cx - radius, cy - radius, cx + radius, cy + radius)
    step = 360 / dashes
    for i in range(dashes):
        draw.arc(box, i * step, i * step + step * 0.55, fill=fill, width=width)


def nfc_mark(image: Image.Image, centre: tuple[float, float],
             colour: tuple[int, int, int] = GREY) -> None:
    """Where the NFC sticker goes: a dashed circle 25 mm across, labelled "NFC"."""
    draw = ImageDraw.Draw(image)
    dashed_circle(draw, centre, mm(NFC_DIAMETER_MM) / 2, colour, width=mm(0.35))
    text(image, centre, "NFC", mm(3), fill=colour)


def arrow_head(draw: ImageDraw.ImageDraw, tip: tuple[float, float], angle: float,
               size: float, fill: tuple[int, int, int]) -> None:
    """A filled triangle pointing along ``angle`` (radians, image coordinates) at ``tip``."""
    x, y = tip
    back, spread = size, size * 0.6
    bx, by = x - back * math.cos(angle), y - back * math.sin(angle)
    px, py = -math.sin(angle) * spread, math.cos(angle) * spread
    draw.polygon([(x, y), (bx + px, by + py), (bx - px, by - py)], fill=fill)


def arrow(draw: ImageDraw.ImageDraw, start: tuple[float, float], end: tuple[float, float],
          fill: tuple[int, int, int], width: int, head: float, both: bool = False) -> None:
    angle = math.atan2(end[1] - start[1], end[0] - start[0])
    inset = head * 0.8
    sx = start[0] + (math.cos(angle) * inset if both else 0)
    sy = start[1] + (math.sin(angle) * inset if both else 0)
    draw.line([(sx, sy), (end[0] - math.cos(angle) * inset, end[1] - math.sin(angle) * inset)],
              fill=fill, width=width)
    arrow_head(draw, end, angle, head, fill)
    if both:
        arrow_head(draw, start, angle + math.pi, head, fill)


def oplus(draw: ImageDraw.ImageDraw, centre: tuple[float, float], radius: float,
          colour: tuple[int, int, int], width: int, fill: tuple[int, int, int] = WHITE) -> None:
    """The CNOT target: a circle with a cross."""
    cx, cy = centre
    draw.ellipse((cx - radius, cy - radius, cx + radius, cy + radius), fill=fill,
                 outline=colour, width=width)
    draw.line([(cx - radius, cy), (cx + radius, cy)], fill=colour, width=width)
    draw.line([(cx, cy - radius), (cx, cy + radius)], fill=colour, width=width)


def blank_card() -> Image.Image:
    return Image.new("RGB", (CARD_W, CARD_H), WHITE)


def with_corners(image: Image.Image, corner: Callable[[Image.Image], None]) -> Image.Image:
    """Draw ``corner`` top left, and the same turned upside down bottom right."""
    corner(image)
    image = image.transpose(Image.Transpose.ROTATE_180)
    corner(image)
    return image.transpose(Image.Transpose.ROTATE_180)


# ---------------------------------------------------------------- pages


def stamp(face: Image.Image, number: str, centre: tuple[int, int] | None = None) -> Image.Image:
    """A copy of ``face`` with its card number in a small white pill and its hairline outline."""
    card = face.copy()
    draw = ImageDraw.Draw(card)
    size = mm(2.6)
    cx, cy = centre if centre is not None else (SAFE + mm(9), CARD_H - SAFE - mm(4.5))
    half = text_width(number, size) / 2 + mm(1.2)
    draw.rounded_rectangle((cx - half, cy - mm(1.9), cx + half, cy + mm(1.9)), radius=mm(1.9),
                           fill=WHITE, outline=GREY, width=2)
    text(card, (cx, cy), number, size, fill=INK)
    draw.rectangle((0, 0, CARD_W - 1, CARD_H - 1), outline=HAIRLINE, width=1)
    return card


@frozen
class Deck:
    """What a game gives the sheet writer: its cards in print order and how to draw one."""

    game: str
    cards: list[Card]
    face: Callable[[Card], Image.Image]
    number_centre: Callable[[Card], tuple[int, int] | None] = lambda card: None
    new_page_kinds: tuple[str, ...] = ()  # a run of cards of such a kind starts a page

    def breaks(self) -> list[int]:
        """Indices of the cards that must start a new page."""
        return [i for i, card in enumerate(self.cards) if i and card.kind in self.new_page_kinds
                and self.cards[i - 1].kind != card.kind]

    def chunks(self) -> list[list[int]]:
        return chunks(len(self.cards), self.breaks())


def chunks(n_cards: int, breaks: Sequence[int] = ()) -> list[list[int]]:
    """Card indices per page: nine a page, and a new page at every index in ``breaks``."""
    pages: list[list[int]] = []
    for i in range(n_cards):
        if not pages or i in breaks or len(pages[-1]) == PER_PAGE:
            pages.append([])
        pages[-1].append(i)
    return pages


def card_image(deck: Deck, index: int, faces: dict[tuple[str, str], Image.Image]) -> Image.Image:
    """Card ``index`` of the deck, numbered. ``faces`` caches the last few faces drawn (the
    copies of a card are printed together), so memory stays small even on a Zero 2 W."""
    card = deck.cards[index]
    key = (card.kind, card.name)
    face = faces.get(key)
    if face is None:
        if len(faces) >= 4:
            faces.pop(next(iter(faces)))
        face = faces[key] = deck.face(card)
    return stamp(face, f"{index + 1}/{len(deck.cards)}", deck.number_centre(card))


def pages(deck: Deck, paper: Paper) -> Iterator[Image.Image]:
    """The deck's pages on ``paper``, one at a time, with cut marks."""
    boxes = layout(paper)
    faces: dict[tuple[str, str], Image.Image] = {}
    for chunk in deck.chunks():
        page = Image.new("RGB", paper.size, WHITE)
        for i, box in zip(chunk, boxes):
            page.paste(card_image(deck, i, faces), box[:2])
        draw = ImageDraw.Draw(page)
        for start, end in cut_marks(paper):
            draw.line([start, end], fill=(0, 0, 0), width=CUT_MARK_WIDTH)
        yield page


def encode_png(page: Image.Image) -> bytes:
    buffer = io.BytesIO()
    page.save(buffer, "PNG", dpi=(DPI, DPI), compress_level=6)
    return buffer.getvalue()


class PdfWriter:
    """A minimal PDF of full-page images, written a page at a time.

    Each page embeds the page's PNG data as is: PNG's IDAT stream is a zlib stream with
    per-row predictors, which PDF reads with ``/FlateDecode`` and ``/Predictor 15``. So
    pages stay lossless and about as small as the PNGs, only one page is ever in memory
    (Pillow's PDF writer keeps every page and stores RGB as JPEG), and the bytes are the
    same on every run (no dates).
    """

    def __init__(self, fh: BinaryIO, title: str) -> None:
        self.fh = fh
        self.title = title
        self.offsets: dict[int, int] = {}
        self.kids: list[int] = []
        self.next_id = 3  # 1: catalog, 2: the page tree, written last
        fh.write(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")

    def _new_id(self) -> int:
        self.next_id += 1
        return self.next_id - 1

    def _object(self, number: int, body: bytes, stream: bytes | None = None) -> None:
        self.offsets[number] = self.fh.tell()
        self.fh.write(b"%d 0 obj\n" % number + body)
        if stream is not None:
            self.fh.write(b"\nstream\n" + stream + b"\nendstream")
        self.fh.write(b"\nendobj\n")

    def add_png(self, png: bytes, dpi: float = DPI) -> None:
        width, height, colours, idat = _png_parts(png)
        image_id, content_id, page_id = self._new_id(), self._new_id(), self._new_id()
        space = b"/DeviceRGB" if colours == 3 else b"/DeviceGray"
        self._object(image_id, b"<< /Type /XObject /Subtype /Image /Width %d /Height %d "
                     b"/ColorSpace %s /BitsPerComponent 8 /Filter /FlateDecode "
                     b"/DecodeParms << /Predictor 15 /Colors %d /BitsPerComponent 8 "
                     b"/Columns %d >> /Length %d >>"
                     % (width, height, space, colours, width, len(idat)), idat)
        w_pt, h_pt = _pt(width * 72 / dpi), _pt(height * 72 / dpi)
        content = b"q %s 0 0 %s 0 0 cm /Im0 Do Q" % (w_pt, h_pt)
        self._object(content_id, b"<< /Length %d >>" % len(content), content)
        self._object(page_id, b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %s %s] "
                     b"/Resources << /XObject << /Im0 %d 0 R >> /ProcSet [/PDF /ImageC /ImageB] >> "
                     b"/Contents %d 0 R >>" % (w_pt, h_pt, image_id, content_id))
        self.kids.append(page_id)

    def close(self) -> None:
        kids = b" ".join(b"%d 0 R" % kid for kid in self.kids)
        self._object(2, b"<< /Type /Pages /Kids [%s] /Count %d >>" % (kids, len(self.kids)))
        self._object(1, b"<< /Type /Catalog /Pages 2 0 R >>")
        info_id = self._new_id()
        title = self.title.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
        self._object(info_id, b"<< /Title (%s) /Producer (companion) >>"
                     % title.encode("ascii", "replace"))
        xref = self.fh.tell()
        size = self.next_id
        rows = [b"0000000000 65535 f \n"]
        rows += [b"%010d 00000 n \n" % self.offsets[n] for n in range(1, size)]
        self.fh.write(b"xref\n0 %d\n" % size + b"".join(rows))
        self.fh.write(b"trailer\n<< /Size %d /Root 1 0 R /Info %d 0 R >>\nstartxref\n%d\n%%%%EOF\n"
                      % (size, info_id, xref))


def _pt(value: float) -> bytes:
    return (b"%.2f" % value).rstrip(b"0").rstrip(b".")


def _png_parts(png: bytes) -> tuple[int, int, int, bytes]:
    """Width, height, colour channels and the joined IDAT data of an 8-bit RGB/grey PNG."""
    if png[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, header = 8, [], None
    while pos < len(png):
        length, kind = struct.unpack(">I4s", png[pos:pos + 8])
        data = png[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", data)
        elif kind == b"IDAT":
            idat.append(data)
        pos += 12 + length
    if header is None:
        raise ValueError("PNG without a header")
    width, height, depth, colour_type, _, _, interlace = header
    if depth != 8 or colour_type not in (0, 2) or interlace:
        raise ValueError("only 8-bit, non-interlaced RGB or grey PNGs can go into the PDF")
    return width, height, 3 if colour_type == 2 else 1, b"".join(idat)


def pdf_page_count(data: bytes) -> int:
    """Pages of a PDF this module wrote (its page tree's /Count)."""
    counts = re.findall(rb"/Type /Pages /Kids \[[^\]]*\] /Count (\d+)", data)
    return int(counts[-1]) if counts else 0


class OutError(Exception):
    """The output folder cannot be used; the message is one line."""


def prepare_out(out: Path) -> Path:
    if out.exists() and not out.is_dir():
        raise OutError(f"{out} is not a folder")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutError(f"cannot create {out}: {exc.strerror or exc}") from None
    if not os.access(out, os.W_OK | os.X_OK):
        raise OutError(f"cannot write to {out}: permission denied")
    return out


def template(deck: Deck) -> dict:
    """The registry template: every card in printed order."""
    return {"game": deck.game,
            "cards": [{"n": n, "kind": c.kind, "name": c.name, "label": c.label}
                      for n, c in enumerate(deck.cards, 1)]}


def write(deck: Deck, out: Path, papers: Iterable[str], formats: Iterable[str],
          say: Callable[[str], None] = print) -> list[Path]:
    """Write the sheets and the registry template into ``out``; return the paths written."""
    out = prepare_out(out)
    formats = list(formats)
    per_page = deck.chunks()
    written: list[Path] = []
    for key in papers:
        paper = PAPERS[key]
        w_mm, h_mm = paper.size_mm
        where = f"{paper.title} {w_mm:g} x {h_mm:g} mm, {DPI} dpi"
        pdf_path = out / f"{deck.game}-{paper.key}.pdf"
        with contextlib.ExitStack() as stack:
            pdf = None
            if "pdf" in formats:
                pdf = PdfWriter(stack.enter_context(open(pdf_path, "wb")), pdf_path.stem)
            for p, page in enumerate(pages(deck, paper), 1):
                png = encode_png(page)
                del page
                if pdf is not None:
                    pdf.add_png(png)
                if "png" in formats:
                    path = out / f"{deck.game}-{paper.key}-p{p:02d}.png"
                    path.write_bytes(png)
                    first, last = per_page[p - 1][0] + 1, per_page[p - 1][-1] + 1
                    say(f"wrote {path}: page {p}/{len(per_page)}, cards {first}-{last}, {where}")
                    written.append(path)
            if pdf is not None:
                pdf.close()
        if pdf is not None:
            say(f"wrote {pdf_path}: {len(per_page)} pages, {len(deck.cards)} cards, {where}")
            written.append(pdf_path)
    path = out / f"{deck.game}-registry-template.json"
    path.write_text(json.dumps(template(deck), indent=1, ensure_ascii=False) + "\n",
                    encoding="utf-8")
    say(f"wrote {path}: {len(deck.cards)} cards in print order")
    written.append(path)
    return written
