"""serve: `serve` on a free loopback port under wrk (bench/wrk-render.lua: POST /v1/render, slot
390x61 @3x) at each of BENCH_SERVE_CONNECTIONS on each input and format: renders/s, latency, CPU
per render (the process's utime + stime over the run, from /proc), peak RSS (VmHWM); then the
try-it page's job (bench/harness/tryit.py), alone and beside other uploads. The system
libvips build gets rows of its own; PEERS=thumbor runs Thumbor beside it on the same letterbox
job. Then what each service answered, with SSIM against creative-tool's lossless format=png answer
(`weight_budget=1G`: under the default 150K budget a photograph's PNG is a palette)."""
import os
import signal
import socket
import subprocess
import time
import urllib.request

from .. import services, tryit
from ..context import BENCH_DIR, REPO_DIR, SYSTEM_NAME, note
from ..errors import BenchError


def run(context):
    context.need("wrk")
    settings = context.settings
    result = {"seconds": settings["serve_seconds"], "warmup_seconds": settings["serve_warmup"],
              "processors": os.cpu_count(), "rows": [], "probes": [], "thumbor": None}
    builds = [("creative-tool", context.binary)]
    if context.system_binary:
        builds.append((SYSTEM_NAME, context.system_binary))
    for name, binary in builds:
        service_rows(context, result, services.start_serve(context, binary, name))
    # The try-it page's job on a service of its own (the wrk runs above leave theirs warm).
    service = services.start_serve(context, context.binary, "creative-tool")
    try:
        result["tryit"] = tryit.run(service, context.input_path("photo.jpg"), settings["serve_tryit_runs"])
    finally:
        context.stop(*service.processes)
    if "thumbor" in context.peers:
        result["thumbor"] = thumbor_rows(context, result)
    result["responses"] = responses(context, result["probes"])
    return result


# The reference every answer is scored against: lossless PNG, whatever it weighs.
LOSSLESS = "png&weight_budget=1G"


def probe_file(context, service, name, format_name):
    tag = "" if service == "creative-tool" else "-" + "".join(c for c in service.lower() if c.isalpha())
    return os.path.join(context.work, "probe-%s-%s%s" % (name.replace(".", "-"), format_name, tag))


def service_rows(context, result, service):
    settings = context.settings
    try:
        for name in settings["serve_inputs"]:
            path = context.input_path(name)
            services.wrk(service.url, 4, settings["serve_warmup"], services.render_variables(path, "png"))
            service.check_alive()
            for format_name in settings["serve_formats"]:
                out = probe_file(context, service.name, name, format_name)
                answered, reason = services.probe_render(context, service, path, format_name, out)
                labels = {"service": service.name, "input": name, "format": format_name}
                if not answered:
                    result["rows"].append(dict(labels, not_run=reason))
                    continue
                result["probes"].append(dict(labels, file=out))
                if service.name == "creative-tool" and format_name == "png":
                    reference = probe_file(context, service.name, name, "lossless")
                    if not services.probe_render(context, service, path, LOSSLESS, reference)[0]:
                        raise BenchError("serve: no lossless reference for " + name)
                for connections in settings["serve_connections"]:
                    result["rows"].append(services.measured_run(
                        service, connections, settings["serve_seconds"],
                        services.render_variables(path, format_name), labels))
    finally:
        context.stop(*service.processes)


def responses(context, probes):
    """Each probe's encoding, bytes and SSIM against creative-tool's lossless format=png answer on
    the same input (bench/ssim.py), when scikit-image is there."""
    if subprocess.run([context.python, "-c", "import skimage"], capture_output=True).returncode != 0:
        return []
    rows = []
    for probe in probes:
        reference = probe_file(context, "creative-tool", probe["input"], "lossless")
        if not os.path.isfile(reference):
            continue
        line = context.run([context.python, os.path.join(BENCH_DIR, "ssim.py"), reference, probe["file"]],
                           "bench/ssim.py").stdout.strip()
        size, what, ssim = line.split("\t")
        rows.append({"service": probe["service"], "input": probe["input"], "format": probe["format"],
                     "written_as": what, "bytes": int(size), "ssim": float(ssim)})
    return rows


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def thumbor_rows(context, result):
    """Thumbor (from PyPI, in .build/venv) with one process per processor and its file loader on
    the inputs folder, on its letterbox URL for the same 1170x183 render with white bars. Its rows
    join result's; returns the note that describes it (or says why it did not run)."""
    settings = context.settings
    tools = subprocess.run([os.path.join(REPO_DIR, "scripts", "python-tools.sh"), "thumbor"],
                           capture_output=True, text=True)
    if tools.returncode == 3:
        return {"ran": False, "note": "Thumbor: not run, PyPI could not be reached to install it into .build/venv."}
    if tools.returncode != 0:
        raise BenchError("serve: installing Thumbor failed (exit %d)" % tools.returncode)
    thumbor = os.path.join(tools.stdout.strip(), "thumbor")
    folder = os.path.dirname(context.input_path("artwork.png"))
    conf = os.path.join(context.work, "thumbor.conf")
    with open(conf, "w") as handle:
        handle.write("LOADER = 'thumbor.loaders.file_loader'\nFILE_LOADER_ROOT_PATH = '%s'\n"
                     "STORAGE = 'thumbor.storages.no_storage'\nRESULT_STORAGE = None\n" % folder)
    port, processors = free_port(), os.cpu_count() or 1
    log = os.path.join(context.work, "thumbor.log")
    with open(log, "w") as handle:
        parent = subprocess.Popen([thumbor, "--ip", "127.0.0.1", "--port", str(port), "--conf", conf,
                                   "--processes", str(processors)], stdout=handle, stderr=handle)
    context.started.append(parent)
    url = "http://127.0.0.1:%d" % port
    for _ in range(150):
        try:
            urllib.request.urlopen(url + "/healthcheck", timeout=2).read()
            break
        except OSError:
            if parent.poll() is not None:
                raise BenchError("serve: Thumbor did not start: " + open(log).read()[-500:])
            time.sleep(0.2)
    else:
        raise BenchError("serve: Thumbor did not answer /healthcheck: " + open(log).read()[-500:])
    # Its processes: the parent and the forked children that serve (not started here: watched only).
    children = subprocess.run(["pgrep", "-P", str(parent.pid)], capture_output=True, text=True).stdout.split()
    version_text = subprocess.run([thumbor, "--version"], capture_output=True, text=True)
    version = next((word.lstrip("v") for word in (version_text.stdout + version_text.stderr).split()
                    if word.lstrip("v")[:1].isdigit()), "")
    name = ("Thumbor " + version).strip()
    service = services.Service(name, [parent] + [Child(int(pid)) for pid in children], url, log)
    try:
        for input_name in settings["serve_inputs"]:
            path = "/unsafe/fit-in/1170x183/filters:fill(white)/" + input_name
            out = probe_file(context, name, input_name, "source")
            with urllib.request.urlopen(url + path, timeout=120) as answer, open(out, "wb") as handle:
                handle.write(answer.read())
            width, height, _ = context.image_size(out)
            if (width, height) != (1170, 183):
                raise BenchError("serve: Thumbor answered %dx%d for %s, not 1170x183" % (width, height, input_name))
            labels = {"service": name, "input": input_name, "format": "source's, white bars"}
            result["probes"].append(dict(labels, file=out))
            services.wrk(url, 4, settings["serve_warmup"], {"GET_PATH": path})
            for connections in settings["serve_connections"]:
                result["rows"].append(services.measured_run(service, connections, settings["serve_seconds"],
                                                            {"GET_PATH": path}, labels))
    finally:
        note("serve: stopping Thumbor")
        for child in service.processes[1:]:
            child.terminate()
        context.stop(parent)
    return {"ran": True, "version": version, "processes": processors,
            "note": "%s: %d processes (`--processes`), PIL engine, file loader on the inputs, no storage; "
                    "`GET /unsafe/fit-in/1170x183/filters:fill(white)/NAME` (the source's format, white bars). "
                    "CPU and RSS are the sum over its processes." % (name, processors)}


class Child:
    """A process this run did not start but measures (a forked Thumbor worker): a pid and a poll."""

    def __init__(self, pid):
        self.pid, self.returncode = pid, None

    def poll(self):
        return None if os.path.exists("/proc/%d" % self.pid) else 1

    def terminate(self):
        try:
            os.kill(self.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
