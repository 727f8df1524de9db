"""The worker's benchmark (the harness's `worker` section, bench/harness/sections/worker.py): `creative-tool worker` against the
`process` CLI on the same files, and the time from XADD to the result at a stated load.

    python3 bench/worker.py BINARY WEED

Starts its own redis-server and SeaweedFS (`weed server -s3`) on free loopback ports in a
temporary folder. The inputs are JOBS distinct copies of the 960x150 test artwork (a text chunk
makes each one other bytes, so each is a job of its own, not an answer from an earlier
manifest), processed with --format png. It reports:
- CPU seconds per job and jobs per second per core (jobs / CPU seconds) of `process`, one run
  per file, and of the worker (its own CPU, read from /proc, while it does the same jobs with
  --concurrency 1), and the worker's overhead against `process`;
- wall-clock jobs/s with every core busy: `process` runs side by side, and one worker with
  --concurrency CORES;
- XADD -> result latency p50/p99 (both times are Redis's own: the entry IDs) with jobs added at
  a fixed rate, half the worker's measured throughput, then as one burst.
Environment: BENCH_WORKER_JOBS (default 200), BENCH_WORKER_PACED (default 100).
Alone, prints its markdown table on standard output; only measures, asserts nothing.
"""
import json
import os
import resource
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import time
import zlib
from concurrent.futures import ThreadPoolExecutor

from harness.stats import percentile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ARTWORK = os.path.join(REPO, "TestImages", "test-artwork-960x150.png")
KEY, SECRET, BUCKET = "bench-key", "bench-secret", "bench"


def free_ports(count):
    sockets, ports = [], []
    while len(ports) < count:
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        sockets.append(s)
        if s.getsockname()[1] < 55000:
            ports.append(s.getsockname()[1])
    for s in sockets:
        s.close()
    return ports


def variant(artwork, index):
    """The artwork with a tEXt chunk before IEND: same pixels, other bytes."""
    data = b"Comment\0bench job %d" % index
    chunk = struct.pack(">I", len(data)) + b"tEXt" + data + struct.pack(">I", zlib.crc32(b"tEXt" + data))
    return artwork[:-12] + chunk + artwork[-12:]


class Servers:
    def __init__(self, folder, weed):
        self.folder = folder
        ports = free_ports(9)
        self.redis_port, self.s3_port = ports[0], ports[1]
        self.processes = []
        with open(os.path.join(folder, "s3.json"), "w") as config:
            config.write('{"identities":[{"name":"bench","credentials":[{"accessKey":"%s","secretKey":"%s"}],'
                         '"actions":["Admin","Read","Write","List"]}]}' % (KEY, SECRET))
        log = open(os.path.join(folder, "servers.log"), "w")
        self.processes.append(subprocess.Popen(
            ["redis-server", "--port", str(self.redis_port), "--bind", "127.0.0.1", "--save", "", "--dir", folder],
            stdout=log, stderr=log))
        p = ports[2:]
        os.makedirs(os.path.join(folder, "weed"))
        self.processes.append(subprocess.Popen(
            [weed, "server", "-dir=" + os.path.join(folder, "weed"), "-ip=127.0.0.1", "-ip.bind=127.0.0.1",
             f"-master.port={p[0]}", f"-master.port.grpc={p[1]}", f"-volume.port={p[2]}", f"-volume.port.grpc={p[3]}",
             f"-filer.port={p[4]}", f"-filer.port.grpc={p[5]}", "-s3", f"-s3.port={self.s3_port}",
             f"-s3.port.grpc={p[6]}", "-s3.port.iceberg=0", "-s3.port.lance=0",
             "-s3.config=" + os.path.join(folder, "s3.json"), "-master.volumeSizeLimitMB=32", "-volume.max=100"],
            stdout=log, stderr=log, env=dict(os.environ, TMPDIR=folder)))

    def redis(self, *commands):
        """Runs redis-cli commands (one per line); its output lines."""
        text = "".join(" ".join(f'"{word}"' for word in command) + "\n" for command in commands)
        out = subprocess.run(["redis-cli", "-p", str(self.redis_port)], input=text, capture_output=True,
                             text=True, check=True).stdout
        return out.splitlines()

    def stop(self):
        for process in self.processes:
            process.terminate()
        for process in self.processes:
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                process.kill()


def environment():
    return dict(os.environ, AWS_ACCESS_KEY_ID=KEY, AWS_SECRET_ACCESS_KEY=SECRET, AWS_REGION="us-east-1")


def fleet_args(servers, stream):
    return ["--redis", f"redis://127.0.0.1:{servers.redis_port}", "--store", f"s3://{BUCKET}/bench",
            "--s3-endpoint", f"http://127.0.0.1:{servers.s3_port}", "--stream", stream]


def wait_for_store(binary, servers, probe):
    deadline = time.time() + 90
    while time.time() < deadline:
        run = subprocess.run([binary, "enqueue", probe] + fleet_args(servers, "bench-setup"),
                             env=environment(), capture_output=True, text=True)
        if run.returncode == 0:
            return
        time.sleep(1)
    sys.exit("bench worker: the store did not start: " + run.stderr)


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def results(servers, stream, count, seconds=600):
    """[(job entry ms, result entry ms)] once `count` results are in."""
    deadline = time.time() + seconds
    while time.time() < deadline:
        length = int(servers.redis(["XLEN", stream + ":results"])[0])
        if length >= count:
            break
        time.sleep(0.05)
    out = subprocess.run(["redis-cli", "-p", str(servers.redis_port), "--json", "XRANGE", stream + ":results", "-", "+"],
                         capture_output=True, text=True, check=True).stdout
    pairs = []
    for result_id, flat in json.loads(out):
        fields = dict(zip(flat[0::2], flat[1::2]))
        pairs.append((int(fields["entry"].split("-")[0]), int(result_id.split("-")[0])))
    return pairs


def start_worker(binary, servers, stream, concurrency, log):
    return subprocess.Popen([binary, "worker", "--consumer", f"bench-{stream}", "--concurrency", str(concurrency),
                             "--admin-port", "0", "--format", "png"] + fleet_args(servers, stream),
                            env=environment(), stdout=log, stderr=log)


def measure(binary, weed, jobs=200, paced_jobs=100, parse_enqueue=None):
    """The worker's figures as a dict (bench/harness/report.py prints them). parse_enqueue reads
    one `enqueue` output into its JSON (the harness checks it against schemas/enqueue.schema.json);
    plain json.loads without it."""
    parse_enqueue = parse_enqueue or json.loads
    cores = os.cpu_count() or 1
    folder = tempfile.mkdtemp(prefix="creative-tool-bench-worker.")
    servers = Servers(folder, weed)
    try:
        artwork = open(ARTWORK, "rb").read()
        files = []
        # Three batches of distinct inputs: serial, paced, burst.
        for index in range(2 * jobs + paced_jobs):
            path = os.path.join(folder, f"job-{index}.png")
            with open(path, "wb") as out:
                out.write(variant(artwork, index))
            files.append(path)
        wait_for_store(binary, servers, files[0])
        # Sources on the store first (enqueue into a stream no worker reads): their keys.
        sources = []
        with ThreadPoolExecutor(cores) as pool:
            runs = pool.map(lambda path: subprocess.run(
                [binary, "enqueue", path] + fleet_args(servers, "bench-setup"), env=environment(),
                capture_output=True, text=True, check=True).stdout, files)
            for out in runs:
                sources.append(parse_enqueue(out)["source"])
        batches = [sources[:jobs], sources[jobs:jobs + paced_jobs], sources[jobs + paced_jobs:]]

        # process, one file at a time: CPU per job.
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.monotonic()
        for index, path in enumerate(files[:jobs]):
            subprocess.run([binary, "process", path, "--output-dir", os.path.join(folder, f"out-{index}"),
                            "--format", "png"], check=True, stdout=subprocess.DEVNULL)
        process_wall = time.monotonic() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        process_cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        # process, every core busy.
        start = time.monotonic()
        with ThreadPoolExecutor(cores) as pool:
            list(pool.map(lambda item: subprocess.run(
                [binary, "process", item[1], "--output-dir", os.path.join(folder, f"par-{item[0]}"), "--format", "png"],
                check=True, stdout=subprocess.DEVNULL), enumerate(files[:jobs])))
        process_parallel = jobs / (time.monotonic() - start)

        log = open(os.path.join(folder, "worker.log"), "w")
        # The worker, one job at a time: its own CPU per job (the idle start-up subtracted).
        worker = start_worker(binary, servers, "serial", 1, log)
        time.sleep(2)
        idle_cpu = cpu_seconds(worker.pid)
        servers.redis(*[["XADD", "serial", "*", "source", source] for source in batches[0]])
        serial = results(servers, "serial", jobs)
        worker_cpu = cpu_seconds(worker.pid) - idle_cpu
        serial_wall = (max(r for _, r in serial) - min(a for a, _ in serial)) / 1000
        worker.terminate()
        worker.wait(60)

        # The worker with every core: burst throughput and latency.
        worker = start_worker(binary, servers, "burst", cores, log)
        time.sleep(2)
        servers.redis(*[["XADD", "burst", "*", "source", source] for source in batches[2]])
        burst = results(servers, "burst", jobs)
        burst_wall = (max(r for _, r in burst) - min(a for a, _ in burst)) / 1000
        worker_parallel = jobs / burst_wall
        worker.terminate()
        worker.wait(60)

        # Paced: jobs added at half the measured throughput.
        rate = worker_parallel / 2
        worker = start_worker(binary, servers, "paced", cores, log)
        time.sleep(2)
        start = time.monotonic()
        for index, source in enumerate(batches[1]):
            delay = start + index / rate - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            servers.redis(["XADD", "paced", "*", "source", source])
        paced = results(servers, "paced", paced_jobs)
        worker.terminate()
        worker.wait(60)

        process_per_core = jobs / process_cpu
        worker_per_core = jobs / worker_cpu
        paced_latency = [(r - a) for a, r in paced]
        burst_latency = [(r - a) for a, r in burst]
        return {
            "jobs": jobs, "cores": cores,
            "process": {"cpu_seconds_per_job": process_cpu / jobs, "jobs_per_second_per_core": process_per_core,
                        "wall_jobs_per_second_serial": jobs / process_wall,
                        "wall_jobs_per_second_parallel": process_parallel},
            "worker": {"cpu_seconds_per_job": worker_cpu / jobs, "jobs_per_second_per_core": worker_per_core,
                       "wall_jobs_per_second_serial": jobs / serial_wall,
                       "wall_jobs_per_second_parallel": worker_parallel},
            "worker_cpu_over_process_percent": 100 * (worker_cpu / process_cpu - 1),
            "latency_ms": [
                {"load": "paced", "rate_jobs_per_second": rate, "jobs": len(paced_latency),
                 "p50": percentile(paced_latency, 0.5), "p99": percentile(paced_latency, 0.99),
                 "max": max(paced_latency)},
                {"load": "burst", "jobs": len(burst_latency), "p50": percentile(burst_latency, 0.5),
                 "p99": percentile(burst_latency, 0.99), "max": max(burst_latency)},
            ],
        }
    finally:
        servers.stop()
        shutil.rmtree(folder, ignore_errors=True)


def main():
    from harness import report
    result = measure(sys.argv[1], sys.argv[2], int(os.environ.get("BENCH_WORKER_JOBS", "200")),
                     int(os.environ.get("BENCH_WORKER_PACED", "100")))
    print(report.worker(result))


if __name__ == "__main__":
    main()
