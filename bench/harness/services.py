"""Services under wrk: `creative-tool serve` started on free loopback ports, one wrk run measured
with the service's CPU (/proc/PID/stat) and peak RSS (VmHWM), probes of one render over HTTP."""
import os
import re
import subprocess
import time
import urllib.error
import urllib.request

from . import stats
from .context import BENCH_DIR, note
from .errors import BenchError

WRK_SCRIPT = os.path.join(BENCH_DIR, "wrk-render.lua")
RENDER_QUERY = "/v1/render?slot=390x61&scale=3&format="
CONTENT_TYPES = {".png": "image/png", ".jpg": "image/jpeg"}


def content_type(name):
    extension = os.path.splitext(name)[1]
    if extension not in CONTENT_TYPES:
        raise BenchError("no content type for " + name)
    return CONTENT_TYPES[extension]


class Service:
    """A started service: its processes (the first is the one started) and its base URL."""

    def __init__(self, name, processes, url, log):
        self.name, self.processes, self.url, self.log = name, processes, url, log

    @property
    def pids(self):
        return [process.pid for process in self.processes]

    def check_alive(self):
        for process in self.processes:
            if process.poll() is not None:
                with open(self.log) as handle:
                    tail = " ".join(handle.read().strip().splitlines()[-5:])
                raise BenchError("%s (pid %d) exited during the run (status %s); its log ends: %s"
                                 % (self.name, process.pid, process.returncode, tail))

    def cpu_seconds(self):
        ticks = 0
        for pid in self.pids:
            with open("/proc/%d/stat" % pid) as handle:
                ticks += stats.cpu_ticks(handle.read())
        return ticks / os.sysconf("SC_CLK_TCK")

    def memory_mib(self, key):
        """The sum over the processes of VmRSS or VmHWM, MiB."""
        total = 0
        for pid in self.pids:
            with open("/proc/%d/status" % pid) as handle:
                total += stats.status_kib(handle.read(), key)
        return round(total / 1024, 1)


def start_serve(context, binary, name, preload=""):
    """`BINARY serve` on free loopback ports (--port 0), its port read from its "listening" log line."""
    log = os.path.join(context.work, "serve.log")
    environment = dict(os.environ)
    if preload:
        environment["LD_PRELOAD"] = preload
    with open(log, "w") as handle:
        process = subprocess.Popen([binary, "serve", "--host", "127.0.0.1", "--port", "0", "--admin-port", "0"],
                                   stdout=subprocess.DEVNULL, stderr=handle, env=environment)
    context.started.append(process)
    for _ in range(100):
        with open(log) as handle:
            match = re.search(r'"event":"listening".*"port":(\d+)', handle.read())
        if match:
            return Service(name, [process], "http://127.0.0.1:%s" % match.group(1), log)
        if process.poll() is not None:
            break
        time.sleep(0.1)
    with open(log) as handle:
        raise BenchError("serve: the service did not start: " + handle.read().strip()[-500:])


def wrk(url, connections, seconds, variables, latency=False):
    """One wrk run of bench/wrk-render.lua with VARIABLES (ARTWORK, CONTENT_TYPE, FORMAT or
    GET_PATH) in its environment; the RESULT line, typed."""
    command = ["wrk", "-t2", "-c%d" % connections, "-d%ds" % seconds] + (["--latency"] if latency else []) + \
        ["-s", WRK_SCRIPT, url]
    done = subprocess.run(command, capture_output=True, text=True, env=dict(os.environ, **variables))
    if done.returncode != 0:
        raise BenchError("wrk failed: " + (done.stderr or done.stdout).strip()[-300:])
    try:
        return stats.parse_wrk_result(done.stdout)
    except ValueError as error:
        raise BenchError(str(error))


def render_variables(path, format_name):
    return {"ARTWORK": path, "CONTENT_TYPE": content_type(path), "FORMAT": format_name}


def measured_run(service, connections, seconds, variables, labels):
    """One wrk run against the service, one row: renders/s, p50/p99, CPU ms per render (the
    service's user + system time over the run over the renders answered), peak RSS (VmHWM),
    mean bytes per response, errors."""
    note("serve: %s, %s, %d connections, %d s" % (service.name, ", ".join(str(value) for key, value in labels.items() if key != "service"),
                                                   connections, seconds))
    before = service.cpu_seconds()
    result = wrk(service.url, connections, seconds, variables, latency=True)
    service.check_alive()
    cpu = service.cpu_seconds() - before
    requests = result["requests"]
    return dict(labels, connections=connections, seconds=seconds, renders_per_second=result["rps"],
                p50_ms=result["p50_ms"], p99_ms=result["p99_ms"],
                cpu_ms_per_render=round(cpu * 1e3 / requests, 2) if requests else None,
                peak_rss_mib=service.memory_mib("VmHWM"),
                bytes_per_response=result["bytes"] // requests if requests else None,
                non2xx=result["non2xx"], socket_errors=result["socket_errors"])


def probe_render(context, service, path, format_name, out):
    """One POST /v1/render; (True, None) once the answer is a 1170x183 image written to OUT, or
    (False, reason) when format=auto is refused (a build without it). Any other failure, and an
    error body that does not match schemas/error.schema.json, is a BenchError."""
    with open(path, "rb") as handle:
        request = urllib.request.Request(service.url + RENDER_QUERY + format_name, data=handle.read(),
                                         headers={"Content-Type": content_type(path)})
    try:
        with urllib.request.urlopen(request, timeout=120) as answer:
            body = answer.read()
    except urllib.error.HTTPError as error:
        document = context.schemas.parse("error", error.read().decode("utf-8", "replace"),
                                         "serve's error body for format=%s" % format_name)
        reason = "format=%s answered %d %s" % (format_name, error.code, document.get("code", ""))
        if format_name == "auto":
            return False, reason
        raise BenchError("serve: " + reason)
    with open(out, "wb") as handle:
        handle.write(body)
    width, height, _ = context.image_size(out)
    if (width, height) != (1170, 183):
        raise BenchError("serve: format=%s on %s answered %dx%d, not 1170x183"
                         % (format_name, os.path.basename(path), width, height))
    return True, None
