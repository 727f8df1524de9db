"""The markdown report of one results file, pure: bench/bench.py prints it whole, bench/tables.py
writes its blocks into docs/performance.md. Every block is a function of the results dict alone.

Ratios are of medians (wall clock) and of mean CPU, from one run of the benchmark: the commands
of a comparison ran interleaved, so the machine's load fell on them alike."""
from . import markdown as md
from .stats import ratio
from .sections.process import SIDE_BY_SIDE_BUDGET

# Goals of the project for the summary table (docs/performance.md explains them).
GOALS = {"startup": "<= 10 ms", "render-peer": "<= 0.45x", "render-floor": "CPU <= 1.25x", "validate": "<= 0.9x",
         "process": "<= 0.25x", "process-photo": "<= 0.35x"}
SYSTEM_NAME = "creative-tool, system libvips"
# The process section's photographs (bench/harness/sections/process.py's keys).
PHOTOGRAPHS = ("photo-jpeg", "interstitial")


def comparison(result):
    """The table of one comparison (bench/harness/context.py's compare) and its notes: every command
    against the first."""
    commands = result["commands"]
    reference = commands[0]
    ref = reference["name"]
    header = ["tool", "median ms", "mean ± σ ms", "min ms", "tool / %s" % ref, "%s / tool" % ref,
              "CPU ms (user + system)", "%s CPU / tool CPU" % ref, "peak RSS MiB (max of %d)" % result["rss_runs"]]
    rows = [[c["name"], md.ms(c["median_ms"]), "%s ± %s" % (md.ms(c["mean_ms"]), md.ms(c["stddev_ms"])),
             md.ms(c["min_ms"]), md.times(ratio(c["median_ms"], reference["median_ms"])),
             md.times(ratio(reference["median_ms"], c["median_ms"])), md.ms(c["cpu_ms"]),
             md.times(ratio(reference["cpu_ms"], c["cpu_ms"])), md.number(c["peak_rss_mib"])] for c in commands]
    notes = ("Whole-process wall clock over %d runs in %d interleaved rounds (%d warm-up). \"tool / %s\" above 1 "
             "means %s is faster. CPU is the mean user + system time of a run (hyperfine's, shell start-up "
             "subtracted), all threads and child processes. Peak RSS is the largest maximum resident set (GNU time "
             "%%M); for a command of several processes, the largest of them."
             % (result["runs"], result["rounds"], result["warmup"], ref, ref))
    return md.table(header, rows) + "\n\n" + notes


def describe(entry):
    return "%s (%dx%d, %d bands, %d bytes)" % (entry["name"], entry["width"], entry["height"], entry["bands"],
                                                entry["bytes"])


def find(result, prefix):
    """The command of a comparison whose name starts with prefix, or None."""
    return next((c for c in result["commands"] if c["name"].startswith(prefix)), None)


def cell(command):
    return "" if command is None else "%s ms, CPU %s ms" % (md.ms(command["median_ms"]), md.ms(command["cpu_ms"]))


def against(tool, peer):
    if tool is None or peer is None:
        return ""
    return "%s (CPU %s)" % (md.times(ratio(tool["median_ms"], peer["median_ms"])),
                            md.times(ratio(tool["cpu_ms"], peer["cpu_ms"])))


def summary(results):
    """One row per job: the tool, the system-libvips build, the peer it is measured against, the
    ratio tool / peer (wall, and CPU) and the goal."""
    sections = results["sections"]
    rows = []

    def add(job, result, peer_prefix, goal=""):
        tool = result["commands"][0]
        peer = find(result, peer_prefix)
        rows.append([job, cell(tool), cell(find(result, SYSTEM_NAME)),
                     "" if peer is None else "%s: %s" % (peer["name"], cell(peer)), against(tool, peer), goal])

    if "startup" in sections:
        add("`--version`", sections["startup"]["comparison"], "C floor", GOALS["startup"])
    for entry in sections.get("render", {}).get("inputs", []):
        job = "render %s into 390x61 @3x (PNG)" % entry["input"]["name"]
        add(job, entry["comparison"], "ImageMagick", GOALS["render-peer"])
        add("the same render, against the C floor", entry["comparison"], "C floor")
        if "lossless" in entry:
            add("lossless (`--weight-budget 1G`), against the C floor writing the nearest file", entry["lossless"],
                entry["lossless_floor"], GOALS["render-floor"])
    for entry in sections.get("autocost", {}).get("contents", []):
        add("render %s with `--format auto`" % entry["input"]["name"], entry["comparison"], "fixed: ",
            "CPU <= %sx" % md.number(sections["autocost"]["goal"], 1))
    for entry in sections.get("validate", {}).get("singles", []):
        add("validate %s" % entry["input"]["name"], entry["comparison"], "ImageMagick", GOALS["validate"])
    if "validate" in sections:
        batch = sections["validate"]["batch"]
        add("validate %d files in one run" % batch["files"], batch["comparison"], "creative-tool, %d runs" % batch["files"])
    if "preflight" in sections:
        add("validate with the pre-flight checks", sections["preflight"]["comparison"], "validate --no-preflight",
            "<= 1.15x")
    for entry in sections.get("process", {}).get("inputs", []):
        job = "process %s (%d renders, %s)" % (entry["input"]["name"], entry["renders"], "/".join(entry["formats"]))
        artwork = entry["input"]["name"] == "artwork.png"
        # A photograph is held to ImageMagick writing WebP (results before the contents had keys: every
        # input but the artwork).
        photograph = entry["key"] in PHOTOGRAPHS if "key" in entry else not artwork
        add(job, entry["comparison"], "ImageMagick x %d" % entry["renders"], GOALS["process"] if artwork else "")
        if photograph and find(entry["comparison"], "ImageMagick x %d, WebP" % entry["renders"]) is not None:
            add("the same job, against ImageMagick writing WebP quality 85", entry["comparison"],
                "ImageMagick x %d, WebP" % entry["renders"], GOALS["process-photo"])
        if find(entry["comparison"], "C floor") is not None:
            add("the same job, against its C floor (the same files written once)", entry["comparison"], "C floor")
    if not rows:
        return ""
    header = ["job", "creative-tool (wheel)", "system libvips build", "peer", "tool / peer (CPU)", "goal"]
    return md.table(header, rows)


def startup(section):
    return "## startup: `--version`, whole process\n\n" + comparison(section["comparison"])


def render(section):
    parts = []
    for entry in section["inputs"]:
        outputs = "\n".join("- %s: `%s`, %d bytes" % (o["tool"], o["header"], o["bytes"]) for o in entry["outputs"])
        parts.append("## render: %s into %dx%d, transparent bars, PNG\n\nOutputs (each checked to be %dx%d with "
                     "transparent bars):\n\n%s\n\n%s\n\nThe C floor is the same pipeline on the same libvips "
                     "(sequential load, thumbnail, alpha, embed, libvips' pngsave) with none of the tool's checks."
                     % (describe(entry["input"]), entry["width"], entry["height"], entry["width"], entry["height"],
                        outputs, comparison(entry["comparison"])))
        if "lossless" in entry:
            parts.append("The same work as the C floor's: creative-tool's lossless render (`--weight-budget 1G`: "
                         "no search for a lighter file under the 150K default), against the floor saving with "
                         "pngsave's defaults and with adaptive filters at zlib 4. The goal is judged against "
                         "the one whose file is nearer the tool's in size: %s.\n\n%s"
                         % (entry["lossless_floor"], comparison(entry["lossless"])))
    return "\n\n".join(parts)


def bytes_(section):
    versions = section["versions"]
    parts = ["## bytes: the 1170x183 render (slot 390x61 @3x) of each input, per format and tool\n\n"
             "SSIM against creative-tool's lossless `--format png` render, both flattened onto white in 8-bit RGB: "
             "scikit-image %s `structural_similarity(gaussian_weights=True, sigma=1.5, use_sample_covariance=False, "
             "data_range=255, channel_axis=2)`, the mean over R, G and B. kB are 1000 bytes; the banner weight "
             "guideline is 150 kB. \"× ImageMagick\" is the bytes over ImageMagick's lossless PNG. pngquant %s, %s, "
             "cwebp %s." % (versions["scikit-image"], versions["pngquant"], versions["optipng"], versions["cwebp"])]
    for entry in section["inputs"]:
        magick = next(row for row in entry["rows"] if row["key"] == "imagemagick")
        rows = []
        for row in entry["rows"]:
            if row["written_as"] is None:
                rows.append([row["label"], "n/a (--format auto not in this build)", "", "", "", ""])
            else:
                rows.append([row["label"], row["written_as"], row["bytes"], "%.1f" % (row["bytes"] / 1000),
                             md.times(ratio(row["bytes"], magick["bytes"])), "%.4f" % row["ssim"]])
        text = "### bytes: %s\n\n%s" % (describe(entry["input"]), md.table(
            ["tool", "written as", "bytes", "kB", "× ImageMagick", "SSIM"], rows))
        if entry.get("auto_said"):
            text += "\n\n`--format auto` said: `%s`" % entry["auto_said"]
        parts.append(text)
    return "\n\n".join(parts)


def job_totals(job):
    """The process table's figures of one job of the weight section: renders, the bytes of its auto
    and lossless renders, their ratio, the heaviest auto render and the worst luma SSIM."""
    renders = job["renders"]
    auto = sum(render["bytes"] for render in renders)
    lossless = sum(render["lossless_bytes"] for render in renders)
    return {"renders": len(renders), "auto_bytes": auto, "lossless_bytes": lossless,
            "ratio": ratio(auto, lossless), "heaviest_bytes": max((r["bytes"] for r in renders), default=None),
            "worst": min(renders, key=lambda r: r["luma_ssim"], default=None)}


def worst_cell(render):
    """The worst luma SSIM of a job and the render it is of: "0.982 (ipad-air-portrait-820x90@2x)"."""
    if render is None:
        return "n/a"
    return "%s (%s)" % (md.number(render["luma_ssim"], 3), render["file"].rsplit(".", 1)[0])


def weight_contents(section):
    """The weight section's table of one render per content: auto against lossless."""
    rows = [[c["label"], md.grouped(c["lossless"]["bytes"]), c["auto"]["encoding"], md.grouped(c["auto"]["bytes"]),
             md.number(ratio(c["auto"]["bytes"], c["lossless"]["bytes"]), 3), md.number(c["luma_ssim"], 3),
             md.number(c["chroma_ssim"], 3)] for c in section["contents"]]
    return md.table(["content", "lossless PNG, bytes", "auto writes", "bytes", "x lossless", "luma SSIM on white",
                     "chroma SSIM"], rows)


def weight_jobs(section):
    """The weight section's table of process jobs: each job's auto renders against its lossless ones."""
    rows = []
    for job in section["jobs"]:
        totals = job_totals(job)
        rows.append([job["label"], totals["renders"], md.grouped(totals["auto_bytes"]),
                     md.grouped(totals["lossless_bytes"]), md.number(totals["ratio"], 3),
                     md.grouped(totals["heaviest_bytes"]), worst_cell(totals["worst"])])
    return md.table(["source", "renders", "auto, bytes", "lossless, bytes", "x lossless", "heaviest render",
                     "worst luma SSIM on white"], rows)


def weight_avif(section):
    """The weight section's tables with AVIF named (`--formats png,jpeg,webp,avif`) against the default
    auto: one render per content, then the process jobs; a sentence where the tool wrote no AVIF."""
    contents = [c for c in section["contents"] if c.get("with_avif")]
    if not section.get("avif") or not contents:
        return "Not measured: this build's libvips writes no AVIF."
    rows = [[c["label"], md.grouped(c["auto"]["bytes"]), c["with_avif"]["encoding"], md.grouped(c["with_avif"]["bytes"]),
             md.number(ratio(c["with_avif"]["bytes"], c["auto"]["bytes"]), 3), md.number(c["with_avif"]["luma_ssim"], 3),
             md.number(c["with_avif"]["chroma_ssim"], 3)] for c in contents]
    renders = md.table(["content", "auto, bytes", "with AVIF named, writes", "bytes", "x auto", "luma SSIM on white",
                        "chroma SSIM"], rows)
    rows = []
    for job in section["jobs"]:
        if not job.get("with_avif"):
            continue
        plain, named = job_totals(job), job_totals({"renders": job["with_avif"]})
        avif = sum(1 for render in job["with_avif"] if render["format"] == "avif")
        rows.append([job["label"], md.grouped(plain["auto_bytes"]), md.grouped(named["auto_bytes"]),
                     md.number(ratio(named["auto_bytes"], plain["auto_bytes"]), 3), "%d of %d" % (avif, named["renders"]),
                     md.grouped(named["heaviest_bytes"]), worst_cell(named["worst"])])
    jobs = md.table(["source", "auto, bytes", "with AVIF named, bytes", "x auto", "AVIF renders", "heaviest render",
                     "worst luma SSIM on white"], rows)
    return "%s\n\n%s" % (renders, jobs)


def weight(section):
    return ("## weight: what `--format auto` writes into %s\n\nMeasured %s by `make bench`'s weight section: %s, "
            "`render --slot %s --format auto` (default 150K budget) against the lossless `--format png "
            "--weight-budget 1G` render of the same file; SSIM on white over the whole %dx%d render by scikit-image "
            "%s (`bench/ssim.py --luma-chroma`).\n\n%s\n\n(The SSIM in the encoding line is over the artwork's "
            "area; the columns are over the whole render, bars included, so they read a little higher.)\n\n"
            "### weight: `process --format auto`, each render searched (default budget), against the same job's "
            "`--format png --weight-budget 1G`\n\n%s\n\n"
            "### weight: with AVIF named (`--formats png,jpeg,webp,avif`), against the default `auto`\n\n%s"
            % (section["slot"], section["date"], section["tool"], section["slot"], section["width"], section["height"],
               section["scikit_image"], weight_contents(section), weight_jobs(section), weight_avif(section)))


def autocost(section):
    """What auto's search costs: per content, auto against the fixed format it picked."""
    rows = []
    first = section["contents"][0]["comparison"] if section["contents"] else {"runs": 0, "rounds": 0}
    runs = "%d runs in %d interleaved rounds" % (first["runs"], first["rounds"])
    for entry in section["contents"]:
        auto, fixed = entry["comparison"]["commands"][:2]
        cpu = ratio(auto["cpu_ms"], fixed["cpu_ms"])
        rows.append([entry["label"], entry["encoding"], entry["fixed"], "%s ms" % md.ms(auto["cpu_ms"]),
                     "%s ms" % md.ms(fixed["cpu_ms"]), md.times(cpu),
                     "met" if cpu <= section["goal"] else "not met"])
    return ("## autocost: what `--format auto`'s search costs, %s\n\nEach content's `render --slot %s --format auto` "
            "timed beside the same render in the fixed format auto picked (WebP at auto's effort 2; JPEG 4:2:0, "
            "as no flag asks for 4:4:4; lossless PNG for a palette; near-lossless WebP, which no flag asks for, "
            "beside lossless WebP: the same libwebp encoder, written whatever it weighs), both with the default "
            "150K weight budget; "
            "whole-process CPU, each the mean user + system time of a run over %s. Goal: auto at most %sx the "
            "fixed format's CPU.\n\n%s"
            % (section["slot"], section["slot"], runs, md.number(section["goal"], 1),
               md.table(["content", "auto writes", "fixed format", "auto CPU", "fixed CPU", "auto / fixed (CPU)", "goal"],
                        rows)))


def validate(section):
    parts = ["## validate: %s, one file, whole process\n\n%s" % (describe(entry["input"]), comparison(entry["comparison"]))
             for entry in section["singles"]]
    batch = section["batch"]
    parts.append("### validate: %d files in one run against %d single runs\n\n%s"
                 % (batch["files"], batch["files"], comparison(batch["comparison"])))
    return "\n\n".join(parts)


def preflight(section):
    with_, without = section["comparison"]["commands"][:2]
    wall, cpu = with_["median_ms"] - without["median_ms"], with_["cpu_ms"] - without["cpu_ms"]
    return ("## preflight: validate with and without the pre-flight checks\n\n%s\n\nThe checks cost %.2f ms wall "
            "(%.1f%% of validate without them) and %.2f ms CPU (%.1f%%); budget: %d%%."
            % (comparison(section["comparison"]), wall, 100 * (ratio(with_["median_ms"], without["median_ms"]) - 1),
               cpu, 100 * (ratio(with_["cpu_ms"], without["cpu_ms"]) - 1), section["budget_percent"]))


def process_floor(section):
    """The process section's floor table: per content, the job's CPU over its floor's, its wall over
    its CPU, the bytes of its renders over the floor's, and the bytes of its preview sheet (which
    the floor does not draw)."""
    rows = []
    for entry in section["inputs"]:
        if "floor" not in entry:
            continue
        tool = entry["comparison"]["commands"][0]
        floor = find(entry["comparison"], "C floor")
        figures = entry["floor"]
        rows.append([entry.get("label", entry["input"]["name"]), "%d (%d distinct)" % (entry["renders"],
                                                                                     entry["distinct_renders"]),
                     "/".join(entry["formats"]), "%s ms" % md.ms(tool["cpu_ms"]),
                     "%s ms" % md.ms(floor["cpu_ms"]) if floor else "n/a", md.times(figures["cpu_over_floor"]),
                     md.number(figures["wall_over_cpu"], 2), md.number(figures.get("wide_wall_over_cpu"), 2),
                     md.grouped(entry["render_bytes"]),
                     md.grouped(entry["floor_bytes"]), md.number(figures["bytes_over_floor"], 3),
                     "%d of %d" % (entry.get("identical_files", 0), entry["renders"]),
                     md.grouped(entry.get("sheet_bytes"))])
    if not rows:
        return ""
    return md.table(["content", "renders", "formats", "process CPU", "floor CPU", "process CPU / floor CPU",
                     "process wall / CPU", "wall / CPU at --memory-budget " + SIDE_BY_SIDE_BUDGET, "render bytes",
                     "floor bytes", "bytes / floor bytes", "files the same to the byte", "preview sheet bytes"], rows)


def process(section):
    parts = []
    floor = process_floor(section)
    if floor:
        parts.append("## process: against its floor\n\n`process IN --output-dir DIR` with `--format auto` (the "
                     "default) against the C floor (`bench/floor-process.c`): the same render files written once "
                     "with the settings the job chose (read from its manifest; where its encoding line leaves one "
                     "unsaid, the one that writes the tool's file to the byte), on the same libvips, with no "
                     "preview sheet or manifest. CPU is the mean user + system time of a run; wall is the median. "
                     "Bytes are summed over the render files; the preview sheet's are the job's alone.\n\n" + floor)
    for entry in section["inputs"]:
        options = " `%s`" % " ".join(entry["options"]) if entry.get("options") else ""
        parts.append("## process: %s%s into its %d device renders (%s; + preview sheet and manifest)\n\nImageMagick "
                     "runs once per render (resize to the content size, extend to the slot), writing lossless PNG "
                     "and, in the last row, WebP quality 85; `creative-tool --format webp` is the same job with no "
                     "search.\n\n%s" % (describe(entry["input"]), options, entry["renders"], "/".join(entry["formats"]),
                                          comparison(entry["comparison"])))
    return "\n\n".join(parts)


def serve(section):
    header = ["service", "input", "format", "connections", "renders/s", "p50 ms", "p99 ms", "CPU ms per render",
              "peak RSS MiB", "bytes per response", "errors (non-2xx, socket)"]
    rows = []
    for row in section["rows"]:
        if "not_run" in row:
            rows.append([row["service"], row["input"], row["format"], "", "n/a (%s)" % row["not_run"], "", "", "", "",
                         "", ""])
        else:
            rows.append([row["service"], row["input"], row["format"], row["connections"],
                         md.number(row["renders_per_second"]), md.number(row["p50_ms"]), md.number(row["p99_ms"]),
                         md.number(row["cpu_ms_per_render"]), md.number(row["peak_rss_mib"]),
                         row["bytes_per_response"], "%d, %d" % (row["non2xx"], row["socket_errors"])])
    text = ("## serve: POST /v1/render (slot 390x61 @3x, 1170x183 px) under wrk, %d s a run\n\n`serve` with its "
            "defaults (%d processors), wrk 2 threads on the same machine, a %d s warm-up per input first. CPU per "
            "render: the service's user + system time over the run (/proc/PID/stat) over the renders answered. Peak "
            "RSS: VmHWM, the most the process has held since it started. Bytes: the mean response, headers included."
            "\n\n%s" % (section["seconds"], section["processors"], section["warmup_seconds"], md.table(header, rows)))
    if section.get("thumbor"):
        text += "\n\n" + section["thumbor"]["note"]
    if section.get("tryit"):
        text += "\n\n" + tryit_table(section["tryit"])
    if section.get("responses"):
        text += "\n\n### serve: the responses, against creative-tool's lossless format=png response\n\n" + md.table(
            ["service", "input", "format", "written as", "bytes", "SSIM"],
            [[r["service"], r["input"], r["format"], r["written_as"], r["bytes"], "%.4f" % r["ssim"]]
             for r in section["responses"]])
    return text


def tryit_table(rows):
    """The try-it page's job: its times alone and beside other uploads, and every answer's status."""
    def statuses(values):
        counts = {}
        for value in values:
            counts[str(value)] = counts.get(str(value), 0) + 1
        return ", ".join("%s x%d" % (key, count) for key, count in sorted(counts.items())) or "none"
    body = [[case, row["uploads_beside"], row["runs"], "%.2f" % row["median_s"], "%.2f" % row["max_s"],
             statuses(row["page_statuses"]), statuses(row["other_statuses"])]
            for case, row in ((case, rows[case]) for case in ("alone", "beside") if case in rows)]
    return ("### serve: the try-it page's job\n\nPOST /v1/validate, then POST /v1/process with `Accept: "
            "application/zip`, of the 960x150 test artwork, as the page sends them; beside: that many "
            "/v1/process uploads of the bench photograph (2184x270 JPEG, zip answers) started 0.2 s before. Goal: "
            "the page's job within 3 s either way, every answer 200.\n\n" + md.table(
                ["case", "uploads beside", "runs", "median s", "max s", "the page's answers", "the other answers"], body))


def memory(section):
    rows, lines = [], []
    for allocator in section["allocators"]:
        for run in allocator["runs"]:
            rows.append([allocator["allocator"], run["run"], run["elapsed_seconds"], run["connections"], run["input"],
                         run["format"], md.number(run["renders_per_second"]), md.number(run["rss_mib"]),
                         md.number(run["peak_rss_mib"])])
        if allocator["runs"]:
            lines.append("- %s: RSS %s MiB after the first run, %s MiB after run %d" % (
                allocator["allocator"], md.number(allocator["runs"][0]["rss_mib"]),
                md.number(allocator["runs"][-1]["rss_mib"]), len(allocator["runs"])))
    return ("## memory: serve's RSS over %d s of POST /v1/render, %d s wrk runs\n\nEach run: 4, 8 and 16 connections "
            "in turn, cycling the inputs and png/auto. RSS: VmRSS after each run; peak: VmHWM. Run on %s, load "
            "average %s at the start.\n\n%s\n\n%s"
            % (section["seconds"], section["step_seconds"], section["date"], section["load_start"], md.table(
                ["allocator", "run", "elapsed s", "connections", "input", "format", "renders/s", "RSS MiB",
                 "peak RSS MiB"], rows), "\n".join(lines)))


def worker(section):
    jobs, cores = section["jobs"], section["cores"]
    process, worker_ = section["process"], section["worker"]
    paced, burst = section["latency_ms"]
    return ("## worker: Redis Streams and S3 (SeaweedFS) against the process CLI\n\n%d distinct copies of the "
            "960x150 test artwork, `--format png` (3 renders, a preview sheet and a manifest each); redis-server and "
            "`weed server -s3` on this machine's loopback; %d cores.\n\n%s\n\nWorker CPU per job against process: "
            "%+.1f%% (the worker's own CPU only; Redis and the store run beside it on the same cores).\n\n%s" % (
                jobs, cores, md.table(
                    ["", "CPU s per job", "jobs/s per core", "wall jobs/s, one at a time", "wall jobs/s, every core"],
                    [["process CLI (a process per file)", "%.3f" % process["cpu_seconds_per_job"],
                      md.number(process["jobs_per_second_per_core"]), md.number(process["wall_jobs_per_second_serial"]),
                      "%s (%d side by side)" % (md.number(process["wall_jobs_per_second_parallel"]), cores)],
                     ["worker (download, job, uploads, result)", "%.3f" % worker_["cpu_seconds_per_job"],
                      md.number(worker_["jobs_per_second_per_core"]), md.number(worker_["wall_jobs_per_second_serial"]),
                      "%s (--concurrency %d)" % (md.number(worker_["wall_jobs_per_second_parallel"]), cores)]]),
                section["worker_cpu_over_process_percent"], md.table(
                    ["XADD -> result, ms (Redis's clock)", "jobs", "p50", "p99", "max"],
                    [["paced at %.1f jobs/s (half the burst throughput)" % paced["rate_jobs_per_second"], paced["jobs"],
                      paced["p50"], paced["p99"], paced["max"]],
                     ["one burst of %d" % burst["jobs"], burst["jobs"], burst["p50"], burst["p99"], burst["max"]]])))


def machine(results):
    """The run's header: versions, settings, machine, load."""
    versions, settings, machine_ = results["versions"], results["settings"], results["machine"]
    lines = ["- %s: %s" % (name, text) for name, text in versions.items()]
    lines.append("- %d warm-up + %d runs per command in %d interleaved rounds, whole process, commands run by bash "
                 "(hyperfine subtracts the shell's start-up)%s" % (settings["warmup"], settings["runs"],
                                                                   settings["rounds"],
                                                                   "; quick mode" if settings["quick"] else ""))
    lines.append("- machine: %d cores, %s, %s; load average at start %s, at the end %s" % (
        machine_["cores"], machine_["cpu"], machine_["kernel"], machine_["load_start"], machine_.get("load_end", "?")))
    lines.append("- run: %s, sections %s" % (results["started"], ", ".join(results["sections"])))
    return "\n".join(lines)


SECTIONS = {"startup": startup, "render": render, "bytes": bytes_, "weight": weight, "autocost": autocost,
            "validate": validate,
            "preflight": preflight, "process": process, "serve": serve, "worker": worker, "memory": memory}
# Sections that carry their own date and versions: a run of only these leaves the machine block alone.
DATED = {"memory", "weight"}


def blocks(results):
    """{block name: markdown}: "machine" (when a section other than DATED ran), "summary" (when a
    timed section ran) and one per section run."""
    out = {}
    if set(results["sections"]) - DATED:
        out["machine"] = machine(results)
    text = summary(results)
    if text:
        out["summary"] = text
    for name, section in results["sections"].items():
        out[name] = SECTIONS[name](section)
    return out


def whole(results):
    """The whole report, as bench/bench.py prints it."""
    parts = dict(blocks(results), machine=machine(results))
    order = ["machine", "summary"] + list(results["sections"])
    return "# creative-tool benchmarks\n\n" + "\n\n".join(parts[name] for name in order if name in parts) + "\n"
