"""autocost: what `--format auto`'s search costs. Each input of the weight section's bench set
(the photograph as PNG and JPEG, the gradient as PNG and JPEG, the flat test artwork, the
text-heavy art) is rendered into 390x61@3x with `--format auto`, its pick read from `--json`
(through schemas/), and the same render timed beside the fixed format that pick is, at the
default weight budget: WebP at its quality and auto's effort 2, JPEG at its quality (4:2:0: no
flag asks for auto's 4:4:4 step), PNG (lossless, for a palette pick too); near-lossless WebP,
which no flag asks for, beside lossless WebP (the same libwebp encoder) written whatever it
weighs. The goal: auto at most 2.5x the fixed format's CPU."""
import os
import re

from ..context import quote
from ..errors import BenchError
from . import weight

GOAL = 2.5
# The libwebp effort auto's lossy WebP is written at (AutoRecipe.webpEffort); `--format webp`'s
# default is 4.
AUTO_WEBP_EFFORT = 2


def fixed_options(encoding):
    """(options, what they ask) of the fixed format an auto pick's `encoding` is; BenchError for
    an encoding the tool does not write."""
    quality = re.match(r"(WebP|JPEG) quality (\d+)", encoding)
    if quality and quality.group(1) == "WebP":
        return (["--format", "webp", "--quality", quality.group(2), "--effort", str(AUTO_WEBP_EFFORT)],
                "WebP quality %s, effort %d" % (quality.group(2), AUTO_WEBP_EFFORT))
    if quality:
        return (["--format", "jpeg", "--quality", quality.group(2)], "JPEG quality " + quality.group(2))
    if encoding.startswith("WebP near-lossless"):
        # Over the default budget where near-lossless is under it (the text-heavy art: 162 KB):
        # written whatever it weighs, so no search is timed with it.
        return (["--format", "webp", "--lossless", "--weight-budget", "1G"], "WebP lossless")
    if encoding.startswith("PNG"):
        return (["--format", "png"], "PNG")
    raise BenchError("autocost: no fixed format for the encoding %r" % encoding)


def run(context):
    inputs = weight.bench_set(context)
    return {"slot": weight.SLOT, "goal": GOAL,
            "contents": [one(context, key, label, inputs[name]) for key, label, name in weight.CONTENTS]}


def one(context, key, label, source):
    folder = context.folder("autocost", key)
    what = "autocost: render %s" % os.path.basename(source)
    # No image ending on the name: auto chooses among every format.
    picked = weight.render(context, source, os.path.join(folder, "auto"), weight.AUTO, what + " --format auto")
    options, fixed = fixed_options(picked["encoding"])
    base = ["render", source, "--slot", weight.SLOT]
    rows = [("auto", quote(context.binary, *base, *weight.AUTO, "--output", os.path.join(folder, "auto-timed"))),
            ("fixed: " + fixed, quote(context.binary, *base, *options, "--output", os.path.join(folder, "fixed")))]
    return {"key": key, "label": label, "input": weight.describe(context, source), "encoding": picked["encoding"],
            "fixed": fixed, "comparison": context.compare("autocost-" + key, rows)}
