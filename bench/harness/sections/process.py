"""process: each content of BENCH_PROCESS_INPUTS validated and rendered into every device slot it is
picked for, plus the preview sheet and manifest (`--format auto`, the default), against its floor
and its peers, wall clock and CPU. The contents: the flat test artwork (2184x270), the public
960x150 test artwork, the photograph from JPEG (bench/photo.py), the gradient from JPEG and the
text-heavy art (bench/art.py, through the weight section's bench set), and a 1080x1920 photograph
as an interstitial (`--product interstitial`).

The floor is bench/floor-process.c: the same render files written once, with the settings the job
chose, on the same libvips (one decode; each distinct render resized, letterboxed and encoded once;
its bytes written to every file that shares it). Its job spec is written from the tool's own
manifest.json (read through schemas/manifest.schema.json): one line per distinct render, its saver
settings read from the render's encoding line. Where the line does not say all of them (auto may
write a lossy WebP with the plain RGB to YUV conversion, which the line names only where the memory
budget forced it), the floor tries the other settings the tool may have used and keeps the first
that writes the tool's file to the byte (its sha256 in the manifest), else the line as read. The
peers: ImageMagick run once per render (the content size and canvas of each render from the
manifest), writing lossless PNG and WebP quality 85; and the same job with `--format webp` (no
search)."""
import hashlib
import os
import re
import shutil

from ..context import BENCH_DIR, CONVERT, REPO_DIR, quote
from ..errors import BenchError
from ..stats import ratio
from . import weight

# The name of ImageMagick's row writing WebP quality 85, per render count.
WEBP_PEER = "ImageMagick x %d, WebP quality 85"
FLOOR = "C floor (bench/floor-process.c), same libvips"
# The same job with a memory budget that holds the preview sheet beside a searching render (two
# pieces at once on 2 workers); a banner job at the default 80 MiB is charged for one at a time.
SIDE_BY_SIDE_BUDGET = "112M"
SIDE_BY_SIDE = "creative-tool --memory-budget " + SIDE_BY_SIDE_BUDGET
# (key, label, file, the tool's options beside the file); BENCH_PROCESS_INPUTS names the keys.
CONTENTS = [
    ("flat", "flat art (the test artwork, 2184x270)", "artwork.png", []),
    ("artwork-960", "the public test artwork (960x150)", "test-artwork-960x150.png", []),
    ("photo-jpeg", "photograph (JPEG q92)", "photo.jpg", []),
    ("gradient-jpeg", "gradient with headline (JPEG q90)", "gradient.jpg", []),
    ("text", "text-heavy art", "text.png", []),
    ("interstitial", "interstitial photograph (1080x1920, JPEG q92)", "interstitial.jpg",
     ["--product", "interstitial"]),
]
KEYS = [key for key, _, _, _ in CONTENTS]
# The interstitial photograph: bench/photo.py's banner drawn at a phone's full screen.
INTERSTITIAL_PIXELS = (1080, 1920)

# What the tool writes each encoding with where its manifest line does not say (Sources/CreativeImaging):
# auto's lossy WebP at libwebp effort 2 (AutoRecipe.webpEffort), a fixed or budget-fitted WebP at
# libvips' default 4; AVIF at effort 1 (Encoder.avifEffort); PNG at zlib 4 (PNGWriter.zlibLevel);
# palettes by libimagequant at effort 3 (AutoRecipe.paletteEffort), undithered.
AUTO_WEBP_EFFORT, WEBP_EFFORT, AVIF_EFFORT = 2, 4, 1
PNG_ZLIB, PALETTE_EFFORT = 4, 3
# libimagequant's quality of a palette whose line names only its colours: auto's flat palette (256
# colours at 90, AutoRecipe.flatPalette); a palette fitted to a weight budget, the first step of
# its bit depth (WeightBudgetSearch.paletteSteps); an exact palette (the tool's own PNG writer), 100.
AUTO_PALETTE_QUALITY = 90
BUDGET_PALETTE_QUALITY = {8: 100, 4: 60, 2: 50, 1: 50}


def palette_bits(colours):
    """The PNG bit depth that holds a palette of `colours` (1, 2, 4 or 8)."""
    for bits in (1, 2, 4):
        if colours <= 1 << bits:
            return bits
    return 8


def encoding_settings(format_, encoding):
    """The saver's settings of one render, from its manifest `format` and `encoding` line:
    {"Q": 40, "effort": 2, "smart": 1} for "WebP quality 40 (auto: ...)". ValueError for a line
    this does not read (the floor would not write what the job wrote)."""
    line = encoding or ""
    auto = "(auto" in line and "the best that fits" not in line
    quality = re.match(r"(WebP|JPEG|AVIF) quality (\d+)", line)
    if format_ == "webp":
        near = re.match(r"WebP near-lossless (\d+)", line)
        if near:
            return {"near": 1, "Q": int(near.group(1)), "effort": WEBP_EFFORT}
        lossless = re.match(r"WebP lossless(?:, effort (\d+))?", line)
        if lossless:
            return {"lossless": 1, "effort": int(lossless.group(1) or WEBP_EFFORT)}
        if quality and quality.group(1) == "WebP":
            effort = re.match(r"WebP quality \d+, effort (\d+)", line)
            return {"Q": int(quality.group(2)),
                    "effort": int(effort.group(1)) if effort else AUTO_WEBP_EFFORT if auto else WEBP_EFFORT,
                    "smart": 0 if "plain RGB to YUV" in line else 1}
    elif format_ == "jpeg" and quality and quality.group(1) == "JPEG":
        full = "4:4:4" in line or "full chroma" in line
        return {"Q": int(quality.group(2)), "chroma": 444 if full else 420}
    elif format_ == "avif" and quality and quality.group(1) == "AVIF":
        return {"Q": int(quality.group(2)), "effort": AVIF_EFFORT}
    elif format_ == "png" and line.startswith("PNG"):
        palette = re.match(r"PNG, palette of (at most |up to )?(\d+) colours", line)
        if palette:
            bits = palette_bits(int(palette.group(2)))
            said = re.search(r"libimagequant quality (\d+)", line)
            if said:
                quality_ = int(said.group(1))
            elif not palette.group(1):
                quality_ = 100
            elif "the best that fits" in line:
                quality_ = BUDGET_PALETTE_QUALITY[bits]
            else:
                quality_ = AUTO_PALETTE_QUALITY
            return {"palette": 1, "bitdepth": bits, "Q": quality_, "dither": 0, "effort": PALETTE_EFFORT,
                    "compression": PNG_ZLIB}
        paeth = "Paeth" in line or "(streamed)" in line
        return {"compression": PNG_ZLIB, "filter": "paeth" if paeth else "none"}
    raise ValueError("no saver settings for a %s render written as %r" % (format_, encoding))


def bars_of(format_):
    """The colour of a render's bars: JPEG has no alpha, its bars are white; the others keep
    transparent bars."""
    return "white" if format_ == "jpeg" else "transparent"


def spec_lines(renders):
    """The floor's job spec (bench/floor-process.c) of a manifest's renders: one line per
    distinct render (the same canvas, content size and position, format and settings: the tool
    writes them the same bytes), its files comma-separated, in the order first written. Renders
    not written (over their weight budget) are left out."""
    lines, files = [], {}
    for entry in renders:
        if entry.get("file") is None:
            continue
        canvas, content = entry["slot_pixels"], entry["content_pixels"]
        position = entry["content_position_pixels"]
        settings = encoding_settings(entry["format"], entry["encoding"])
        options = " ".join("%s=%s" % (key, settings[key]) for key in sorted(settings))
        key = "%d %d %d %d %d %d %s %s %s" % (canvas["width"], canvas["height"], content["width"], content["height"],
                                             position["x"], position["y"], bars_of(entry["format"]), entry["format"],
                                             options)
        if "," in entry["file"] or " " in entry["file"]:
            raise ValueError("a render's file name holds a comma or a space: %r" % entry["file"])
        if key not in files:
            files[key] = []
            lines.append(key)
        files[key].append(entry["file"])
    return ["%s %s" % (",".join(files[key]), key) for key in lines]


# What a line may have been written with where the manifest does not say: a lossy WebP's effort
# and RGB to YUV conversion (auto writes with the plain one wherever it kept the target, unsaid),
# a palette's libimagequant quality.
WEBP_VARIANTS = [(AUTO_WEBP_EFFORT, 0), (AUTO_WEBP_EFFORT, 1), (WEBP_EFFORT, 1), (WEBP_EFFORT, 0)]
PALETTE_QUALITIES = [100, 90, 80, 60, 50]


def variants(line):
    """The spec line (as spec_lines writes it) and the other settings the tool may have written
    its render with, the line's own first, each once: the harness keeps the first whose files are
    the tool's to the byte."""
    words = line.split()
    head, options = words[:9], dict(word.split("=", 1) for word in words[9:])

    def written(changes):
        merged = dict(options, **{key: str(value) for key, value in changes.items()})
        return " ".join(head + ["%s=%s" % (key, merged[key]) for key in sorted(merged)])
    found = [line]
    if words[8] == "webp" and "smart" in options:
        found += [written({"effort": effort, "smart": smart}) for effort, smart in WEBP_VARIANTS]
    elif words[8] == "png" and options.get("palette") == "1":
        found += [written({"Q": quality}) for quality in PALETTE_QUALITIES]
    return [candidate for index, candidate in enumerate(found) if candidate not in found[:index]]


def files_of(line):
    """The file names of a spec line."""
    return line.split(" ", 1)[0].split(",")


def floor_figures(comparison, tool_bytes, floor_bytes):
    """The floor table's figures of one content: process CPU / floor CPU, process wall / process
    CPU (below 1: the job's threads ran side by side), and the render bytes over the floor's."""
    commands = comparison["commands"]
    tool = commands[0]
    floor = next((c for c in commands if c["name"] == FLOOR), None)
    wide = next((c for c in commands if c["name"] == SIDE_BY_SIDE), None)
    return {"cpu_over_floor": ratio(tool["cpu_ms"], floor["cpu_ms"] if floor else None),
            "wall_over_cpu": ratio(tool["median_ms"], tool["cpu_ms"]),
            "wide_wall_over_cpu": ratio(wide["median_ms"], wide["cpu_ms"]) if wide else None,
            "bytes_over_floor": ratio(tool_bytes, floor_bytes)}


def run(context):
    asked = context.settings["process_inputs"]
    unknown = [key for key in asked if key not in KEYS]
    if unknown:
        raise BenchError("BENCH_PROCESS_INPUTS: no content %s (have: %s)" % (" ".join(unknown), " ".join(KEYS)))
    drawn = {}
    return {"inputs": [process_one(context, content, drawn) for content in CONTENTS if content[0] in asked]}


def source_of(context, file, drawn):
    """The path of a content's file, made where the harness makes it; drawn holds the weight
    section's bench set once it is drawn."""
    if file in ("artwork.png", "photo.jpg"):
        return context.input_path(file)
    if file in ("gradient.jpg", "text.png"):
        if not drawn:
            drawn.update(weight.bench_set(context))
        return drawn[file]
    if file == "test-artwork-960x150.png":
        return os.path.join(REPO_DIR, "TestImages", file)
    if file == "interstitial.jpg":
        folder = context.folder("process", "inputs")
        path = os.path.join(folder, file)
        if not os.path.isfile(path):
            width, height = INTERSTITIAL_PIXELS
            context.run([context.python, os.path.join(BENCH_DIR, "photo.py"),
                         os.path.join(folder, "interstitial.png"), path, "--width", str(width), "--height",
                         str(height)], "bench/photo.py (interstitial)")
        return path
    raise BenchError("process: no way to make %s" % file)


def sha256(path):
    with open(path, "rb") as handle:
        return hashlib.sha256(handle.read()).hexdigest()


def matched_lines(context, source, folder, lines, hashes):
    """The spec lines with, for each, the first of its variants whose files the floor writes the
    same to the byte as the tool's (their sha256 in the manifest), or the line as read where none
    does; and how many files are identical. The floor runs once per round of variants."""
    chosen, matched = list(lines), [False] * len(lines)
    candidates = [variants(line) for line in lines]
    for round_ in range(max((len(found) for found in candidates), default=0)):
        todo = [index for index in range(len(lines)) if not matched[index] and round_ < len(candidates[index])]
        if not todo:
            break
        probe, spec = os.path.join(folder, "probe-%d" % round_), os.path.join(folder, "probe-%d.spec" % round_)
        with open(spec, "w", encoding="utf-8") as handle:
            handle.write("\n".join(candidates[index][round_] for index in todo) + "\n")
        context.run([context.floor_process, source, probe, spec], "process: the C floor's probe %d" % round_)
        for index in todo:
            line = candidates[index][round_]
            if all(sha256(os.path.join(probe, name)) == hashes[name] for name in files_of(line)):
                chosen[index], matched[index] = line, True
        shutil.rmtree(probe, ignore_errors=True)
    identical = sum(len(files_of(line)) for line, same in zip(chosen, matched) if same)
    return chosen, identical


def read_manifest(context, folder, what):
    with open(os.path.join(folder, "manifest.json"), encoding="utf-8") as handle:
        return context.schemas.parse("manifest", handle.read(), what + ": manifest.json")


def process_one(context, content, drawn):
    key, label, file, options = content
    folder = context.folder("process", key)
    source = os.path.join(folder, file)
    shutil.copy(source_of(context, file, drawn), source)
    output = os.path.join(folder, "out")
    what = "process: creative-tool on " + file
    context.run([context.binary, "process", source, "--output-dir", output, "--quiet"] + options, what)
    manifest = read_manifest(context, output, what)
    written = [entry for entry in manifest["renders"] if entry["file"] is not None]
    tool_bytes = sum(os.path.getsize(os.path.join(output, entry["file"])) for entry in written)
    try:
        lines = spec_lines(manifest["renders"])
    except ValueError as error:
        raise BenchError("process: %s: %s" % (file, error))
    hashes = {entry["file"]: entry["sha256"] for entry in written}
    lines, identical = matched_lines(context, source, folder, lines, hashes)
    spec = os.path.join(folder, "floor.spec")
    with open(spec, "w", encoding="utf-8") as handle:
        handle.write("# bench/floor-process.c's job spec, from the manifest of `creative-tool process %s`\n" % file)
        handle.write("\n".join(lines) + "\n")
    floor_output = os.path.join(folder, "floor-out")
    floor_command = quote(context.floor_process, source, floor_output, spec)
    context.shell(floor_command, "process: the C floor on " + file)
    floor_bytes = 0
    for entry in written:
        path = os.path.join(floor_output, entry["file"])
        if not os.path.isfile(path) or os.path.getsize(path) == 0:
            raise BenchError("process: the C floor wrote no %s" % entry["file"])
        floor_bytes += os.path.getsize(path)
    for line in lines:
        first = os.path.join(floor_output, files_of(line)[0])
        canvas = tuple(int(word) for word in line.split()[1:3])
        if context.image_size(first)[:2] != canvas:
            raise BenchError("process: the C floor wrote %s at %dx%d, not %dx%d"
                             % ((os.path.basename(first),) + context.image_size(first)[:2] + canvas))
    size = lambda value: "%dx%d" % (value["width"], value["height"])
    # ImageMagick once per render: lossless PNG (the goal for the test artwork), and WebP quality 85
    # (issue 31's goal for a photograph).
    magick = {"png": ["true"], "webp": ["true"]}
    for index, entry in enumerate(manifest["renders"], 1):
        for ending, extra in [("png", []), ("webp", ["-quality", "85"])]:
            magick[ending].append(quote(CONVERT, source, "-resize", size(entry["content_pixels"]) + "!", "-background",
                                        "none", "-gravity", "center", "-extent", size(entry["slot_pixels"]), *extra,
                                        os.path.join(folder, "magick-%d.%s" % (index, ending))))
    count = len(manifest["renders"])
    rows = [("creative-tool", quote(context.binary, "process", source, "--output-dir", output, *options) + " >/dev/null")]
    rows += context.system_row("process", source, "--output-dir", os.path.join(folder, "system-out"), *options)
    rows.append(("creative-tool --format webp", quote(context.binary, "process", source, "--format", "webp",
                                                      "--output-dir", os.path.join(folder, "webp-out"), *options)
                 + " >/dev/null"))
    if "--product" not in options:
        rows.append((SIDE_BY_SIDE, quote(context.binary, "process", source, "--memory-budget", SIDE_BY_SIDE_BUDGET,
                                         "--output-dir", os.path.join(folder, "wide-out"), *options) + " >/dev/null"))
    rows.append((FLOOR, floor_command))
    rows.append(("ImageMagick x %d" % count, " && ".join(magick["png"])))
    rows.append((WEBP_PEER % count, " && ".join(magick["webp"])))
    formats = sorted({entry["format"] for entry in written})
    comparison = context.compare("process-" + key, rows)
    return {"key": key, "label": label, "input": weight.describe(context, source), "options": options,
            "renders": count, "formats": formats, "distinct_renders": len(lines), "identical_files": identical,
            "render_bytes": tool_bytes,
            "sheet_bytes": (manifest.get("preview") or {}).get("file_bytes"),
            "floor_bytes": floor_bytes, "floor": floor_figures(comparison, tool_bytes, floor_bytes),
            "comparison": comparison}
