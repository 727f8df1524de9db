#!/usr/bin/env python3
"""Benchmarks of creative-tool against its peers, whole process and side by side.

    bench/bench.py BINARY [SECTION...]        (`make bench`; `make bench SECTIONS=startup,peers`)

BINARY is the release build (`make bench` builds it, the system-libvips build beside it, and
installs the peers with `scripts/install-deps.sh bench` first). SECTIONS, in the order they run:
startup render bytes weight validate preflight process serve worker (the default), and memory
(`make bench-memory`); `peers` stands for render bytes validate process. Each is a module of
bench/harness/sections/.

Writes one JSON file (BENCH_RESULTS, default out/bench/results.json; rewritten after every
section, "complete" true once all ran) and prints the markdown report made from it on standard
output; hyperfine's progress and notes go to standard error. bench/tables.py writes the report's
tables into docs/performance.md. It only measures: there are no timing assertions. It fails (exit
1, "bench: ...") when a tool is missing, a peer does not write the output it is compared on, an
output of the tool does not match its JSON Schema, or a service stops during a run.

Environment: BENCH_SYSTEM_BINARY (the same tool on the system libvips: rows of its own), PEERS
(`thumbor` adds Thumbor to serve), BENCH_QUICK=1 (every count lowered, to try it), and the counts
of harness/settings.py (BENCH_RUNS, BENCH_WARMUP, BENCH_ROUNDS, BENCH_RSS_RUNS, BENCH_SERVE_*,
BENCH_MEMORY_*, BENCH_WORKER_*, BENCH_*_INPUTS); docs/performance.md lists them."""
import datetime
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import floor, report, settings as settings_module  # noqa: E402
from harness.context import CONVERT, GNU_TIME, REPO_DIR, Context, note  # noqa: E402
from harness.errors import BenchError  # noqa: E402
from harness.sections import DEFAULT, SECTIONS, resolve  # noqa: E402

USAGE = "usage: bench/bench.py BINARY [SECTION...] (BINARY: .build/release/creative-tool)"


def executable(path, what):
    if not path or not os.access(path, os.X_OK) or os.path.isdir(path):
        raise BenchError("%s %s is not an executable: build it first (`make bench` does)" % (what, path))
    return os.path.abspath(path)


def first_line(args):
    done = subprocess.run(args, capture_output=True, text=True)
    return (done.stdout or done.stderr).strip().splitlines()[0] if done.returncode == 0 else "unknown"


def load_average():
    with open("/proc/loadavg") as handle:
        return " ".join(handle.read().split()[:3])


def machine():
    cpu = "unknown"
    with open("/proc/cpuinfo") as handle:
        for line in handle:
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    return {"cores": os.cpu_count(), "cpu": cpu, "kernel": "%s %s" % (platform.system(), platform.release()),
            "load_start": load_average()}


def versions(context):
    found = {"creative-tool": "%s (%s)" % (first_line([context.binary, "--version"]), context.binary)}
    if context.system_binary:
        found["creative-tool on the system libvips"] = first_line([context.system_binary, "--version"])
    found["C floor (bench/floor.c)"] = "%s, %s" % (first_line([context.floor, "--version"]), context.floor_library)
    found["ImageMagick"] = first_line([CONVERT, "-version"]).replace("Version: ", "")
    found["vips CLI"] = first_line(["vips", "--version"])
    found["Pillow"] = "%s (%s)" % (first_line([context.python, "-c", "import PIL, sys; print(PIL.__version__, 'on Python',"
                                              " sys.version.split()[0])"]), context.python)
    found["hyperfine"] = first_line(["hyperfine", "--version"])
    # Paths inside the repository as the repository names them.
    return {name: text.replace(REPO_DIR + "/", "") for name, text in found.items()}


def setup(arguments, environment):
    if not arguments:
        raise BenchError(USAGE)
    binary = executable(arguments[0], "BINARY")
    asked = arguments[1:] or [word for word in environment.get("SECTIONS", "").replace(",", " ").split()] or DEFAULT
    try:
        sections = resolve(asked)
        settings = settings_module.read(environment)
    except ValueError as error:
        raise BenchError(str(error))
    peers = environment.get("PEERS", "").split()
    for peer in peers:
        if peer != "thumbor":
            raise BenchError("PEERS: no peer '%s' (have: thumbor)" % peer)
    system_binary = environment.get("BENCH_SYSTEM_BINARY") or None
    if system_binary:
        system_binary = executable(system_binary, "BENCH_SYSTEM_BINARY")
    for tool in ("hyperfine", "vips", "vipsheader"):
        if shutil.which(tool) is None:
            raise BenchError("%s is missing: run scripts/install-deps.sh bench" % tool)
    for path, name in ((CONVERT, "ImageMagick"), (GNU_TIME, "GNU time")):
        if not os.access(path, os.X_OK):
            raise BenchError("%s (%s) is missing: run scripts/install-deps.sh bench" % (path, name))
    from harness.schemas import Schemas  # jsonschema: the project's venv (scripts/python-tools.sh)
    return binary, system_binary, sections, settings, peers, Schemas()


def main(arguments, environment):
    binary, system_binary, sections, settings, peers, schemas = setup(arguments, environment)
    results_path = os.path.abspath(environment.get("BENCH_RESULTS") or os.path.join(REPO_DIR, "out", "bench",
                                                                                    "results.json"))
    work = tempfile.mkdtemp(prefix="creative-tool-bench.")
    context = Context(binary, system_binary, settings, peers, work, schemas)
    try:
        floor.build(context)
        results = {"written_by": "bench/bench.py", "format": 1, "complete": False,
                   "started": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
                   "machine": machine(), "versions": versions(context), "peers": peers,
                   "settings": settings, "sections": {}}
        os.makedirs(os.path.dirname(results_path), exist_ok=True)
        for name in sections:
            note("section %s" % name)
            results["sections"][name] = SECTIONS[name].run(context)
            results["machine"]["load_end"] = load_average()
            results["complete"] = name == sections[-1]
            write(results_path, results)
        print(report.whole(results), end="")
        note("results: %s (bench/tables.py %s rewrites docs/performance.md's tables)" % (results_path, results_path))
    finally:
        if context.started:
            context.stop(*context.started)
        shutil.rmtree(work, ignore_errors=True)


def write(path, results):
    temporary = path + ".tmp"
    with open(temporary, "w", encoding="utf-8") as handle:
        json.dump(results, handle, indent=1)
        handle.write("\n")
    os.replace(temporary, path)


if __name__ == "__main__":
    try:
        main(sys.argv[1:], os.environ)
    except BenchError as error:
        sys.exit("bench: %s" % error)
    except KeyboardInterrupt:
        sys.exit("bench: interrupted")
