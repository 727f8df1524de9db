"""Every example runs as written: each `$ creative-tool ...` line in docs/, each `creative-tool`
line of README.md's blocks, and each example of every command's `--help`.

    python3 scripts/check-examples.py BINARY [--show]

The examples run in a scratch folder holding the files they name (built by the tool itself: the
test artwork under the names the docs use, a 961x150 JPEG, a photograph PNG, a 1080x1920 takeover, a bundle,
companion parameter files), through /bin/sh on a pseudo-terminal, as a user at a terminal sees
them: standard error and output in order. Every file a `fix` example writes must validate (with
no warning when fix exited 0). The lines a doc shows under its command must be what the tool prints: the first shown line is the first printed, every further shown line
follows in order (lines between may be left out), and `...` in a shown line stands for any
text. Times (`in 278 ms`, `in 11 s`) may differ; every other figure must be as shown. A command shown
without output, and every `--help` example, must exit 0.

The service's examples (`serve`, `worker`, `enqueue`) need a port, Redis and a store; they are
checked elsewhere (RouteTests, the worker tests) and not run here.

--show prints each command's real output instead of comparing (to paste into the docs).
Before the real run the checker proves it can fail: a changed figure must be reported.
Exit 0 when every example runs as shown, 1 otherwise.
"""
import json
import os
import pathlib
import random
import re
import shlex
import shutil
import subprocess
import struct
import sys
import tempfile
import zipfile
import zlib

import pty_run

ROOT = pathlib.Path(__file__).resolve().parent.parent
DAEMONS = ("serve", "worker", "enqueue")
TIME = re.compile(r"\b\d+(?:\.\d+)? m?s\b")


def doc_examples():
    """(where, command, shown lines) of every `$ creative-tool` line in a fenced block."""
    files = sorted((ROOT / "docs").glob("*.md")) + [ROOT / "README.md"]
    for path in files:
        lines = path.read_text().splitlines()
        fenced = False
        current = None
        for number, line in enumerate(lines, 1):
            if line.startswith("```"):
                if current:
                    yield current
                    current = None
                fenced = not fenced
                continue
            if not fenced:
                continue
            # README.md's blocks are commands to copy, without `$ ` or output.
            bare = path.name == "README.md" and line.startswith("creative-tool ")
            if line.startswith("$ ") or bare:
                if current:
                    yield current
                current = None
                if line.startswith("$ creative-tool ") or bare:
                    current = (f"{path.relative_to(ROOT)}:{number}", line if bare else line[2:], [])
            elif current:
                current[2].append(line)
        if current:
            yield current


def help_examples(binary):
    """(where, command) of every example in every command's --help."""
    overview = subprocess.run([binary, "--help"], capture_output=True, text=True, check=True).stdout
    commands = re.findall(r"^  (\S+)  ", overview.split("commands:")[1], re.M)
    for command in commands:
        text = subprocess.run([binary, command, "--help"], capture_output=True, text=True, check=True).stdout
        block = text.split("\nexamples:\n")[1].split("\nexit codes:")[0]
        for line in block.splitlines():
            yield f"{command} --help", line.strip()


def run_on_terminal(command, folder, path):
    """Runs `command` with /bin/sh on a pseudo-terminal: (exit code, lines shown)."""
    environment = dict(os.environ, PATH=path, COLUMNS="200")
    status, shown = pty_run.run(["/bin/sh", "-c", command], cwd=folder, env=environment)
    text = shown.decode("utf-8", "replace").replace("\r\n", "\n")
    # Split at line feeds only: a bare carriage return rewrites the line it is on.
    return status, [screen_line(line) for line in text.split("\n")[:-1 if text.endswith("\n") else None]]


CSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def screen_line(line):
    """What a terminal leaves of a line: a carriage return starts it again, and the erase-line
    sequence (ESC [ K) after it clears what was there (a progress line rewritten in place)."""
    return CSI.sub("", line.split("\r")[-1])


# The libvips series the docs' figures were printed with (the default build's). On another series
# its encoders write other byte counts and qualities, so there each number is only a number.
DOCS_LIBVIPS = "8.18."
FIGURES_EXACT = True


def literal(part):
    """`part` as a pattern: itself, or with each run of digits any number (FIGURES_EXACT off)."""
    if FIGURES_EXACT:
        return re.escape(part)
    return r"\d+(?:\.\d+)?".join(re.escape(piece) for piece in re.split(r"\d+(?:\.\d+)?", part))


def matches(shown, printed):
    """Whether one shown line is the printed line (`...` standing for any text, times free)."""
    pattern = ".*".join(literal(part) for part in TIME.sub("N ms", shown).split("..."))
    return re.fullmatch(pattern, TIME.sub("N ms", printed)) is not None


def compare(shown, printed):
    """None when the shown lines are in what was printed as the docstring says, else why not."""
    shown = [line for line in shown if line.strip()]
    if not shown:
        return None
    if not printed or not matches(shown[0], printed[0]):
        return f"first line shown:\n    {shown[0]}\n  printed:\n    {printed[0] if printed else '(nothing)'}"
    at = 1
    for line in shown[1:]:
        while at < len(printed) and not matches(line, printed[at]):
            at += 1
        if at == len(printed):
            return f"line shown is not printed (in this order):\n    {line}\n  printed:\n    " + "\n    ".join(printed)
        at += 1
    return None


def tool(binary, folder, *arguments):
    subprocess.run([binary, *arguments], cwd=folder, check=True, stdout=subprocess.DEVNULL,
                   stdin=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def png(width, height, pixel=None, level=9):
    """An RGB PNG of one colour, or (no `pixel`) RGBA noise from a fixed seed, at a zlib level."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    channels = 3 if pixel else 4
    state, rows = 0x9E3779B97F4A7C15, bytearray()
    for _ in range(height):
        rows.append(0)
        if pixel:
            rows += bytes(pixel) * width
            continue
        for _ in range(width * channels):
            state ^= (state << 13) & 0xFFFFFFFFFFFFFFFF
            state ^= state >> 7
            state ^= (state << 17) & 0xFFFFFFFFFFFFFFFF
            rows.append((state >> 24) & 0xFF)
    header = struct.pack(">IIBBBBB", width, height, 8, 2 if pixel else 6, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(bytes(rows), level))
            + chunk(b"IEND", b""))


def photo_png(width, height):
    """A photograph's statistics as an RGB PNG (what designers export at 1.5 MB): detail at three
    scales (smooth noise, each scale's amplitude falling with its size), tinted, and sensor grain;
    the same bytes every run (a seeded generator)."""
    rng = random.Random(7)
    field = [[0.0] * width for _ in range(height)]
    for cell, amplitude in ((64, 34.0), (16, 16.0), (4, 10.0)):
        grid = [[rng.gauss(0, amplitude) for _ in range(width // cell + 2)] for _ in range(height // cell + 2)]
        columns = [(x / cell - x // cell, x // cell) for x in range(width)]
        for y in range(height):
            ty, iy = y / cell - y // cell, y // cell
            top, bottom, row = grid[iy], grid[iy + 1], field[y]
            for x, (tx, ix) in enumerate(columns):
                upper = top[ix] + (top[ix + 1] - top[ix]) * tx
                lower = bottom[ix] + (bottom[ix + 1] - bottom[ix]) * tx
                row[x] += upper + (lower - upper) * ty
    raw = bytearray()
    for values in field:
        raw.append(0)
        for value in values:
            for scale, base in ((1.0, 120), (0.9, 135), (0.75, 160)):
                raw.append(max(0, min(255, int(base + scale * value + rng.gauss(0, 6)))))
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(bytes(raw), 9))
            + chunk(b"IEND", b""))


def be(value, count):
    return value.to_bytes(count, "big")


def profile_bomb_png():
    """A 960x150 PNG whose iCCP profile's D2B0 pipeline has 20,000 stages, every one pointing at
    the same 3x3 matrix: the colour-profile bomb the tool ignores (`metadata_dropped`)."""
    stages = 20_000
    matrix = b"matf" + be(0, 4) + be(3, 2) + be(3, 2) + bytes(48)
    element = 16 + stages * 8
    tag = b"mpet" + be(0, 4) + be(3, 2) + be(3, 2) + be(stages, 4)
    tag += (be(element, 4) + be(len(matrix), 4)) * stages + matrix
    tag += bytes((4 - len(tag) % 4) % 4)
    header = bytearray(128)
    header[8:12] = be(0x04300000, 4)          # version 4.3
    header[12:24] = b"mntrRGB XYZ "           # display class, RGB data, XYZ connection space
    header[36:40] = b"acsp"
    header[68:80] = be(0xF6D6, 4) + be(0x10000, 4) + be(0xD32D, 4)   # the D50 illuminant
    icc = bytes(header) + be(1, 4) + b"D2B0" + be(132 + 12, 4) + be(len(tag), 4) + tag
    icc = be(len(icc), 4) + icc[4:]
    plain = png(960, 150, (29, 53, 87))
    chunk = b"iCCP" + b"bomb\x00\x00" + zlib.compress(icc, 9)
    iccp = struct.pack(">I", len(chunk) - 4) + chunk + struct.pack(">I", zlib.crc32(chunk) & 0xFFFFFFFF)
    return plain[:33] + iccp + plain[33:]


def make_fixtures(binary, folder):
    """The files the examples name, made by the tool from its test artwork."""
    art = ROOT / "TestImages"
    os.symlink(art, folder / "TestImages")
    for name, size in [("banner.png", "960x150"), ("my-banner.png", "960x150"), ("banner-960x150.png", "960x150"), ("banner-960.png", "960x150"),
                       ("phone.png", "960x150"), ("a.png", "960x150"), ("banner-1320.png", "1320x204"),
                       ("b.png", "1320x204"), ("banner-2184x270.png", "2184x270"), ("tablet.png", "2184x270"),
                       ("c.png", "2184x270")]:
        shutil.copy(art / f"test-artwork-{size}.png", folder / name)
    tool(binary, folder, "render", "banner.png", "--slot", "961x150", "--output", "wide.jpg")
    tool(binary, folder, "render", "tablet.png", "--slot", "1080x1920", "--background", "#1d3557", "--output", "tall.png")
    shutil.copy(folder / "tall.png", folder / "takeover.png")
    # The profiles' examples: one flat colour at two sizes, noise over a weight limit, a JPEG.
    (folder / "strip-960x150.png").write_bytes(png(960, 150, (29, 53, 87)))
    (folder / "rectangle-336x280.png").write_bytes(png(336, 280, (29, 53, 87)))
    (folder / "mobile-320x50.png").write_bytes(png(320, 50, level=0))
    tool(binary, folder, "render", "b.png", "--slot", "300x250", "--background", "#1d3557", "--output",
         "rectangle-300x250.jpg")
    (folder / "carousel.txt").write_text(
        "ad_type=carousel,carousel_banner=https://cdn.example.com/b.png,brand_icon=https://cdn.example.com/i.png,"
        "carousel_title=Spring,carousel_description=,"
        "carousel_images=https://cdn.example.com/1.png$https://cdn.example.com/2.png\n")
    (folder / "takeover.txt").write_text(
        "ad_type=webview,campaign=spring,Image_url=https://ads.example.com/page\n")
    tool(binary, folder, "render", "banner.png", "--slot", "320x50", "--output", "static.png")
    tool(binary, folder, "render", "banner.png", "--slot", "64x10", "--output", "logo.png")
    with zipfile.ZipFile(folder / "spring-sale.zip", "w", zipfile.ZIP_DEFLATED) as bundle:
        bundle.writestr("index.html", '<!doctype html><html><head><meta name="ad.size" content="width=320,height=50">'
                        '<link rel="stylesheet" href="style.css"><script src="//cdn.example.com/anim.js"></script>'
                        '</head><body><a href="#" onclick="window.open(clickTag)"><img src="logo.png"></a>'
                        '<script src="main.js"></script></body></html>\n')
        bundle.writestr("style.css", "body { margin: 0; background: #fff; }\n")
        bundle.writestr("main.js", "var clickTag = 'https://shop.example.com/spring';\n")
        bundle.write(folder / "logo.png", "logo.png")
        bundle.write(folder / "static.png", "backup.png")
    (folder / "static.png").unlink()
    (folder / "logo.png").unlink()
    # The campaign's, fix's and the colour-profile examples.
    shutil.copy(art / "test-artwork-1320x204.png", folder / "banner-1320x204.png")
    tool(binary, folder, "render", "banner.png", "--slot", "961x150", "--output", "banner-961x150.png")
    tool(binary, folder, "render", "banner.png", "--slot", "1000x150", "--output", "banner-1000x150.png")
    for name, size in [("photo-2184x270.jpg", "2184x270"), ("photo-960x150.jpg", "960x150"), ("photo.jpg", "2184x270")]:
        tool(binary, folder, "render", f"TestImages/test-artwork-{size}.png", "--slot", size, "--format", "jpeg",
             "--quality", "100", "--weight-budget", "1G", "--output", name)
    # fix's: a photograph saved as PNG (1.5 MB), to be named .jpg.
    (folder / "heavy-2184x270.png").write_bytes(photo_png(2184, 270))
    corpus = ROOT / "Tests" / "Corpus" / "examples"
    for name in ("animated-728x90.gif", "cmyk-728x90.jpg"):
        shutil.copy(corpus / name, folder / name)
    (folder / "stages.png").write_bytes(profile_bomb_png())


def main():
    binary = os.path.abspath(sys.argv[1])
    show = "--show" in sys.argv
    # The checker can fail: a figure changed in a shown line is reported.
    assert compare(["wrote x.png: 8148 bytes"], ["wrote x.png: 8149 bytes"]) is not None
    assert compare(["a", "c ... d"], ["a", "b", "c 1 d"]) is None
    assert compare(["a", "d"], ["a", "b"]) is not None
    global FIGURES_EXACT
    version = subprocess.run([binary, "--version"], capture_output=True, text=True).stdout
    FIGURES_EXACT = f"(libvips {DOCS_LIBVIPS}" in version
    if not FIGURES_EXACT:
        print(f"examples: {version.strip()}: not libvips {DOCS_LIBVIPS}x, so numbers are compared as numbers")
    path = f"{os.path.dirname(binary)}:{os.environ.get('PATH', '/usr/bin:/bin')}"
    examples = [(where, command, shown) for where, command, shown in doc_examples()]
    examples += [(where, line, []) for where, line in help_examples(binary)]
    failures = 0
    ran = 0
    with tempfile.TemporaryDirectory(prefix="creative-tool-examples-") as scratch:
        fixtures = pathlib.Path(scratch) / "fixtures"
        fixtures.mkdir()
        make_fixtures(binary, fixtures)
        for index, (where, command, shown) in enumerate(examples):
            if command.split()[1] in DAEMONS:
                continue
            # Each example in a fresh copy: one example's output is never another's input.
            folder = pathlib.Path(scratch) / f"example-{index}"
            shutil.copytree(fixtures, folder, symlinks=True)
            status, printed = run_on_terminal(command, folder, path)
            problem = fixed_file_problem(binary, command, status, folder)
            shutil.rmtree(folder)
            if problem:
                print(f"examples: {where}: $ {command}\n  {problem}")
                failures += 1
            ran += 1
            failures += report(where, command, shown, status, printed, show)
    print(f"examples: {ran - failures} of {ran} ran as shown")
    return 1 if failures else 0


def fixed_file_problem(binary, command, status, folder):
    """What is wrong with the file a `fix` example wrote (exit 0: it must validate with no warning;
    exit 2: valid, the artwork's own warnings said), or None; None for every other example."""
    words = shlex.split(command)
    if len(words) < 2 or words[1] != "fix" or status not in (0, 2) or "--output" not in words:
        return None
    output = words[words.index("--output") + 1]
    if output == "-":
        return None
    check = subprocess.run([binary, "validate", "--json", output], cwd=folder, capture_output=True, text=True)
    if check.returncode != 0:
        return f"the fixed file {output} does not validate: {check.stdout.strip()}"
    warnings = [warning["code"] for warning in json.loads(check.stdout)["warnings"]]
    if status == 0 and warnings:
        return f"fix exited 0 but {output} has warnings: {', '.join(warnings)}"
    return None


def report(where, command, shown, status, printed, show):
    """Prints a failed example (or, with --show, every output); 1 when it failed."""
    if show:
        print(f"{where}\n$ {command}\n" + "\n".join(printed) + f"\n(exit {status})\n")
        return 0
    problem = compare(shown, printed)
    if problem is None and not [line for line in shown if line.strip()] and status != 0:
        problem = f"exit {status} (an example shown without output must succeed):\n    " + "\n    ".join(printed)
    if problem:
        print(f"examples: {where}: $ {command}\n  {problem}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
