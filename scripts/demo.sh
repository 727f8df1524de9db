#!/usr/bin/env bash
# The main job on built-in data: the public test artwork, validated, rendered into every
# device slot it is picked for (with preview sheets and manifests), and a few slot renders.
#   scripts/demo.sh BINARY OUTPUT_DIR
set -euo pipefail
tool="$1"
out="${2:-out}"
mkdir -p "$out"

"$tool" test-artwork --output-dir "$out/artwork"
for size in 960x150 1320x204 2184x270; do
    "$tool" process "$out/artwork/test-artwork-$size.png" --output-dir "$out/process-$size"
done
for slot in 320x50 390x61 428x66 1024x90; do
    "$tool" render --slot "$slot" --scale 3 --output "$out/render-$slot@3x.png"
done

echo
echo "done. Look at:"
echo "  $out/process-2184x270/preview.html   its renders at their size in points (each pixel 1:1 on a Retina screen)"
echo "  $out/process-2184x270/preview.png    the 2184x270 artwork in every device slot, on one page"
echo "  $out/process-*/manifest.json         validation report and every render (size, bytes, sha256)"
echo "  $out/render-390x61@3x.png            the test artwork rendered into a 390x61 pt slot at @3x"
