"""The benchmark's settings, read once from the environment (the variables bench/run.sh read,
with the same defaults). BENCH_QUICK=1 lowers every count to try the harness in a few minutes;
a variable set explicitly still wins. Pure: takes the environment as a dict."""
import os

# (variable, default, quick default, type)
VARIABLES = [
    ("BENCH_RUNS", 30, 3, int),
    ("BENCH_WARMUP", 3, 1, int),
    ("BENCH_ROUNDS", 5, 1, int),
    ("BENCH_RSS_RUNS", 5, 1, int),
    ("BENCH_VALIDATE_FILES", 200, 20, int),
    ("BENCH_VALIDATE_INPUTS", "artwork.png photo.png", "artwork.png photo.png", str),
    ("BENCH_RENDER_INPUTS", "artwork.png photo.png", "artwork.png", str),
    ("BENCH_PROCESS_INPUTS", "flat artwork-960 photo-jpeg gradient-jpeg text interstitial", "artwork-960 text", str),
    ("BENCH_SERVE_SECONDS", 10, 2, int),
    ("BENCH_SERVE_WARMUP", 2, 1, int),
    ("BENCH_SERVE_CONNECTIONS", "4 16", "4", str),
    ("BENCH_SERVE_FORMATS", "png auto", "png auto", str),
    ("BENCH_SERVE_INPUTS", "artwork.png photo.png photo.jpg", "artwork.png", str),
    ("BENCH_SERVE_TRYIT_RUNS", 5, 2, int),
    ("BENCH_MEMORY_SECONDS", 600, 20, int),
    ("BENCH_MEMORY_STEP", 60, 10, int),
    ("BENCH_MEMORY_ALLOCATORS", "glibc jemalloc", "glibc jemalloc", str),
    ("BENCH_WORKER_JOBS", 200, 10, int),
    ("BENCH_WORKER_PACED", 100, 6, int),
]

LISTS = {"BENCH_VALIDATE_INPUTS", "BENCH_RENDER_INPUTS", "BENCH_PROCESS_INPUTS", "BENCH_SERVE_CONNECTIONS",
         "BENCH_SERVE_FORMATS", "BENCH_SERVE_INPUTS", "BENCH_MEMORY_ALLOCATORS"}


class SettingsError(ValueError):
    """A variable that does not read as its type."""


def read(environment=None):
    """{name without BENCH_, lower case: value}, e.g. {"runs": 30, "serve_connections": [4, 16]},
    plus "quick"."""
    environment = os.environ if environment is None else environment
    quick = environment.get("BENCH_QUICK", "") not in ("", "0")
    settings = {"quick": quick}
    for name, default, quick_default, kind in VARIABLES:
        text = environment.get(name)
        value = (quick_default if quick else default) if text in (None, "") else text
        key = name[len("BENCH_"):].lower()
        try:
            if name in LISTS:
                words = str(value).split()
                settings[key] = [int(word) for word in words] if name == "BENCH_SERVE_CONNECTIONS" else words
            else:
                settings[key] = kind(value)
        except ValueError:
            raise SettingsError("%s=%r is not %s" % (name, value, "a list of numbers" if name in LISTS else kind.__name__))
        if kind is int and name not in LISTS and settings[key] < 1:
            raise SettingsError("%s must be at least 1, not %s" % (name, value))
    settings["rounds"] = min(settings["rounds"], settings["runs"])
    return settings
