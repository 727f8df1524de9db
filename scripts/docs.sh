#!/usr/bin/env bash
# The advertiser guidance as a page and a picture of it:
#   OUTPUT_DIR/guidance.html   `creative-tool guidance --format html` (one self-contained page)
#   OUTPUT_DIR/guidance.png    a headless Chromium screenshot of it, to check the layout by eye
#
#   scripts/docs.sh [BINARY [OUTPUT_DIR]]     (default: the built binary, out/docs)
#
# Without BINARY: .build/release/creative-tool, else .build/debug/creative-tool, else
# `swift build` first. Installs chromium when it is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
tool="${1:-}"
out="${2:-out/docs}"

if [ -z "$tool" ]; then
    for candidate in .build/release/creative-tool .build/debug/creative-tool; do
        if [ -x "$candidate" ]; then tool="$candidate"; break; fi
    done
fi
if [ -z "$tool" ]; then
    swift build
    tool=.build/debug/creative-tool
fi
# A binary older than the sources describes old rules: say so (the make target builds first).
if [ -n "$(find Sources/CreativeCore -newer "$tool" -name '*.swift' -print -quit)" ]; then
    echo "docs: warning: $tool is older than Sources/CreativeCore; rebuild it for current guidance" >&2
fi

browser=""
for candidate in chromium chromium-browser; do
    if command -v "$candidate" >/dev/null 2>&1; then browser="$candidate"; break; fi
done
if [ -z "$browser" ]; then
    echo "installing: chromium" >&2
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends chromium >/dev/null
    browser=chromium
fi

mkdir -p "$out"
out="$(cd "$out" && pwd)"
# Written beside, then renamed: a failed run leaves no half page.
"$tool" guidance --format html > "$out/guidance.html.tmp"
mv "$out/guidance.html.tmp" "$out/guidance.html"

rm -f "$out/guidance.png"
# Chromium needs a writable profile; a throwaway one keeps the user's untouched.
profile="$(mktemp -d)"
trap 'rm -rf "$profile"' EXIT
"$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run \
    --user-data-dir="$profile" --window-size=1200,2400 \
    --screenshot="$out/guidance.png" "file://$out/guidance.html" >/dev/null 2>&1
[ -s "$out/guidance.png" ] || { echo "docs: chromium wrote no screenshot" >&2; exit 1; }

echo "$out/guidance.html"
echo "$out/guidance.png"
