"""The web page's address as a QR code sized for the 128x64 OLED.

A 0.96" panel has pixels about 0.17 mm apart, so every module is drawn 2x2 pixels
(:data:`MODULE`) and the code must stay small: QR version 2 (25x25 modules, 50x50
pixels) at error correction level Q (a quarter of the code may be lost: the lit
pixels of an OLED bloom into the dark modules under a phone's camera). The address
is written in capitals, which QR's alphanumeric mode stores in 5.5 bits a character
(scheme and host are case-blind), so version 2-Q holds 29 characters: every
``http://A.B.C.D:PORT/`` there is. A longer address (a name from the config, an
IPv6 address) takes version 3 (58x58 pixels) at the highest level it fits; one too
long for that gets no code (the text alone). The code is dark on a lit 64x64 square:
the light quiet zone round it that a reader needs (3.5 modules at version 2).
"""

from __future__ import annotations

import segno

MODULE = 2  # pixels per module edge
VERSIONS = (2, 3)  # 25 and 29 modules: 50 and 58 pixels with the 64 the panel has
ERRORS = ("q", "m", "l")  # the most error correction that fits, first


def encode(url: str) -> segno.QRCode | None:
    """The QR code of ``url`` for the OLED, or None when it is too long for one."""
    text = url.upper() if url.isascii() else url
    for version in VERSIONS:
        for error in ERRORS:
            try:
                return segno.make_qr(text, version=version, error=error, boost_error=False)
            except segno.DataOverflowError:
                continue
    return None


def modules(url: str) -> list[str] | None:
    """The code's modules, a string of "1" (dark) and "0" per row, without a border."""
    code = encode(url)
    if code is None:
        return None
    return ["".join("1" if m else "0" for m in row) for row in code.matrix]
