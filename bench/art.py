#!/usr/bin/python3
"""Writes the drawn banners of the benchmarks' weight section: the same pixels every run.

    bench/art.py gradient OUT.png [OUT.jpg]     a two-colour ramp with a headline and a button
    bench/art.py text OUT.png                   ten lines of 22-pixel text, dark blue and red, on off-white

Both 2184x270 (--width, --height), like bench/photo.py's photograph. The gradient is the content
a lossy format is cheap on and a palette is not (every column its own colour); the JPEG is written
at quality 90, 4:2:0, as an export of it would be. The text is the content whose small coloured
strokes lose their colour under 4:2:0. The lettering is DejaVu Sans (Debian's fonts-dejavu-core,
which the tool's build installs). The layout (where each piece goes) imports nothing; drawing
needs numpy and Pillow (Debian: python3-numpy, python3-pil).
"""
import argparse
import os
import sys

WIDTH, HEIGHT = 2184, 270
FONTS = "/usr/share/fonts/truetype/dejavu"
REGULAR, BOLD = "DejaVuSans.ttf", "DejaVuSans-Bold.ttf"

# The gradient: deep blue at the top-left to warm orange at the bottom-right, white lettering.
RAMP = ((24, 52, 120), (236, 120, 44))
HEADLINE = "Fresh bread, baked at dawn"
BUTTON = "Order now"
BUTTON_FILL, BUTTON_TEXT = (255, 255, 255), (24, 52, 120)

# The text: ten lines of 22 px, dark blue and red in turn, on off-white.
PAPER = (250, 247, 240)
INKS = ((26, 42, 108), (200, 16, 46))
TEXT_LINES, TEXT_PIXELS = 10, 22
WORDS = ("Fresh bread daily. Order by 9 am for delivery the same day; 20% off your first box with code "
         "DAWN20. Sourdough, rye, spelt and seeded loaves; croissants on weekends. Free delivery over "
         "$30 within 5 km. Terms apply, see the shop for details. ").split()


def ramp_share(width, height):
    """How far along the ramp each pixel is, 0 at the top-left to 1 at the bottom-right: three
    quarters across, a quarter down (a diagonal ramp: no two rows alike), a height x width array."""
    import numpy
    across = numpy.linspace(0.0, 0.75, width)[None, :]
    down = numpy.linspace(0.0, 0.25, height)[:, None]
    return across + down


def headline_layout(width, height):
    """{"headline": (x, y, pixels), "button": (left, top, right, bottom), "label_pixels": n}: the
    headline left of centre, a third of the height tall; the button at the right, half the height."""
    headline_pixels = height // 3
    button_height = height // 2
    button_width = button_height * 3
    right = width - height // 3
    top = (height - button_height) // 2
    return {"headline": (height // 3, (height - headline_pixels) // 2, headline_pixels),
            "button": (right - button_width, top, right, top + button_height),
            "label_pixels": button_height * 2 // 5}


def text_layout(width, height, lines=TEXT_LINES, pixels=TEXT_PIXELS):
    """[(x, y)] of the top-left of each line: `lines` lines of `pixels` px at an even pitch,
    centred in the height with a margin of one pitch's leading; ValueError when they do not fit."""
    pitch = height // lines
    if pitch < pixels:
        raise ValueError("%d lines of %d px do not fit in %d px" % (lines, pixels, height))
    top = (height - pitch * lines) // 2 + (pitch - pixels) // 2
    return [(pixels, top + index * pitch) for index in range(lines)]


def line_text(index, count=45):
    """The words of line `index`: the filler text from a different word each line, long enough to
    run off a 2184 px line (drawing cuts it at the edge)."""
    return " ".join(WORDS[(index * 7 + n) % len(WORDS)] for n in range(count))


def font(name, pixels):
    from PIL import ImageFont
    path = os.path.join(FONTS, name)
    if not os.path.isfile(path):
        sys.exit("bench/art.py: %s is missing (Debian: fonts-dejavu-core)" % path)
    return ImageFont.truetype(path, pixels)


def gradient(width=WIDTH, height=HEIGHT):
    """The ramp, the headline and the button, RGB."""
    import numpy
    from PIL import Image, ImageDraw
    share = ramp_share(width, height)
    start, end = (numpy.array(colour, numpy.float64) for colour in RAMP)
    pixels = start + (end - start) * share[..., None]
    image = Image.fromarray(numpy.rint(pixels).astype(numpy.uint8), mode="RGB")
    layout = headline_layout(width, height)
    draw = ImageDraw.Draw(image)
    x, y, pixels = layout["headline"]
    draw.text((x, y), HEADLINE, font=font(BOLD, pixels), fill=(255, 255, 255))
    left, top, right, bottom = layout["button"]
    draw.rounded_rectangle((left, top, right, bottom), radius=(bottom - top) // 4, fill=BUTTON_FILL)
    draw.text(((left + right) // 2, (top + bottom) // 2), BUTTON, font=font(BOLD, layout["label_pixels"]),
              fill=BUTTON_TEXT, anchor="mm")
    return image


def text(width=WIDTH, height=HEIGHT):
    """Ten lines of small text, dark blue and red in turn, on off-white, RGB."""
    from PIL import Image, ImageDraw
    image = Image.new("RGB", (width, height), PAPER)
    draw = ImageDraw.Draw(image)
    lettering = font(REGULAR, TEXT_PIXELS)
    for index, (x, y) in enumerate(text_layout(width, height)):
        draw.text((x, y), line_text(index), font=lettering, fill=INKS[index % len(INKS)])
    return image


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kind", choices=("gradient", "text"))
    parser.add_argument("png")
    parser.add_argument("jpeg", nargs="?")
    parser.add_argument("--width", type=int, default=WIDTH)
    parser.add_argument("--height", type=int, default=HEIGHT)
    arguments = parser.parse_args()
    image = (gradient if arguments.kind == "gradient" else text)(arguments.width, arguments.height)
    image.save(arguments.png, "PNG", optimize=False, compress_level=6)
    if arguments.jpeg:
        image.save(arguments.jpeg, "JPEG", quality=90, subsampling=2)


if __name__ == "__main__":
    main()
