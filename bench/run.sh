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
# Environment: BENCH_RUNS (hyperfine runs per command, default 30), BENCH_WARMUP (default 3),
# BENCH_RSS_RUNS (runs under /usr/bin/time for peak RSS, default 5).
#
# Prints a markdown report on standard output; hyperfine's progress and notes go to standard
# error. Raw hyperfine JSON is kept in a temporary folder that is removed on exit.
# It only measures: there are no timing assertions. It fails only when a tool is missing or
# a peer does not produce the output it is compared on (so the comparison stays honest).
set -euo pipefail

BENCH_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_DIR="$(cd "$BENCH_DIR/.." && pwd)"

RUNS="${BENCH_RUNS:-30}"
WARMUP="${BENCH_WARMUP:-3}"
RSS_RUNS="${BENCH_RSS_RUNS:-5}"

# ImageMagick by full path: another `convert` on PATH may not be ImageMagick.
CONVERT=/usr/bin/convert
GNU_TIME=/usr/bin/time

# The sections, in the order they run. Each is a function bench_NAME.
SECTIONS=(render validate preflight process)

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

# check_output NAME FILE EXPECTED: fails unless FILE is an image of EXPECTED ("WxH, B bands").
check_output() {
    local name="$1" file="$2" expected="$3" actual
    [ -s "$file" ] || die "$name wrote no output ($file)"
    actual="$(image_size "$file")" || die "$name wrote an unreadable image ($file)"
    [ "$actual" = "$expected" ] || die "$name wrote $actual, not $expected: the comparison would not be fair"
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

# hyperfine_stats JSON: one line per command, "median_ms mean_ms stddev_ms min_ms", in order.
hyperfine_stats() {
    "$PYTHON" - "$1" <<'EOF'
import json, sys
for r in json.load(open(sys.argv[1]))["results"]:
    print("%.2f %.2f %.2f %.2f" % (r["median"] * 1e3, r["mean"] * 1e3, (r["stddev"] or 0) * 1e3, r["min"] * 1e3))
EOF
}

# compare SECTION NAME COMMAND [NAME COMMAND]...: times the commands side by side in one
# hyperfine run, measures their peak RSS and prints the table. The first command is the
# reference (creative-tool): ratios are against it.
compare() {
    local section="$1"; shift
    local names=() commands=() args=()
    while [ $# -gt 0 ]; do
        names+=("$1"); commands+=("$2"); args+=(--command-name "$1" "$2"); shift 2
    done
    local json="$WORK/$section.json"
    note "$section: hyperfine, $WARMUP warmup + $RUNS runs per command"
    hyperfine --warmup "$WARMUP" --runs "$RUNS" --export-json "$json" --style basic --shell bash \
        "${args[@]}" >&2

    local stats=()
    mapfile -t stats < <(hyperfine_stats "$json")
    [ "${#stats[@]}" -eq "${#names[@]}" ] || die "$section: hyperfine gave ${#stats[@]} results for ${#names[@]} commands"

    local i rss=()
    note "$section: peak RSS, $RSS_RUNS runs per command under $GNU_TIME"
    for i in "${!commands[@]}"; do rss+=("$(peak_rss_mib "${commands[$i]}")"); done

    local reference
    read -r reference _ <<<"${stats[0]}"
    md_header "tool" "median ms" "mean ± σ ms" "min ms" "tool / ${names[0]}" "${names[0]} / tool" \
        "peak RSS MiB (max of $RSS_RUNS)"
    for i in "${!names[@]}"; do
        local median mean stddev min
        read -r median mean stddev min <<<"${stats[$i]}"
        md_row "${names[$i]}" "$median" "$mean ± $stddev" "$min" \
            "$(awk -v a="$median" -v b="$reference" 'BEGIN { printf "%.2f×", a / b }')" \
            "$(awk -v a="$reference" -v b="$median" 'BEGIN { printf "%.2f×", a / b }')" \
            "${rss[$i]}"
    done
    echo
    echo "Times are whole-process wall clock. \"tool / ${names[0]}\" above 1 means ${names[0]} is faster."
    echo "Peak RSS is the largest maximum resident set (GNU time %M) over $RSS_RUNS runs; for a command"
    echo "of several processes it is the largest of them."
}

# --------------------------------------------------------------------------------------------
# Sections
# --------------------------------------------------------------------------------------------

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
    check_output creative-tool "$dir/creative-tool.png" "${width}x${height}, 4 bands"
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

    compare render \
        creative-tool "$tool_cmd" \
        ImageMagick "$magick_cmd" \
        "vips CLI (3 commands)" "$vips_cmd" \
        Pillow "$pillow_cmd"
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
    compare validate creative-tool "$tool_cmd" "ImageMagick (convert -regard-warnings FILE null:)" "$magick_cmd"
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

# process: one 2184x270 PNG validated and rendered into every device slot it is picked for,
# plus the preview sheet and manifest, against ImageMagick run once per render (same sizes).
bench_process() {
    local source="$REPO_DIR/TestImages/test-artwork-2184x270.png"
    local dir="$WORK/process"
    mkdir -p "$dir"
    cp "$source" "$dir/in.png"
    local tool_cmd
    tool_cmd="$(quote "$BIN" process "$dir/in.png" --output-dir "$dir/out") >/dev/null"
    bash -c "$tool_cmd" || die "process: creative-tool failed"
    # The same renders with ImageMagick: content size and canvas from the manifest.
    local renders magick_cmd="true"
    renders="$("$PYTHON" - "$dir/out/manifest.json" <<'PY'
import json, sys
for r in json.load(open(sys.argv[1]))["renders"]:
    print(r["content_pixels"], r["slot_pixels"])
PY
)"
    local count=0 content canvas
    while read -r content canvas; do
        count=$((count + 1))
        magick_cmd+=" && $(quote "$CONVERT" "$dir/in.png" -resize "${content}!" -background none -gravity center \
            -extent "$canvas" "$dir/magick-$count.png")"
    done <<<"$renders"
    echo "## process: ${source##*/} into its $count device renders (+ preview sheet and manifest)"
    echo
    echo "ImageMagick runs once per render (resize to the content size, extend to the slot)."
    echo
    compare process creative-tool "$tool_cmd" "ImageMagick x $count" "$magick_cmd"
    echo
}

# --------------------------------------------------------------------------------------------
# Main
# --------------------------------------------------------------------------------------------

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

    WORK="$(mktemp -d "${TMPDIR:-/tmp}/creative-tool-bench.XXXXXX")"
    trap 'rm -rf "$WORK"' EXIT
}

header() {
    echo "# creative-tool benchmarks"
    echo
    echo "- creative-tool: $("$BIN" --version 2>/dev/null || echo "version unknown") ($BIN)"
    echo "- ImageMagick: $("$CONVERT" -version | sed -n '1s/^Version: //p')"
    echo "- vips CLI: $(vips --version)"
    echo "- Pillow: $("$PYTHON" -c 'import PIL, sys; print(PIL.__version__, "on Python", sys.version.split()[0])') ($PYTHON)"
    echo "- $(hyperfine --version); $WARMUP warmup + $RUNS runs per command, whole process, commands run by bash (hyperfine subtracts the shell's start-up)"
    echo "- machine: $(nproc) cores, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1), $(uname -sr); load average at start: $(cut -d ' ' -f 1-3 /proc/loadavg)"
    echo
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
