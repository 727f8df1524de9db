"""bytes: the weight of the 1170x183 render (slot 390x61 at 3x, transparent bars where the format
has alpha) of each input, per creative-tool format and per peer, with its SSIM against
creative-tool's lossless `--format png` render (bench/ssim.py) and its size against ImageMagick's
lossless PNG. pngquant + optipng and cwebp start from creative-tool's lossless render."""
import glob
import os
import subprocess

from ..context import BENCH_DIR, CONVERT, INPUT_NAMES
from ..errors import BenchError

WIDTH, HEIGHT = 1170, 183
# (key, label) in the order of the table; the reference first.
ROWS = [
    ("png", "creative-tool `--format png --weight-budget 1G` (lossless reference)"),
    ("webp", "creative-tool `--format webp`"),
    ("jpeg", "creative-tool `--format jpeg`"),
    ("auto", "creative-tool `--format auto`"),
    ("imagemagick", "ImageMagick `convert` (lossless PNG)"),
    ("pngquant", "`pngquant` + `optipng -o2` of the PNG render"),
    ("cwebp", "`cwebp -q 90` of the PNG render"),
]


def run(context):
    context.need("pngquant", "optipng", "cwebp")
    context.need_python("numpy", "skimage")
    versions = {
        "scikit-image": context.run([context.python, "-c", "import skimage; print(skimage.__version__)"],
                                    "scikit-image").stdout.strip(),
        "pngquant": context.run(["pngquant", "--version"], "pngquant").stdout.split()[0],
        "optipng": context.run(["optipng", "--version"], "optipng").stdout.splitlines()[0].replace(" version", ""),
        "cwebp": context.run(["cwebp", "-version"], "cwebp").stdout.strip(),
    }
    return {"versions": versions, "inputs": [table(context, name) for name in INPUT_NAMES]}


def table(context, name):
    source = context.input_path(name)
    folder = context.folder("bytes", name.replace(".", "-"))
    out = lambda file: os.path.join(folder, file)
    render = [context.binary, "render", source, "--slot", "390x61", "--scale", "3"]
    files = {}
    for key, extension in (("png", "png"), ("webp", "webp"), ("jpeg", "jpg")):
        files[key] = out("%s.%s" % (key, extension))
        # The reference is lossless whatever it weighs: no weight budget holds it to a palette.
        budget = ["--weight-budget", "1G"] if key == "png" else []
        context.run(render + ["--format", key, "--output", files[key]] + budget,
                    "bytes: creative-tool --format %s on %s" % (key, name))
    # --format auto under a name without an image ending chooses among every format (a name
    # ending .png would hold it to PNG); the file is then named by what it holds. A build
    # without auto exits 64 (usage).
    auto_folder = context.folder("bytes", name.replace(".", "-"), "auto")
    auto = subprocess.run(render + ["--format", "auto", "--output", os.path.join(auto_folder, "auto")],
                          capture_output=True, text=True)
    auto_said = None
    if auto.returncode == 0:
        found = glob.glob(os.path.join(auto_folder, "auto*"))
        if len(found) != 1:
            raise BenchError("bytes: --format auto wrote %d files for %s: %s" % (len(found), name, found))
        with open(found[0], "rb") as handle:
            head = handle.read(12)
        extension = "png" if head.startswith(b"\x89PNG") else "webp" if head[8:12] == b"WEBP" else "jpg"
        files["auto"] = found[0] + "." + extension
        os.replace(found[0], files["auto"])
        said = (auto.stdout + auto.stderr).strip().splitlines()
        auto_said = said[-1].replace(auto_folder + "/", "") if said else None
    elif auto.returncode != 64:
        raise BenchError("bytes: creative-tool --format auto failed on %s (exit %d): %s"
                         % (name, auto.returncode, (auto.stderr or auto.stdout).strip()))
    size = "%dx%d" % (WIDTH, HEIGHT)
    files["imagemagick"] = out("imagemagick.png")
    context.run([CONVERT, source, "-resize", size, "-background", "none", "-gravity", "center", "-extent", size,
                 files["imagemagick"]], "bytes: ImageMagick on " + name)
    files["pngquant"] = out("pngquant.png")
    context.run(["pngquant", "--force", "--output", files["pngquant"], "--", files["png"]], "bytes: pngquant on " + name)
    context.run(["optipng", "-quiet", "-o2", files["pngquant"]], "bytes: optipng on " + name)
    files["cwebp"] = out("cwebp.webp")
    context.run(["cwebp", "-quiet", "-q", "90", files["png"], "-o", files["cwebp"]], "bytes: cwebp on " + name)
    measured = [key for key, _ in ROWS if key in files]
    for key in measured:
        width, height, _ = context.image_size(files[key])
        if (width, height) != (WIDTH, HEIGHT):
            raise BenchError("bytes: %s is %dx%d, not %s: the comparison would not be fair" % (files[key], width, height, size))
    lines = context.run([context.python, os.path.join(BENCH_DIR, "ssim.py"), files["png"]] +
                        [files[key] for key in measured], "bench/ssim.py").stdout.splitlines()
    if len(lines) != len(measured):
        raise BenchError("bytes: bench/ssim.py measured %d of %d files" % (len(lines), len(measured)))
    rows = []
    for key, label in ROWS:
        if key not in files:
            rows.append({"key": key, "label": label, "written_as": None})
            continue
        written, ssim = parse_ssim_line(lines[measured.index(key)])
        rows.append({"key": key, "label": label, "written_as": written[1], "bytes": written[0], "ssim": ssim})
    return {"input": context.describe_input(name), "rows": rows, "auto_said": auto_said}


def parse_ssim_line(line):
    """((bytes, what), ssim) of one line of bench/ssim.py: "bytes<TAB>what<TAB>ssim"."""
    size, what, ssim = line.split("\t")
    return (int(size), what), float(ssim)
