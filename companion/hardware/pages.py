"""Sending only what changed: the columns of each 8-pixel page that differ.

An SSD1306-family or SH1106 panel keeps its picture in RAM as 8 pages of one byte
per column (bit 0 the top pixel of the page). A full frame is 1,024 bytes, 23 ms at
400 kHz; a menu cursor moving one line changes two pages and a few dozen columns.
:class:`PageWriter` remembers what the panel holds and, for each page that changed,
writes each run of changed columns (runs a few columns apart joined), in the
controller's own addressing:

- SSD1306, SSD1309, SSD1315 (horizontal addressing, as luma sets them up): a
  COLUMNADDR/PAGEADDR window, then the bytes. A window may cover several pages (the
  controller wraps to the next page at its right edge), so the spans of neighbouring
  pages go out as one rectangle where that is cheaper than a window each;
- SH1106 (page addressing only, 132-column RAM shown from column 2): the page
  address and the column's low and high nibbles (offset by 2), then the bytes.

The first frame after the panel was (re)opened goes out in full through luma, so a
panel that lost its RAM is always redrawn whole.
"""

from __future__ import annotations

import re
from typing import Any

from PIL import Image

PAGES, COLUMNS = 8, 128
_SSD1306_FAMILY = ("ssd1306", "ssd1309", "ssd1315")


def pages_of(image: Image.Image) -> list[bytes]:
    """The 8 pages of 128 column bytes a 128x64 mode "1" image fills."""
    # Transposed, each image row is one column's 8 page bytes, top pixel first; Pillow's
    # "1;R" packing puts that pixel in bit 0, as the panel wants it, all in C.
    columns = image.transpose(Image.Transpose.TRANSPOSE).tobytes("raw", "1;R")
    return [columns[page::PAGES] for page in range(PAGES)]


# A new span costs a command transaction and a data transaction header, about 12
# bytes of bus time on I2C: a gap of unchanged columns shorter than that is cheaper
# to resend than to skip.
MERGE_GAP = 12


_CHANGED = re.compile(rb"[^\x00]+")


def changed_spans(old: list[bytes], new: list[bytes]) -> list[tuple[int, int, int]]:
    """(page, first column, last column) of every run of changed columns, runs closer
    than ``MERGE_GAP`` columns joined into one."""
    spans = []
    for page, (a, b) in enumerate(zip(old, new)):
        if a == b:
            continue
        # The columns' XOR, searched for runs of non-zero bytes in C: a page is 128
        # columns, and a Python loop over them was a good part of every frame.
        xor = (int.from_bytes(a, "big") ^ int.from_bytes(b, "big")).to_bytes(len(a), "big")
        start = last = None
        for run in _CHANGED.finditer(xor):
            if start is None:
                start = run.start()
            elif run.start() - last > MERGE_GAP:
                spans.append((page, start, last))
                start = run.start()
            last = run.end() - 1
        spans.append((page, start, last))
    return spans


def windows(spans: list[tuple[int, int, int]]) -> list[tuple[int, int, int, int]]:
    """(first page, last page, first column, last column) windows that cover ``spans``
    (from :func:`changed_spans`) at the least bus cost: each window costs
    ``MERGE_GAP`` bytes of commands and headers plus its area. Only runs of
    neighbouring pages are joined, each page's spans all in one window or all apart."""
    by_page: dict[int, list[tuple[int, int]]] = {}
    for page, first, last in spans:
        by_page.setdefault(page, []).append((first, last))
    order = sorted(by_page)
    # cost[i]: the cheapest cover of the first i changed pages; back[i] how it ends:
    # None for page i-1's spans apart, else (j, lo, hi) for pages j..i-1 in one window.
    # (Each page's spans are in column order, so its bounds are its first and last.)
    cost = [0]
    back: list[tuple[int, int, int] | None] = [None]
    for i, page in enumerate(order, 1):
        best = cost[i - 1] + sum(MERGE_GAP + b - a + 1 for a, b in by_page[page])
        how = None
        lo, hi = COLUMNS, -1
        for j in range(i - 1, -1, -1):  # pages order[j..i-1] in one window
            if j < i - 1 and order[j] != order[j + 1] - 1:
                break
            runs = by_page[order[j]]
            lo, hi = min(lo, runs[0][0]), max(hi, runs[-1][1])
            joined = cost[j] + MERGE_GAP + (page - order[j] + 1) * (hi - lo + 1)
            if joined < best:
                best, how = joined, (j, lo, hi)
        cost.append(best)
        back.append(how)
    cover: list[tuple[int, int, int, int]] = []
    i = len(order)
    while i:  # walked back from the last page; built lists were most of the cost
        how = back[i]
        if how is None:
            page = order[i - 1]
            cover[:0] = [(page, page, a, b) for a, b in by_page[page]]
            i -= 1
        else:
            j, lo, hi = how
            cover.insert(0, (order[j], order[i - 1], lo, hi))
            i = j
    return cover


class PageWriter:
    """Partial frames for one luma device; :func:`for_device` says whether it can."""

    def __init__(self, device: Any, sh1106: bool):
        self.device = device
        self.sh1106 = sh1106
        self.colstart = getattr(device, "_colstart", 0)  # 0 on a 128-wide SSD1306
        self.held: list[bytes] | None = None  # what the panel's RAM holds, as pages

    def write(self, image: Image.Image) -> None:
        """Put ``image`` (before luma's rotation) on the panel, sending only changes."""
        new = pages_of(self.device.preprocess(image))
        if self.held is None:
            self.device.display(image)  # the first frame in full, through luma
        elif self.sh1106:
            for page, first, last in changed_spans(self.held, new):
                column = first + 2  # the glass shows RAM columns 2..129
                self.device.command(0xB0 | page, column & 0x0F, 0x10 | column >> 4)
                self.device.data(bytearray(new[page][first:last + 1]))  # luma takes these
        else:
            for top, bottom, first, last in windows(changed_spans(self.held, new)):
                self.device.command(0x21, self.colstart + first, self.colstart + last,
                                    0x22, top, bottom)
                self.device.data(bytearray(b"".join(page[first:last + 1]
                                                    for page in new[top:bottom + 1])))
        self.held = new


def for_device(device: Any) -> PageWriter | None:
    """A writer for the luma drivers whose addressing it knows (128x64 only)."""
    name = type(device).__name__
    if getattr(device, "size", None) != (COLUMNS, PAGES * 8) or getattr(device, "mode", "") != "1":
        return None
    if name in _SSD1306_FAMILY:
        return PageWriter(device, sh1106=False)
    if name == "sh1106":
        return PageWriter(device, sh1106=True)
    return None
