"""render: each of BENCH_RENDER_INPUTS (default the 2184x270 test artwork and the photo PNG)
aspect-fit and letterboxed (transparent bars) into 1170x183 pixels (slot 390x61 pt at 3x), PNG
out, by creative-tool, the C floor and three peers. Every output is checked first (size, bands,
a transparent corner); the tool's `render --json` against schemas/render.schema.json. Then the
tool's lossless render (`--weight-budget 1G`, no weight search) against the C floor: the same work."""
import os
import shutil

from ..context import CONVERT, quote
from ..errors import BenchError

WIDTH, HEIGHT = 1170, 183
FLOOR = "C floor (bench/floor.c), same libvips"
LOSSLESS = "creative-tool, lossless (--weight-budget 1G)"
# The floor with adaptive filters at the tool's zlib level, beside FLOOR's pngsave defaults (no
# filter, zlib 6).
ADAPTIVE_FLOOR = "C floor, adaptive filters, zlib 4"
# Pillow: RGBA first, or pad's transparent colour would give black bars on an RGB image.
PILLOW = ('import sys; from PIL import Image, ImageOps; image = Image.open(sys.argv[1]).convert("RGBA"); '
          'ImageOps.pad(image, (int(sys.argv[3]), int(sys.argv[4])), color=(0, 0, 0, 0)).save(sys.argv[2], "PNG")')


def run(context):
    return {"inputs": [render_one(context, name) for name in context.settings["render_inputs"]]}


def render_one(context, name):
    folder = context.folder("render", name.replace(".", "-"))
    source = os.path.join(folder, "in" + os.path.splitext(name)[1])
    shutil.copy(context.input_path(name), source)
    bands = context.image_size(source)[2]
    # The vips CLI cannot make transparent bars around an image without alpha: add an alpha band
    # (opaque) between the thumbnail and the gravity, as creative-tool does.
    out = lambda file: os.path.join(folder, file)
    if bands == 3:
        vips_alpha = "vips bandjoin_const %s 255 && " % quote(out("vips-t.v"), out("vips-ta.v"))
    elif bands == 4:
        vips_alpha = "cp %s && " % quote(out("vips-t.v"), out("vips-ta.v"))
    else:
        raise BenchError("render: %s is expected to be RGB or RGBA, not %d bands" % (name, bands))
    size = "%dx%d" % (WIDTH, HEIGHT)
    tool_args = ["render", source, "--slot", "390x61", "--scale", "3"]
    commands = {
        "creative-tool": quote(context.binary, *tool_args, "--output", out("creative-tool.png")),
        FLOOR: quote(context.floor, source, out("floor.png"), WIDTH, HEIGHT),
        "ImageMagick": quote(CONVERT, source, "-resize", size, "-background", "none", "-gravity", "center",
                             "-extent", size, out("imagemagick.png")),
        "vips CLI (3 commands)": "vips thumbnail %s --height %d && %svips gravity %s centre %d %d --extend background "
                                 "--background '0 0 0 0'" % (quote(source, out("vips-t.v"), WIDTH), HEIGHT, vips_alpha,
                                                             quote(out("vips-ta.v"), out("vips.png")), WIDTH, HEIGHT),
        "Pillow": quote(context.python, "-c", PILLOW, source, out("pillow.png"), WIDTH, HEIGHT),
    }
    files = {"creative-tool": "creative-tool.png", FLOOR: "floor.png",
             "ImageMagick": "imagemagick.png", "vips CLI (3 commands)": "vips.png", "Pillow": "pillow.png"}
    # What the tool says it wrote, through its schema.
    written = context.run([context.binary] + tool_args + ["--output", out("json.png"), "--json"], "render --json")
    context.schemas.parse("render", written.stdout, "render --json")
    outputs = []
    for tool, command in commands.items():
        context.shell(command, "render: " + tool)
        # creative-tool may write RGBA, RGB + tRNS or a palette: 3 or 4 bands once loaded.
        allowed = (3, 4) if tool == "creative-tool" else (4,)
        outputs.append(context.check_output(tool, out(files[tool]), WIDTH, HEIGHT, allowed, transparent_corner=True))
    rows = [("creative-tool", commands["creative-tool"])]
    rows += context.system_row(*tool_args, "--output", out("system.png"))
    rows += [(tool, command) for tool, command in commands.items() if tool != "creative-tool"]
    # The same work as the floor's: a lossless PNG whatever it weighs (the default render meets the
    # 150K weight budget, which on a photograph means a palette search after the lossless encode).
    # The tool's writer filters photographs' rows (adaptive, zlib 4) and leaves flat art's
    # unfiltered; the floor is timed both ways, and the goal row takes the one whose file is
    # nearer the tool's in size.
    lossless = quote(context.binary, *tool_args, "--weight-budget", "1G", "--output", out("lossless.png"))
    adaptive = quote(context.floor, source, out("floor-adaptive.png"), WIDTH, HEIGHT, "all", "4")
    for tool, command, file in [(LOSSLESS, lossless, "lossless.png"), (ADAPTIVE_FLOOR, adaptive, "floor-adaptive.png")]:
        context.shell(command, "render: " + tool)
        allowed = (3, 4) if tool == LOSSLESS else (4,)
        outputs.append(context.check_output(tool, out(file), WIDTH, HEIGHT, allowed, transparent_corner=True))
    size = {output["tool"]: output["bytes"] for output in outputs}
    nearest = min((FLOOR, ADAPTIVE_FLOOR), key=lambda floor: abs(size[floor] - size[LOSSLESS]))
    same_work = [(LOSSLESS, lossless), (FLOOR, commands[FLOOR]), (ADAPTIVE_FLOOR, adaptive)]
    return {"input": context.describe_input(name), "width": WIDTH, "height": HEIGHT, "outputs": outputs,
            "comparison": context.compare("render-" + name.replace(".", "-"), rows),
            "lossless": context.compare("render-lossless-" + name.replace(".", "-"), same_work),
            "lossless_floor": nearest}
