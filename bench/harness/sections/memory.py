"""memory: `serve`'s resident memory over a long run (BENCH_MEMORY_SECONDS, default 600) of wrk
runs (BENCH_MEMORY_STEP seconds each, default 60) cycling 4, 8 and 16 connections, the three
inputs and png/auto, once per allocator of BENCH_MEMORY_ALLOCATORS (glibc's malloc with the one
arena the tool sets, and Debian's jemalloc preloaded). Not in the default sections: `make
bench-memory` runs it."""
import datetime
import glob

from .. import services
from ..context import INPUT_NAMES
from ..errors import BenchError

CONNECTIONS = [4, 8, 16]
FORMATS = ["png", "auto"]


def preload(allocator):
    if allocator == "glibc":
        return ""
    if allocator == "jemalloc":
        found = sorted(glob.glob("/usr/lib/*/libjemalloc.so.2"))
        if not found:
            raise BenchError("memory: libjemalloc.so.2 missing: run scripts/install-deps.sh bench")
        return found[0]
    raise BenchError("memory: no allocator '%s' (have: glibc jemalloc)" % allocator)


def schedule(total, step):
    """[(connections, input, format)] of each run: connections cycle every run, the input every
    three runs, the format every other run."""
    runs = -(-total // step)
    return [(CONNECTIONS[run % 3], INPUT_NAMES[(run // 3) % len(INPUT_NAMES)], FORMATS[run % 2]) for run in range(runs)]


def run(context):
    context.need("wrk")
    settings = context.settings
    total, step = settings["memory_seconds"], settings["memory_step"]
    with open("/proc/loadavg") as handle:
        load = " ".join(handle.read().split()[:3])
    result = {"seconds": total, "step_seconds": step, "date": datetime.date.today().isoformat(), "load_start": load,
              "allocators": []}
    for allocator in settings["memory_allocators"]:
        service = services.start_serve(context, context.binary, "creative-tool", preload(allocator))
        runs = []
        try:
            for index, (connections, name, format_name) in enumerate(schedule(total, step), 1):
                answer = services.wrk(service.url, connections, step,
                                      services.render_variables(context.input_path(name), format_name))
                service.check_alive()
                runs.append({"run": index, "elapsed_seconds": index * step, "connections": connections, "input": name,
                             "format": format_name, "renders_per_second": answer["rps"],
                             "rss_mib": service.memory_mib("VmRSS"), "peak_rss_mib": service.memory_mib("VmHWM")})
        finally:
            context.stop(*service.processes)
        result["allocators"].append({"allocator": allocator, "preload": preload(allocator) or None, "runs": runs})
    return result
