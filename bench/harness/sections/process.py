"""process: each of BENCH_PROCESS_INPUTS validated and rendered into every device slot it is
picked for, plus the preview sheet and manifest, against ImageMagick run once per render (the
content size and canvas of each render read from the manifest, through
schemas/manifest.schema.json), wall clock and CPU."""
import os
import shutil

from ..context import CONVERT, quote


# The name of ImageMagick's row writing WebP quality 85, per render count.
WEBP_PEER = "ImageMagick x %d, WebP quality 85"


def run(context):
    return {"inputs": [process_one(context, name) for name in context.settings["process_inputs"]]}


def process_one(context, name):
    folder = context.folder("process", name.replace(".", "-"))
    source = os.path.join(folder, name)
    shutil.copy(context.input_path(name), source)
    output = os.path.join(folder, "out")
    context.run([context.binary, "process", source, "--output-dir", output], "process: creative-tool on " + name)
    with open(os.path.join(output, "manifest.json"), encoding="utf-8") as handle:
        manifest = context.schemas.parse("manifest", handle.read(), "process's manifest.json of " + name)
    size = lambda value: "%dx%d" % (value["width"], value["height"])
    # ImageMagick once per render: lossless PNG (the goal for the test artwork), and WebP quality 85
    # (issue 31's goal for a photograph).
    magick = {"png": ["true"], "webp": ["true"]}
    for index, entry in enumerate(manifest["renders"], 1):
        for ending, options in [("png", []), ("webp", ["-quality", "85"])]:
            magick[ending].append(quote(CONVERT, source, "-resize", size(entry["content_pixels"]) + "!", "-background",
                                        "none", "-gravity", "center", "-extent", size(entry["slot_pixels"]), *options,
                                        os.path.join(folder, "magick-%d.%s" % (index, ending))))
    count = len(manifest["renders"])
    rows = [("creative-tool", quote(context.binary, "process", source, "--output-dir", output) + " >/dev/null")]
    rows += context.system_row("process", source, "--output-dir", os.path.join(folder, "system-out"))
    rows.append(("creative-tool --format webp", quote(context.binary, "process", source, "--format", "webp",
                                                      "--output-dir", os.path.join(folder, "webp-out")) + " >/dev/null"))
    rows.append(("ImageMagick x %d" % count, " && ".join(magick["png"])))
    rows.append((WEBP_PEER % count, " && ".join(magick["webp"])))
    formats = sorted({entry["format"] for entry in manifest["renders"]})
    return {"input": context.describe_input(name), "renders": count, "formats": formats,
            "comparison": context.compare("process-" + name.replace(".", "-"), rows)}
