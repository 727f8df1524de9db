#!/usr/bin/python3
"""SSIM of renders against a lossless reference render, for the benchmarks' bytes and weight tables.

    bench/ssim.py REFERENCE FILE...
    bench/ssim.py --luma-chroma REFERENCE FILE...
    bench/ssim.py --luma-chroma --pairs REFERENCE FILE [REFERENCE FILE...]

Prints one line per FILE: "bytes<TAB>what<TAB>ssim", where `what` names the encoding (PNG
colour type, palette size, tRNS; WebP lossy or lossless; JPEG) and `ssim` is scikit-image's
structural_similarity of the two images after each is flattened onto white (alpha composited)
in 8-bit RGB, with the Gaussian-weighted settings of Wang et al. 2004: gaussian_weights=True,
sigma=1.5, use_sample_covariance=False, data_range=255, channel_axis=2 (the mean over R, G, B).
With --luma-chroma the line is "bytes<TAB>what<TAB>luma<TAB>chroma": the same SSIM of Y' (BT.601)
at full resolution and of Cb and Cr (the mean of the two) after a 2x2 box shrink, what `--format
auto` keeps its targets on; with --pairs each FILE is scored against the REFERENCE before it.
Every image must be as large as its reference. Needs numpy, Pillow and scikit-image (Debian:
python3-numpy, python3-pil, python3-skimage); an AVIF file is read through the vips CLI
(libvips-tools, with its HEIF module: Debian's Pillow reads no AVIF).
"""
import os
import subprocess
import sys
import tempfile

import numpy
from PIL import Image
from skimage.metrics import structural_similarity

SETTINGS = dict(gaussian_weights=True, sigma=1.5, use_sample_covariance=False, data_range=255, channel_axis=2)
# RGB to Y'CbCr, BT.601 full range (the matrix JPEG and WebP code with); Cb and Cr offset by 128.
BT601 = numpy.array([[0.299, 0.587, 0.114], [-0.168736, -0.331264, 0.5], [0.5, -0.418688, -0.081312]])


def is_avif(path):
    """Whether the file is an AVIF: an ISO BMFF `ftyp` box of brand `avif`."""
    with open(path, "rb") as file:
        return file.read(12)[4:12] == b"ftypavif"


def opened(path):
    """The image as RGBA: an AVIF through `vips copy` to a PNG first."""
    if not is_avif(path):
        with Image.open(path) as image:
            return image.convert("RGBA")
    with tempfile.TemporaryDirectory() as folder:
        png = os.path.join(folder, "avif.png")
        subprocess.run(["vips", "copy", path, png], check=True, capture_output=True)
        with Image.open(png) as image:
            return image.convert("RGBA")


def flattened(path):
    """The image composited onto white, as an RGB uint8 array."""
    rgba = opened(path)
    white = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
    return numpy.asarray(Image.alpha_composite(white, rgba).convert("RGB"))


def luma_chroma(reference, pixels):
    """(luma SSIM, chroma SSIM) of two flattened RGB arrays: Y' at full resolution, Cb and Cr
    (their mean) at half resolution, a 2x2 box shrink (an odd last row or column left out)."""
    planes = []
    for image in (reference, pixels):
        ycbcr = image.astype(numpy.float64) @ BT601.T
        ycbcr[..., 1:] += 128.0
        height, width = (ycbcr.shape[0] // 2) * 2, (ycbcr.shape[1] // 2) * 2
        chroma = ycbcr[:height, :width, 1:].reshape(height // 2, 2, width // 2, 2, 2).mean(axis=(1, 3))
        planes.append((ycbcr[..., 0], chroma))
    (y_reference, c_reference), (y_pixels, c_pixels) = planes
    luma_settings = dict(SETTINGS, channel_axis=None)
    return (structural_similarity(y_reference, y_pixels, **luma_settings),
            structural_similarity(c_reference, c_pixels, **SETTINGS))


def encoding(path):
    """What the file holds, e.g. "PNG palette 187 colours + tRNS", "WebP lossy + alpha", "AVIF"."""
    if is_avif(path):
        return "AVIF"
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


def main(arguments):
    options = [word for word in arguments if word.startswith("--")]
    paths = [word for word in arguments if not word.startswith("--")]
    pairs, perceptual = "--pairs" in options, "--luma-chroma" in options
    if set(options) - {"--pairs", "--luma-chroma"} or len(paths) < 2 or (pairs and len(paths) % 2):
        sys.exit("usage: bench/ssim.py [--luma-chroma [--pairs]] REFERENCE FILE...")
    jobs = list(zip(paths[0::2], paths[1::2])) if pairs else [(paths[0], path) for path in paths[1:]]
    references = {}
    for reference_path, path in jobs:
        if reference_path not in references:
            references[reference_path] = flattened(reference_path)
        reference, pixels = references[reference_path], flattened(path)
        if pixels.shape != reference.shape:
            sys.exit("%s is %s, the reference %s" % (path, pixels.shape, reference.shape))
        if perceptual:
            score = "%.4f\t%.4f" % luma_chroma(reference, pixels)
        else:
            score = "%.4f" % structural_similarity(reference, pixels, **SETTINGS)
        print("%d\t%s\t%s" % (os.path.getsize(path), encoding(path), score))


if __name__ == "__main__":
    main(sys.argv[1:])
