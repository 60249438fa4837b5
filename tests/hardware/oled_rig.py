"""What the OLED adapter tests share: a clock the test moves, a display config (the
reference build's, any field overridden) and a picture that differs from frame to frame."""

from types import SimpleNamespace

from PIL import Image, ImageDraw


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


def cfg(**kw):
    base = dict(driver="ssd1306", bus="i2c", port=1, address=0x3C, spi_device=0, dc_pin=24,
                rst_pin=25, rotate=0, contrast=200, width=128, height=64)
    return SimpleNamespace(**{**base, **kw})


def picture(n):
    image = Image.new("1", (128, 64))
    ImageDraw.Draw(image).text((n % 40, 10), f"frame {n}", fill=1)
    ImageDraw.Draw(image).rectangle((0, 0, 127, 63), outline=1)
    return image
