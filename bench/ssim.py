#!/usr/bin/python3
"""SSIM of renders against a lossless reference render, for the benchmarks' bytes tables.

    bench/ssim.py REFERENCE FILE...

Prints one line per FILE: "bytes<TAB>what<TAB>ssim", where `what` names the encoding (PNG
colour type, palette size, tRNS; WebP lossy or lossless; JPEG) and `ssim` is scikit-image's
structural_similarity of the two images after each is flattened onto white (alpha composited)
in 8-bit RGB, with the Gaussian-weighted settings of Wang et al. 2004: gaussian_weights=True,
sigma=1.5, use_sample_covariance=False, data_range=255, channel_axis=2 (the mean over R, G, B).
Every image must be as large as the reference. Needs numpy, Pillow and scikit-image (Debian:
python3-numpy, python3-pil, python3-skimage).
"""
import os
import sys

import numpy
from PIL import Image
from skimage.metrics import structural_similarity

SETTINGS = dict(gaussian_weights=True, sigma=1.5, use_sample_covariance=False, data_range=255, channel_axis=2)


def flattened(path):
    """The image composited onto white, as an RGB uint8 array."""
    with Image.open(path) as image:
        rgba = image.convert("RGBA")
    white = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
    return numpy.asarray(Image.alpha_composite(white, rgba).convert("RGB"))


def encoding(path):
    """What the file holds, e.g. "PNG palette 187 colours + tRNS", "WebP lossy + alpha"."""
    with Image.open(path) as image:
        if image.format == "PNG":
            if image.mode == "P":
                colours = len(image.getpalette() or []) // 3
                text = "PNG palette %d colours" % colours
            else:
                text = "PNG %s" % image.mode
            if "transparency" in image.info:
                text += " + tRNS"
            return text
        if image.format == "WEBP":
            with open(path, "rb") as file:
                data = file.read()
            kind = "lossless" if b"VP8L" in data[12:40] else "lossy"
            return "WebP %s%s" % (kind, " + alpha" if image.mode == "RGBA" else "")
        return "%s %s" % (image.format, image.mode)


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: bench/ssim.py REFERENCE FILE...")
    reference = flattened(sys.argv[1])
    for path in sys.argv[2:]:
        pixels = flattened(path)
        if pixels.shape != reference.shape:
            sys.exit("%s is %s, the reference %s" % (path, pixels.shape, reference.shape))
        score = structural_similarity(reference, pixels, **SETTINGS)
        print("%d\t%s\t%.4f" % (os.path.getsize(path), encoding(path), score))


if __name__ == "__main__":
    main()
