"""The C floor (bench/floor.c), compiled against the libvips file the tool loads: the wheel's,
linked by its path and found through a run path, or the system's, through pkg-config."""
import os
import shutil

from .context import BENCH_DIR, REPO_DIR
from .errors import BenchError


def build(context):
    """Compiles the floor into the run's folder; sets context.floor and context.floor_library."""
    ldd = context.run(["ldd", context.binary], "ldd " + context.binary).stdout
    library = next((line.split()[2] for line in ldd.splitlines() if "libvips" in line and "=>" in line), "")
    if not os.path.isfile(library):
        raise BenchError("cannot tell which libvips %s loads (ldd)" % context.binary)
    compiler = shutil.which("clang") or shutil.which("cc")
    if not compiler:
        raise BenchError("no C compiler (clang or cc) for bench/floor.c")
    wheel_lib = os.path.join(REPO_DIR, ".build", "libvips", "lib")
    environment = dict(os.environ)
    environment["PKG_CONFIG_PATH"] = os.path.join(wheel_lib, "pkgconfig") + (
        ":" + os.environ["PKG_CONFIG_PATH"] if os.environ.get("PKG_CONFIG_PATH") else "")
    cflags = context.run(["pkg-config", "--cflags", "vips"], "no libvips headers for bench/floor.c (libvips-dev):"
                         " pkg-config", env=environment).stdout.split()
    floor = os.path.join(context.work, "floor")
    command = [compiler, "-O2", "-o", floor, os.path.join(BENCH_DIR, "floor.c")] + cflags
    if os.path.dirname(library) == wheel_lib:
        command += [library, "-Wl,-rpath," + wheel_lib]
    else:
        command += context.run(["pkg-config", "--libs", "vips"], "pkg-config --libs vips").stdout.split()
    context.run(command, "bench/floor.c did not build")
    context.floor, context.floor_library = floor, library
