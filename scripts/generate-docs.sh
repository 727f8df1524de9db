#!/usr/bin/env bash
# Rewrites the files written from the option declarations (`creative-tool help --format F`):
# docs/commands.md, the man page docs/creative-tool.1 and the completions in docs/completions/.
# Run it after changing a command's options or help; make test fails while one of them is stale.
#   scripts/generate-docs.sh [TOOL]      (default: the debug build, built when missing)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/libvips-env.sh
tool="${1:-$SWIFT_SCRATCH/debug/creative-tool}"
[ -x "$tool" ] || swift build --scratch-path "$SWIFT_SCRATCH" --product creative-tool >&2
mkdir -p docs/completions
# Each format and the file it writes (Tests/CreativeCLITests/GeneratedDocsTests.swift compares the same).
printf '%s\n' "markdown docs/commands.md" "man docs/creative-tool.1" \
    "bash docs/completions/creative-tool.bash" "zsh docs/completions/_creative-tool" |
while read -r format file; do
    "$tool" help --format "$format" > "$file.new"
    mv "$file.new" "$file"
    echo "wrote $file"
done
