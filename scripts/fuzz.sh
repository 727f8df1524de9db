#!/usr/bin/env bash
# Fuzzes the upload validator (images and HTML5 bundles) and the renderer (in-process, every
# input) with libFuzzer.
#   scripts/fuzz.sh [SECONDS] [libFuzzer flags ...]      (make fuzz SECONDS=N)
# Builds creative-fuzz with SwiftPM's --sanitize=fuzzer (+ address, which brings LeakSanitizer)
# into its own scratch path, so it never touches or waits on the normal .build. Seeds
# $FUZZ_OUT/corpus (default fuzz-out/corpus) from PngSuite, the test artwork and a few JPEG, GIF
# and WebP files made with the vips CLI, then fuzzes for SECONDS (default 60). Crashes, leaks,
# timeouts and OOMs are written to $FUZZ_OUT/artifacts/; the exit status is libFuzzer's (0: none).
#   FUZZ_SANITIZE=none   build without AddressSanitizer (faster, finds only crashes and hangs)
#   FUZZ_OUT=dir         another output folder
#   CREATIVE_FUZZ_TARGET=render|bundle   one path alone (default: validate, bundles and render)
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-60}
[ $# -gt 0 ] && shift
out=${FUZZ_OUT:-fuzz-out}
# SwiftPM's --sanitize=fuzzer compiles the executable as a library (-parse-as-library), links
# libFuzzer's main (which calls LLVMFuzzerTestOneInput from Sources/creative-fuzz/FuzzTarget.swift,
# enabled by -DCREATIVE_FUZZ) and instruments the C targets. SwiftPM hands swiftc one -sanitize=
# flag per sanitizer and swiftc keeps only the last, so the Swift modules get the combined list
# again through -Xswiftc (without it, --sanitize=address would drop their coverage).
case "${FUZZ_SANITIZE:-address}" in
    none) scratch=.build/fuzz; sanitizers=(--sanitize=fuzzer) ;;
    address) scratch=.build/fuzz-asan
             sanitizers=(--sanitize=fuzzer --sanitize=address -Xswiftc -sanitize=fuzzer,address) ;;
    *) echo "FUZZ_SANITIZE must be address or none" >&2; exit 2 ;;
esac

build=(swift build -c release --product creative-fuzz --scratch-path "$scratch" "${sanitizers[@]}"
       -Xswiftc -DCREATIVE_FUZZ)
"${build[@]}"
binary="$("${build[@]}" --show-bin-path)/creative-fuzz"

# The vips CLI makes the non-PNG seeds.
if ! command -v vips >/dev/null; then
    echo "installing: libvips-tools" >&2
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends libvips-tools >/dev/null
fi

corpus="$out/corpus"
artifacts="$out/artifacts"
seeds="$out/seeds"
mkdir -p "$corpus" "$artifacts" "$seeds"

pngsuite=Tests/Corpus/pngsuite
if [ -d "$pngsuite" ]; then
    cp "$pngsuite"/*.png "$corpus"/
else
    echo "note: $pngsuite not found; seeding without PngSuite" >&2
fi
cp TestImages/*.png "$corpus"/

# JPEG, GIF and WebP seeds: accepted sizes (so the render path runs) and a few variants.
artwork=TestImages/test-artwork-960x150.png
vips thumbnail "$artwork" "$seeds/small.png" 320 --height 50 --size force
vips copy "$artwork" "$corpus/seed-960x150.jpg[Q=80,strip]"
vips copy "$seeds/small.png" "$corpus/seed-320x50.jpg[Q=60,interlace]"
vips icc_export "$seeds/small.png" "$corpus/seed-320x50-cmyk.jpg[Q=60,strip]" --output-profile cmyk
vips copy "$seeds/small.png" "$corpus/seed-320x50.gif"
vips copy "$seeds/small.png" "$corpus/seed-320x50.webp[Q=60]"
vips copy "$seeds/small.png" "$corpus/seed-320x50-lossless.webp[lossless]"
vips bandjoin_const "$seeds/small.png" "$seeds/alpha.png" 128
vips copy "$seeds/alpha.png" "$corpus/seed-320x50-alpha.webp[Q=60]"
# An APNG: acTL (2 frames) right after IHDR, which ends at byte 33.
{
    head -c 33 "$seeds/small.png"
    printf '\x00\x00\x00\x08acTL\x00\x00\x00\x02\x00\x00\x00\x00\xf3\x8d\x93\x70'
    tail -c +34 "$seeds/small.png"
} > "$corpus/seed-320x50-actl.png"
cp "$seeds/small.png" "$corpus/seed-320x50.png"

# HTML5 bundle seeds: zips (the raw path), and the NUL-separated pieces the fuzz target zips
# itself (an odd first byte: index.html, css/style.css, js/ad.js, images/a.png).
python3 - "$corpus" "$seeds/small.png" <<'PY'
import sys, zipfile
corpus, png = sys.argv[1], open(sys.argv[2], "rb").read()
html = (b'<!doctype html><meta name="ad.size" content="width=320,height=50"><link rel=stylesheet href="css/style.css">'
        b'<script src="js/ad.js"></script><style>@import url(x.css); p{background:url("images/a.png")}</style>'
        b'<a href="javascript:go()"><img src="images/a.png" srcset="images/a.png 1x, //cdn.example/b.png 2x"></a>'
        b'<meta http-equiv=refresh content="1; url=https://example.com"><div style="background:url(a.png)"></div>')
css = b'@font-face{src:url(https://fonts.example/f.woff2)} @import "b.css"; a{background:url(\'../images/a.png\')}'
js = b'fetch("https://example.com/x"); /* "http://c" */ var t = `http://t`;'
with zipfile.ZipFile(corpus + "/seed-bundle.zip", "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr("index.html", html); z.writestr("css/style.css", css); z.writestr("js/ad.js", js)
    z.writestr("images/a.png", png); z.writestr("static.png", png); z.writestr("__MACOSX/._x", b"x")
with zipfile.ZipFile(corpus + "/seed-bundle-stored.zip", "w", zipfile.ZIP_STORED) as z:
    z.writestr("index.html", html); z.writestr("../slip.js", js); z.writestr("static.png", png)
open(corpus + "/seed-bundle-pieces", "wb").write(b"\x01" + html + b"\0" + css + b"\0" + js + b"\0" + png)
PY

# Tokens of the four containers, for libFuzzer's mutations.
dictionary="$out/formats.dict"
cat > "$dictionary" <<'EOF'
png_sig="\x89PNG\x0d\x0a\x1a\x0a"
"IHDR"
"PLTE"
"IDAT"
"IEND"
"tRNS"
"iCCP"
"sRGB"
"gAMA"
"eXIf"
"acTL"
"fcTL"
"fdAT"
jpeg_soi="\xff\xd8\xff"
jpeg_sof0="\xff\xc0"
jpeg_sof2="\xff\xc2"
jpeg_dht="\xff\xc4"
jpeg_dqt="\xff\xdb"
jpeg_sos="\xff\xda"
jpeg_app1="\xff\xe1"
jpeg_app2="\xff\xe2"
jpeg_eoi="\xff\xd9"
"Exif\x00\x00"
"ICC_PROFILE\x00"
"GIF89a"
"GIF87a"
"NETSCAPE2.0"
"RIFF"
"WEBP"
"VP8 "
"VP8L"
"VP8X"
"ALPH"
"ANIM"
"ANMF"
"ICCP"
"EXIF"
zip_local="PK\x03\x04"
zip_central="PK\x01\x02"
zip_end="PK\x05\x06"
"<meta name=\"ad.size\" content=\"width=320,height=50\">"
"<script src="
"<link href="
" srcset="
" style="
"<style>"
"url("
"@import"
"https://"
"//"
"javascript:"
"data:"
"../"
EOF

echo "fuzzing for ${seconds}s: $(find "$corpus" -type f | wc -l) inputs in $corpus, findings in $artifacts/" >&2
status=0
# SWIFT_BACKTRACE=enable=no lets the crash reach libFuzzer, which writes the input out.
# One libvips thread: the run is deterministic and leaves the other core to the machine.
SWIFT_BACKTRACE=enable=no VIPS_CONCURRENCY=1 "$binary" \
    -max_total_time="$seconds" -max_len=200000 -rss_limit_mb=1024 -timeout=10 \
    -dict="$dictionary" -artifact_prefix="$artifacts/" -print_final_stats=1 \
    "$@" "$corpus" || status=$?

findings=$(find "$artifacts" -type f | wc -l)
echo "fuzz: exit status $status; $findings file(s) in $artifacts/" >&2
[ "$findings" -eq 0 ] || ls -l "$artifacts" >&2
exit "$status"
