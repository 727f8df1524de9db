#!/usr/bin/env bash
# The advertiser guidance as a page, and pictures of it and of the try-it page (`serve`'s `GET /`):
#   OUTPUT_DIR/guidance.html   `creative-tool guidance --format html` (one self-contained page)
#   docs/try-it-{375,1280}.png, try-it-rejected-375.png, try-it-interstitial-1280.png,
#   docs/guidance-top-{375,1280}.png, guidance-prompts-{375,1280}.png, guidance-templates-1280.png
#                              headless Chromium screenshots at a phone's and a desktop's width,
#                              taken by the browser tests (Tests/Browser/test_pages.py), shown
#                              by README.md, docs/reference.md and docs/http-api.md
#
#   scripts/docs.sh [BINARY [OUTPUT_DIR]]     (default: the built binary, out/docs)
#
# Without BINARY: .build/release/creative-tool, else .build/debug/creative-tool, else
# `swift build` first. Installs chromium, chromium-driver and python3-selenium when missing.
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

scripts/install-deps.sh browser

mkdir -p "$out"
out="$(cd "$out" && pwd)"
# Written beside, then renamed: a failed run leaves no half page.
"$tool" guidance --format html > "$out/guidance.html.tmp"
mv "$out/guidance.html.tmp" "$out/guidance.html"
echo "$out/guidance.html"

# The browser tests against `serve`, saving the pages at 375 and 1280 CSS pixels wide into docs/.
rm -f docs/guidance-*.png docs/try-it-*.png
/usr/bin/python3 Tests/Browser/test_pages.py "$tool" --screenshots docs
