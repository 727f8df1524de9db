"""The C floors (bench/floor.c, a render; bench/floor-process.c, a process job's render files),
compiled against the libvips file the tool loads: the wheel's, linked by its path and found through
a run path, or the system's, through pkg-config."""
import os
import shutil

from .context import BENCH_DIR, REPO_DIR
from .errors import BenchError


# (source in bench/, binary in the run's folder, the context's attribute)
PROGRAMS = [("floor.c", "floor", "floor"), ("floor-process.c", "floor-process", "floor_process")]


def build(context):
    """Compiles the floors into the run's folder; sets context.floor, context.floor_process and
    context.floor_library."""
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
    if os.path.dirname(library) == wheel_lib:
        libs = [library, "-Wl,-rpath," + wheel_lib]
    else:
        libs = context.run(["pkg-config", "--libs", "vips"], "pkg-config --libs vips").stdout.split()
    for source, name, attribute in PROGRAMS:
        binary = os.path.join(context.work, name)
        context.run([compiler, "-O2", "-o", binary, os.path.join(BENCH_DIR, source)] + cflags + libs,
                    "bench/%s did not build" % source)
        setattr(context, attribute, binary)
    context.floor_library = library
