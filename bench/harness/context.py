"""What every section uses: the binaries, the settings, the temporary folder, the inputs, and the
one way of timing commands side by side (hyperfine in interleaved rounds, then peak RSS)."""
import json
import os
import shlex
import shutil
import subprocess
import sys

from . import stats
from .errors import BenchError

BENCH_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPO_DIR = os.path.dirname(BENCH_DIR)
ARTWORK = os.path.join(REPO_DIR, "TestImages", "test-artwork-2184x270.png")
# ImageMagick by full path: another `convert` on PATH may not be ImageMagick.
CONVERT = "/usr/bin/convert"
GNU_TIME = "/usr/bin/time"
INPUT_NAMES = ["artwork.png", "photo.png", "photo.jpg"]
SYSTEM_NAME = "creative-tool, system libvips"


def quote(*words):
    """The words as one bash command line (hyperfine and GNU time run commands with bash)."""
    return " ".join(shlex.quote(str(word)) for word in words)


def note(message):
    print("bench: " + message, file=sys.stderr, flush=True)


class Context:
    """One benchmark run. binary and system_binary are absolute paths (system_binary None without
    that build); floor and floor_process are the C floors' binaries once harness.floor has built them."""

    def __init__(self, binary, system_binary, settings, peers, work, schemas):
        self.binary, self.system_binary = binary, system_binary
        self.settings, self.peers, self.work, self.schemas = settings, peers, work, schemas
        self.python = find_python()
        self.floor = self.floor_process = None
        self.started = []
        self._inputs = None

    # Commands ---------------------------------------------------------------------------------

    def run(self, args, what, **options):
        """args run to completion, its CompletedProcess (text); BenchError naming WHAT when it fails."""
        options.setdefault("capture_output", True)
        try:
            done = subprocess.run(args, text=True, **options)
        except OSError as error:
            raise BenchError("%s: %s" % (what, error))
        if done.returncode != 0:
            detail = (done.stderr or done.stdout or "").strip().splitlines()[-1:] if options["capture_output"] else []
            raise BenchError("%s failed (exit %d)%s" % (what, done.returncode, ": " + detail[0] if detail else ""))
        return done

    def shell(self, command, what):
        return self.run(["bash", "-c", command], what)

    def need(self, *tools):
        for tool in tools:
            if shutil.which(tool) is None:
                raise BenchError("%s is missing: run scripts/install-deps.sh bench" % tool)

    def need_python(self, *modules):
        for module in modules:
            if subprocess.run([self.python, "-c", "import " + module], capture_output=True).returncode != 0:
                raise BenchError("%s has no %s: run scripts/install-deps.sh bench" % (self.python, module))

    def folder(self, *parts):
        path = os.path.join(self.work, *parts)
        os.makedirs(path, exist_ok=True)
        return path

    def system_row(self, *args):
        """[(name, command)] of the same tool command on the system-libvips build, or []."""
        if not self.system_binary:
            return []
        return [(SYSTEM_NAME, quote(self.system_binary, *args) + " >/dev/null")]

    # Images -----------------------------------------------------------------------------------

    def image_size(self, path):
        """(width, height, bands) as libvips loads the file."""
        fields = [self.run(["vipsheader", "-f", field, path], "vipsheader " + path).stdout.strip()
                  for field in ("width", "height", "bands")]
        return tuple(int(field) for field in fields)

    def check_output(self, name, path, width, height, bands=(4,), transparent_corner=False):
        """The output of one tool, checked to be width x height with one of `bands` (libvips loads
        a palette PNG as RGB, or RGBA when it has transparency) and, when asked, a transparent
        top-left pixel (a bar); {tool, file, bytes, header}. BenchError otherwise: the comparison
        would not be fair."""
        if not os.path.isfile(path) or os.path.getsize(path) == 0:
            raise BenchError("%s wrote no output (%s)" % (name, path))
        actual = self.image_size(path)
        if actual[:2] != (width, height) or actual[2] not in bands:
            raise BenchError("%s wrote %dx%d, %d bands, not %dx%d with %s bands: the comparison would not be fair"
                             % ((name,) + actual + (width, height, " or ".join(map(str, bands)))))
        if transparent_corner:
            alpha = self.run(["vips", "getpoint", path, "0", "0"], "vips getpoint").stdout.split()[-1]
            if float(alpha) != 0:
                raise BenchError("%s: the bars of %s are not transparent (top-left alpha %s)" % (name, path, alpha))
        header = self.run(["vipsheader", path], "vipsheader").stdout.strip()
        return {"tool": name, "file": os.path.basename(path), "bytes": os.path.getsize(path),
                "header": header.replace(os.path.dirname(path) + "/", "")}

    def inputs(self):
        """{name: path} of artwork.png (the test artwork), photo.png and photo.jpg (bench/photo.py's
        photographic banner, the JPEG at quality 92), made once per run."""
        if self._inputs is None:
            self.need_python("numpy")
            folder = self.folder("inputs")
            if not os.path.isfile(ARTWORK):
                raise BenchError("test artwork missing: " + ARTWORK)
            shutil.copy(ARTWORK, os.path.join(folder, "artwork.png"))
            self.run([self.python, os.path.join(BENCH_DIR, "photo.py"), os.path.join(folder, "photo.png"),
                      os.path.join(folder, "photo.jpg")], "bench/photo.py")
            self._inputs = {name: os.path.join(folder, name) for name in INPUT_NAMES}
        return self._inputs

    def input_path(self, name):
        inputs = self.inputs()
        if name not in inputs:
            raise BenchError("no input %s (have: %s)" % (name, " ".join(INPUT_NAMES)))
        return inputs[name]

    def describe_input(self, name):
        path = self.input_path(name)
        width, height, bands = self.image_size(path)
        return {"name": name, "width": width, "height": height, "bands": bands, "bytes": os.path.getsize(path)}

    # Timing -----------------------------------------------------------------------------------

    def compare(self, section, rows, runs=None):
        """The commands of rows [(name, bash command)] timed side by side: their runs split into
        ROUNDS hyperfine rounds (every command once a round, warm-up in the first), so a change
        of the machine's load falls on all of them alike; then each one's peak RSS. The first row
        is the reference the report's ratios are against. A comparison dict (see docs/performance.md)."""
        settings = self.settings
        runs = runs or settings["runs"]
        rounds = min(settings["rounds"], runs)
        per_round = -(-runs // rounds)
        args = []
        for name, command in rows:
            args += ["--command-name", name, command]
        note("%s: hyperfine, %d warmup + %d rounds of %d runs per command"
             % (section, settings["warmup"], rounds, per_round))
        results = []
        for round_index in range(rounds):
            path = os.path.join(self.work, "%s.%d.json" % (section, round_index))
            warmup = settings["warmup"] if round_index == 0 else 0
            self.run(["hyperfine", "--warmup", str(warmup), "--runs", str(per_round), "--export-json", path,
                      "--style", "basic", "--shell", "bash"] + args, "%s: hyperfine" % section,
                     capture_output=False, stdout=sys.stderr)
            with open(path) as handle:
                results.append(json.load(handle)["results"])
        commands = stats.merge_rounds(results)
        note("%s: peak RSS, %d runs per command under %s" % (section, settings["rss_runs"], GNU_TIME))
        for entry, (name, command) in zip(commands, rows):
            entry["name"], entry["command"] = name, command.replace(self.work + "/", "").replace(REPO_DIR + "/", "")
            entry["peak_rss_mib"] = self.peak_rss_mib(command)
        return {"section": section, "rounds": rounds, "runs": per_round * rounds, "warmup": settings["warmup"],
                "rss_runs": settings["rss_runs"], "commands": commands}

    def peak_rss_mib(self, command):
        """The largest maximum RSS (MiB) over RSS_RUNS runs of the bash command; for a pipeline of
        several processes the largest of them (GNU time reads wait4's rusage, whose ru_maxrss
        covers the waited-for descendants)."""
        path = os.path.join(self.work, "rss.txt")
        largest = 0
        for _ in range(self.settings["rss_runs"]):
            self.run([GNU_TIME, "-f", "%M", "-o", path, "bash", "-c", command], "under time: " + command,
                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, capture_output=False)
            with open(path) as handle:
                largest = max(largest, int(handle.read().split()[-1]))
        return round(largest / 1024, 1)

    # Services ---------------------------------------------------------------------------------

    def stop(self, *processes):
        """SIGTERM to processes this run started (subprocess.Popen), and waits for them."""
        for process in processes:
            if process.poll() is None:
                process.terminate()
        for process in processes:
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            if process in self.started:
                self.started.remove(process)


def find_python():
    """A python3 that has Pillow: Debian's python3-pil is for /usr/bin/python3 (the peer, photo.py
    and ssim.py run on it; the harness itself runs in the project's venv, for jsonschema)."""
    for candidate in ("/usr/bin/python3", shutil.which("python3")):
        if candidate and subprocess.run([candidate, "-c", "import PIL"], capture_output=True).returncode == 0:
            return candidate
    raise BenchError("no python3 with Pillow: run scripts/install-deps.sh bench")
