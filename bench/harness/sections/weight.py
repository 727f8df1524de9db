"""weight: what `--format auto` writes, against the lossless render, on the bench set of
docs/performance.md's "What auto writes": the photograph (bench/photo.py, PNG and JPEG q92), a
gradient with a headline and a button (bench/art.py, PNG and JPEG q90), the flat test artwork and
text-heavy art (bench/art.py), each 2184x270. Each is rendered into 390x61@3x with the default
weight budget and as lossless PNG (`--format png --weight-budget 1G`); `process` of the
photograph and the gradient the same way, every render against its lossless twin. Where the tool
writes AVIF, each render and job once more with AVIF named (`--formats png,jpeg,webp,avif`). Bytes
and the encoding from the tool's own `--json` and manifest.json (through schemas/), luma and chroma
SSIM on white by bench/ssim.py --luma-chroma (scikit-image). Nothing is timed."""
import datetime
import os
import shutil
import subprocess

from ..context import BENCH_DIR, REPO_DIR
from ..errors import BenchError

SLOT = "390x61@3x"
WIDTH, HEIGHT = 1170, 183
SOURCE_PIXELS = (2184, 270)
AUTO = ["--format", "auto"]
LOSSLESS = ["--format", "png", "--weight-budget", "1G"]
# `auto` with AVIF named beside its default formats.
WITH_AVIF = AUTO + ["--formats", "png,jpeg,webp,avif"]
# (key, label, file) of the render table, in its order.
CONTENTS = [
    ("photo-png", "photograph (PNG)", "photo.png"),
    ("photo-jpeg", "photograph (JPEG q92)", "photo.jpg"),
    ("gradient-png", "gradient with headline (PNG)", "gradient.png"),
    ("gradient-jpeg", "gradient with headline (JPEG q90)", "gradient.jpg"),
    ("flat", "flat art (the test artwork)", "artwork.png"),
    ("text", "text-heavy art (small dark and red text)", "text.png"),
]
# (label, file) of the process table.
JOBS = [
    ("photograph (JPEG)", "photo.jpg"),
    ("photograph (PNG)", "photo.png"),
    ("gradient (JPEG)", "gradient.jpg"),
    ("gradient (PNG)", "gradient.png"),
]
# The files bench/art.py draws, per drawing: its arguments after the script.
DRAWINGS = [("gradient", ["gradient.png", "gradient.jpg"]), ("text", ["text.png"])]
# The rest are the harness's own inputs (context.inputs(): the test artwork, bench/photo.py's).
SHARED = ("artwork.png", "photo.png", "photo.jpg")


def drawing_commands(python, folder):
    """[argv] that draw the files of DRAWINGS into folder with bench/art.py."""
    script = os.path.join(BENCH_DIR, "art.py")
    return [[python, script, kind] + [os.path.join(folder, name) for name in names] for kind, names in DRAWINGS]


def bench_files():
    """Every file the tables name, each once, in the order they are first named."""
    names = []
    for name in [file for _, _, file in CONTENTS] + [file for _, file in JOBS]:
        if name not in names:
            names.append(name)
    return names


def run(context):
    context.need_python("numpy", "skimage")
    inputs = bench_set(context)
    # Paths inside the repository as the repository names them (bench/bench.py's versions do the same).
    version = context.run([context.binary, "--version"], "creative-tool --version").stdout.strip().splitlines()[0]
    version = version.replace(REPO_DIR + "/", "")
    skimage = context.run([context.python, "-c", "import skimage; print(skimage.__version__)"], "scikit-image")
    avif = writes_avif(context)
    return {"date": datetime.date.today().isoformat(), "tool": version, "slot": SLOT, "width": WIDTH, "height": HEIGHT,
            "scikit_image": skimage.stdout.strip(), "avif": avif,
            "contents": [render_one(context, key, label, inputs[name], avif) for key, label, name in CONTENTS],
            "jobs": [process_one(context, label, inputs[name], avif) for label, name in JOBS]}


def writes_avif(context):
    """Whether the tool writes AVIF (its libvips has an AV1 encoder; the build on Debian's does not):
    a fixed AVIF of the built-in artwork."""
    probe = os.path.join(context.folder("weight", "avif"), "probe.avif")
    done = subprocess.run([context.binary, "render", "--slot", "320x50", "--format", "avif", "--output", probe,
                           "--quiet"], capture_output=True)
    return done.returncode == 0


def bench_set(context):
    """{file: path} of bench_files(): the shared inputs, and bench/art.py's drawings; each checked
    to be 2184x270."""
    folder = context.folder("weight", "inputs")
    for command in drawing_commands(context.python, folder):
        context.run(command, "bench/art.py " + command[2])
    drawn = {name for _, names in DRAWINGS for name in names}
    paths = {}
    for name in bench_files():
        paths[name] = os.path.join(folder, name) if name in drawn else context.input_path(name)
        width, height, _ = context.image_size(paths[name])
        if (width, height) != SOURCE_PIXELS:
            raise BenchError("weight: %s is %dx%d, not %dx%d" % ((name, width, height) + SOURCE_PIXELS))
    return paths


def describe(context, path):
    width, height, bands = context.image_size(path)
    return {"name": os.path.basename(path), "width": width, "height": height, "bands": bands,
            "bytes": os.path.getsize(path)}


def render(context, source, output, options, what):
    """render --json of source into SLOT, read through schemas/render.schema.json."""
    done = context.run([context.binary, "render", source, "--slot", SLOT, "--output", output, "--json"] + options,
                       what)
    written = context.schemas.parse("render", done.stdout, what + " --json")
    canvas = written["canvas_pixels"]
    if (canvas["width"], canvas["height"]) != (WIDTH, HEIGHT) or written["file_bytes"] != os.path.getsize(output):
        raise BenchError("%s: wrote %dx%d, %d bytes (%d on disk), not %dx%d"
                         % (what, canvas["width"], canvas["height"], written["file_bytes"], os.path.getsize(output),
                            WIDTH, HEIGHT))
    return written


def render_one(context, key, label, source, avif=False):
    folder = context.folder("weight", key)
    lossless_path, auto_path = os.path.join(folder, "lossless.png"), os.path.join(folder, "auto")
    what = "weight: render %s" % os.path.basename(source)
    lossless = render(context, source, lossless_path, LOSSLESS, what + " --format png")
    # No image ending on the name: auto chooses among every format (.png would hold it to PNG).
    auto = render(context, source, auto_path, AUTO, what + " --format auto")
    (size, written_as, luma, chroma), = scores(context, [(lossless_path, auto_path)])
    with_avif = None
    if avif:
        avif_path = os.path.join(folder, "with-avif")
        named = render(context, source, avif_path, WITH_AVIF, what + " --formats png,jpeg,webp,avif")
        (avif_size, avif_as, avif_luma, avif_chroma), = scores(context, [(lossless_path, avif_path)])
        with_avif = {"format": named["format"], "bytes": avif_size, "encoding": named["encoding"],
                     "written_as": avif_as, "luma_ssim": avif_luma, "chroma_ssim": avif_chroma}
    return {"key": key, "label": label, "input": describe(context, source),
            "lossless": {"bytes": lossless["file_bytes"], "encoding": lossless["encoding"]},
            "auto": {"format": auto["format"], "bytes": size, "encoding": auto["encoding"], "written_as": written_as},
            "luma_ssim": luma, "chroma_ssim": chroma, "with_avif": with_avif}


def scores(context, pairs):
    """[(bytes, what, luma SSIM, chroma SSIM)] of each (reference, file) by bench/ssim.py."""
    arguments = [path for pair in pairs for path in pair]
    lines = context.run([context.python, os.path.join(BENCH_DIR, "ssim.py"), "--luma-chroma", "--pairs"] + arguments,
                        "bench/ssim.py --luma-chroma").stdout.splitlines()
    if len(lines) != len(pairs):
        raise BenchError("weight: bench/ssim.py scored %d of %d files" % (len(lines), len(pairs)))
    return [parse_luma_chroma_line(line) for line in lines]


def parse_luma_chroma_line(line):
    """(bytes, what, luma, chroma) of one line of bench/ssim.py --luma-chroma."""
    size, what, luma, chroma = line.split("\t")
    return int(size), what, float(luma), float(chroma)


def process(context, source, folder, options, what):
    """process of source into folder; its manifest.json through schemas/manifest.schema.json."""
    context.run([context.binary, "process", source, "--output-dir", folder, "--quiet"] + options, what)
    with open(os.path.join(folder, "manifest.json"), encoding="utf-8") as handle:
        manifest = context.schemas.parse("manifest", handle.read(), what + ": manifest.json")
    for entry in manifest["renders"]:
        if entry["file"] is None:
            raise BenchError("%s: the render for %s %s is over its weight budget (%s)"
                             % (what, entry["device"], entry["orientation"], entry["over_weight_budget"]["message"]))
    return manifest["renders"]


def slot_of(entry):
    return (entry["device"], entry["orientation"], entry["slot_pixels"]["width"], entry["slot_pixels"]["height"])


def process_one(context, label, source, avif=False):
    folder = context.folder("weight", "process", os.path.basename(source).replace(".", "-"))
    job = os.path.join(folder, os.path.basename(source))
    shutil.copy(source, job)
    what = "weight: process %s" % os.path.basename(source)
    lossless = process(context, job, os.path.join(folder, "lossless"), LOSSLESS, what + " --format png")

    def measured_job(name, options, said):
        """Each render of the job written into folder/name, against its lossless twin."""
        entries = process(context, job, os.path.join(folder, name), options, what + said)
        if [slot_of(entry) for entry in entries] != [slot_of(entry) for entry in lossless]:
            raise BenchError("%s: the%s and the lossless jobs rendered different slots" % (what, said))
        measured = scores(context, [(os.path.join(folder, "lossless", twin["file"]),
                                     os.path.join(folder, name, entry["file"])) for entry, twin in zip(entries, lossless)])
        return [{"file": entry["file"], "format": entry["format"], "encoding": entry["encoding"],
                 "bytes": entry["file_bytes"], "lossless_bytes": twin["file_bytes"], "luma_ssim": luma,
                 "chroma_ssim": chroma}
                for entry, twin, (_, _, luma, chroma) in zip(entries, lossless, measured)]
    renders = measured_job("auto", AUTO, " --format auto")
    with_avif = measured_job("with-avif", WITH_AVIF, " --formats png,jpeg,webp,avif") if avif else None
    return {"label": label, "input": describe(context, source), "renders": renders, "with_avif": with_avif}
