#!/usr/bin/python3
"""Writes a photographic banner for the benchmarks: the same pixels every run.

    bench/photo.py OUT.png [OUT.jpg] [--width 2184 --height 270]

Real photographs are not in the repository, so this makes their statistics: detail at every
scale (octaves of smooth noise whose amplitude falls with frequency, the 1/f spectrum of natural
images), a sky-like gradient, a few hard-edged shapes, and sensor grain (sigma 2 levels), which
is what makes a photo expensive for lossless PNG. The JPEG is written at quality 92, 4:2:0, as a
camera or an export would. Needs numpy and Pillow (Debian: python3-numpy, python3-pil).
"""
import argparse

import numpy
from PIL import Image, ImageDraw, ImageFilter


def octave_noise(rng, width, height, cell):
    """Smooth noise: random values on a grid of `cell` pixels, enlarged bicubically."""
    small = rng.normal(0.0, 1.0, (max(2, height // cell + 2), max(2, width // cell + 2))).astype(numpy.float32)
    image = Image.fromarray(small, mode="F").resize((width + 2 * cell, height + 2 * cell), Image.BICUBIC)
    return numpy.asarray(image)[cell:cell + height, cell:cell + width]


def photographic(width, height, seed=20261201):
    rng = numpy.random.default_rng(seed)
    rows = numpy.linspace(0.0, 1.0, height, dtype=numpy.float32)[:, None]
    columns = numpy.linspace(0.0, 1.0, width, dtype=numpy.float32)[None, :]
    # A sky-to-ground gradient, warmer to the right.
    base = numpy.stack([
        90 + 120 * rows + 30 * columns,
        120 + 80 * rows + 0 * columns,
        200 - 110 * rows - 40 * columns,
    ], axis=-1)
    texture = numpy.zeros((height, width), numpy.float32)
    for cell, amplitude in ((128, 34.0), (48, 20.0), (16, 12.0), (6, 8.0), (2, 5.0)):
        texture += amplitude * octave_noise(rng, width, height, cell)
    tint = numpy.stack([octave_noise(rng, width, height, 96) * 14.0 for _ in range(3)], axis=-1)
    pixels = base + texture[..., None] * numpy.array([1.0, 0.9, 0.75], numpy.float32) + tint
    image = Image.fromarray(numpy.clip(pixels, 0, 255).astype(numpy.uint8), mode="RGB")
    # Hard edges, slightly defocused, like objects in a scene.
    shapes = Image.new("RGB", (width, height))
    mask = Image.new("L", (width, height))
    draw_shapes, draw_mask = ImageDraw.Draw(shapes), ImageDraw.Draw(mask)
    for _ in range(14):
        x, y = int(rng.integers(0, width)), int(rng.integers(0, height))
        radius = int(rng.integers(height // 10, height // 2))
        colour = tuple(int(c) for c in rng.integers(20, 235, 3))
        box = (x - radius, y - radius, x + radius, y + radius)
        if rng.random() < 0.5:
            draw_shapes.ellipse(box, fill=colour)
            draw_mask.ellipse(box, fill=int(rng.integers(120, 230)))
        else:
            draw_shapes.rectangle(box, fill=colour)
            draw_mask.rectangle(box, fill=int(rng.integers(120, 230)))
    image = Image.composite(shapes.filter(ImageFilter.GaussianBlur(0.8)), image, mask.filter(ImageFilter.GaussianBlur(1.2)))
    # Sensor grain.
    grain = rng.normal(0.0, 2.0, (height, width, 3)).astype(numpy.float32)
    pixels = numpy.asarray(image, numpy.float32) + grain
    return Image.fromarray(numpy.clip(numpy.rint(pixels), 0, 255).astype(numpy.uint8), mode="RGB")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("png")
    parser.add_argument("jpeg", nargs="?")
    parser.add_argument("--width", type=int, default=2184)
    parser.add_argument("--height", type=int, default=270)
    arguments = parser.parse_args()
    image = photographic(arguments.width, arguments.height)
    image.save(arguments.png, "PNG", optimize=False, compress_level=6)
    if arguments.jpeg:
        image.save(arguments.jpeg, "JPEG", quality=92, subsampling=2)


if __name__ == "__main__":
    main()
