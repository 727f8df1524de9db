"""Statistics and parsers of the benchmark, pure: no process is run here.

Times are whole-process wall clock from hyperfine's JSON; every figure is a median, a mean or
a ratio over several runs, never one run."""
import statistics


def merge_rounds(rounds):
    """The commands of several hyperfine rounds (each the "results" list of one --export-json,
    the commands in the same order) merged: one dict per command with every run's time.

    median_ms, mean_ms, stddev_ms and min_ms are over all runs; cpu_ms is the mean user + system
    time of a run (hyperfine's per-round means, weighted by the round's runs)."""
    if not rounds:
        raise ValueError("no hyperfine rounds")
    lengths = {len(results) for results in rounds}
    if len(lengths) != 1:
        raise ValueError("hyperfine rounds of different commands: %s" % sorted(lengths))
    merged = []
    for results in zip(*rounds):
        names = {result["command"] for result in results}
        if len(names) != 1:
            raise ValueError("hyperfine rounds name other commands: %s" % sorted(names))
        times = [time for result in results for time in result["times"]]
        if not times:
            raise ValueError("hyperfine measured no run of %s" % results[0]["command"])
        cpu = sum((result["user"] + result["system"]) * len(result["times"]) for result in results) / len(times)
        merged.append({
            "name": results[0]["command"],
            "runs": len(times),
            "median_ms": statistics.median(times) * 1e3,
            "mean_ms": statistics.mean(times) * 1e3,
            "stddev_ms": (statistics.stdev(times) if len(times) > 1 else 0.0) * 1e3,
            "min_ms": min(times) * 1e3,
            "cpu_ms": cpu * 1e3,
            "times_ms": [round(time * 1e3, 3) for time in times],
        })
    return merged


def ratio(numerator, denominator):
    """numerator / denominator, or None when either is missing or the denominator is not positive."""
    if numerator is None or denominator is None or denominator <= 0:
        return None
    return numerator / denominator


def percentile(values, fraction):
    """The nearest-rank percentile (fraction 0.5 is the median of an odd count)."""
    if not values:
        raise ValueError("percentile of no values")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def parse_wrk_result(output):
    """The "RESULT key=value ..." line that bench/wrk-render.lua prints, typed: requests,
    non2xx, socket_errors and bytes as int, the rest as float. Raises ValueError without it."""
    for line in output.splitlines():
        if line.startswith("RESULT "):
            fields = dict(field.split("=", 1) for field in line.split()[1:])
            integers = {"requests", "non2xx", "socket_errors", "bytes"}
            return {key: int(value) if key in integers else float(value) for key, value in fields.items()}
    raise ValueError("no RESULT line in wrk's output: %s" % output.strip()[-300:])


def cpu_ticks(stat_text):
    """utime + stime, in clock ticks, of a /proc/PID/stat line (fields 14 and 15, counted after
    the command name, which may hold spaces and parentheses)."""
    fields = stat_text.rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def status_kib(status_text, key):
    """A "Key:   N kB" field of /proc/PID/status (VmRSS, VmHWM), in KiB."""
    for line in status_text.splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1])
    raise ValueError("no %s in /proc/PID/status" % key)
