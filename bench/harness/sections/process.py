"""process: each of BENCH_PROCESS_INPUTS validated and rendered into every device slot it is
picked for, plus the preview sheet and manifest, against ImageMagick run once per render (the
content size and canvas of each render read from the manifest, through
schemas/manifest.schema.json), wall clock and CPU."""
import os
import shutil

from ..context import CONVERT, quote


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
    magick = ["true"]
    for index, entry in enumerate(manifest["renders"], 1):
        magick.append(quote(CONVERT, source, "-resize", size(entry["content_pixels"]) + "!", "-background", "none",
                            "-gravity", "center", "-extent", size(entry["slot_pixels"]),
                            os.path.join(folder, "magick-%d.png" % index)))
    count = len(manifest["renders"])
    rows = [("creative-tool", quote(context.binary, "process", source, "--output-dir", output) + " >/dev/null")]
    rows += context.system_row("process", source, "--output-dir", os.path.join(folder, "system-out"))
    rows.append(("ImageMagick x %d" % count, " && ".join(magick)))
    formats = sorted({entry["format"] for entry in manifest["renders"]})
    return {"input": context.describe_input(name), "renders": count, "formats": formats,
            "comparison": context.compare("process-" + name.replace(".", "-"), rows)}
