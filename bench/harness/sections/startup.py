"""startup: `--version`, the whole start of the process (dynamic loading, libvips' start), beside
the C floor's start on the same libvips and the vips CLI's."""
from ..context import SYSTEM_NAME, quote


def run(context):
    rows = [("creative-tool", quote(context.binary, "--version") + " >/dev/null")]
    if context.system_binary:
        rows.append((SYSTEM_NAME, quote(context.system_binary, "--version") + " >/dev/null"))
    rows.append(("C floor (bench/floor.c), same libvips", quote(context.floor, "--version") + " >/dev/null"))
    rows.append(("vips CLI --version", "vips --version >/dev/null"))
    return {"comparison": context.compare("startup", rows)}
