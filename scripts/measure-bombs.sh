#!/usr/bin/env bash
# Measures CPU time and peak memory of validate, render and process on the decompression and
# CPU bombs of the hostile-input issue, each made the way the report made it (Pillow, zlib):
#   scripts/measure-bombs.sh            (builds the release binary when it is missing)
#   BIN=path/to/creative-tool scripts/measure-bombs.sh
# Prints one row per input and command: CPU seconds (user + system), peak RSS in MB, exit
# status and the error codes. The rule it checks: every row under 1 s of CPU and 128 MB.
# Needs Python 3 with Pillow (Debian: python3-pil) and GNU time (/usr/bin/time) for the first
# table; the second (scripts/measure_bombs.py, CLI and service) needs Python 3 alone.
#   MARKDOWN=1 scripts/measure-bombs.sh   prints the second table as Markdown (docs/cost-model.md)
set -euo pipefail
cd "$(dirname "$0")/.."

bin=${BIN:-.build/release/creative-tool}
if [ ! -x "$bin" ]; then
    swift build -c release --static-swift-stdlib >&2
fi
python=${PYTHON:-/usr/bin/python3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$python" - "$work" <<'EOF'
import io, struct, sys, zlib
from PIL import Image

out = sys.argv[1]

def chunk(kind, data):
    return struct.pack('>I', len(data)) + kind + data + struct.pack('>I', zlib.crc32(kind + data) & 0xffffffff)

def deflate_zeros(count, prefix=b''):
    compressor = zlib.compressobj(9)
    parts = [compressor.compress(prefix)]
    block = bytes(1 << 20)
    while count > 0:
        parts.append(compressor.compress(block[:min(count, len(block))]))
        count -= len(block)
    parts.append(compressor.flush())
    return b''.join(parts)

# 7. A 1.9 KB lossless WebP of 7000x7000.
Image.new('RGBA', (7000, 7000)).save(f'{out}/lossless-7000.webp', lossless=True)

# 7. A progressive CMYK JPEG of 7000x7000.
gradient = Image.linear_gradient('L').resize((7000, 7000))
Image.merge('CMYK', [gradient, gradient.rotate(90), gradient.rotate(180), gradient.rotate(270)]).save(
    f'{out}/progressive-cmyk-7000.jpg', progressive=True, quality=75)

# 7. A 16-bit interlaced PNG64 (RGBA) of 7000x7000: the seven Adam7 passes of zeros.
width = height = 7000
compressor = zlib.compressobj(9)
idat = []
for x0, y0, dx, dy in [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]:
    columns = (width - x0 + dx - 1) // dx
    rows = (height - y0 + dy - 1) // dy
    if columns and rows:
        line = bytes(1 + columns * 8)
        for _ in range(rows):
            idat.append(compressor.compress(line))
idat.append(compressor.flush())
header = struct.pack('>IIBBBBB', width, height, 16, 6, 0, 0, 1)
with open(f'{out}/png64-interlaced-7000.png', 'wb') as f:
    f.write(b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', header) + chunk(b'IDAT', b''.join(idat)) + chunk(b'IEND', b''))

# 8. zTXt bombs on a 320x50 banner: 200 chunks of 7 MiB, 40 chunks of 49 MiB.
buffer = io.BytesIO()
Image.new('RGB', (320, 50), (200, 40, 40)).save(buffer, 'PNG')
banner = buffer.getvalue()
at = banner.index(b'IDAT') - 4
for count, mib in [(200, 7), (40, 49)]:
    text = chunk(b'zTXt', b'Comment\x00\x00' + deflate_zeros(mib << 20))
    with open(f'{out}/ztxt-{count}x{mib}mib.png', 'wb') as f:
        f.write(banner[:at] + text * count + banner[at:])

# 9. A progressive 7000x7000 JPEG with 1,891 scans: Pillow's scans, then tiny AC scans that
# each cover all 765,625 blocks with a few end-of-band runs (45 bytes a scan).
buffer = io.BytesIO()
gradient.save(buffer, 'JPEG', progressive=True, quality=50)
jpeg = buffer.getvalue()
scans = 0
offset = 2
while offset + 3 < len(jpeg):
    if jpeg[offset] != 0xFF:
        offset += 1
        continue
    marker = jpeg[offset + 1]
    if marker == 0xD9:
        break
    if marker in (0x00, 0xFF) or 0xD0 <= marker <= 0xD7:
        offset += 2
        continue
    scans += marker == 0xDA
    offset += 2 + (jpeg[offset + 2] << 8 | jpeg[offset + 3])
# AC table 1: EOB run symbols 0xE0 (2^14 + 14 bits) -> code 0, 0xD0 (2^13 + 13 bits) -> code 10.
counts = bytes([1, 1] + [0] * 14)
table = b'\xff\xc4' + struct.pack('>H', 2 + 1 + 16 + 2) + b'\x11' + counts + b'\xe0\xd0'
bits = ''
blocks = 875 * 875
while blocks >= 32767:
    bits += '0' + format(32767 - 16384, '014b')
    blocks -= 32767
bits += '10' + format(blocks - 8192, '013b')
bits += '1' * (-len(bits) % 8)
data = bytearray()
for index in range(0, len(bits), 8):
    data.append(int(bits[index:index + 8], 2))
    if data[-1] == 0xFF:
        data.append(0)
scan = b'\xff\xda' + struct.pack('>HBBBBBB', 8, 1, 1, 0x01, 1, 1, 0) + bytes(data)
with open(f'{out}/scans-1891-7000.jpg', 'wb') as f:
    f.write(jpeg[:-2] + table + scan * (1891 - scans) + b'\xff\xd9')
EOF

printf '%-28s %8s %-8s %8s %8s %5s  %s\n' input bytes command cpu_s peak_mb exit codes
fail=0
for input in "$work"/*; do
    name=$(basename "$input")
    size=$(stat -c %s "$input")
    for command in validate render process; do
        case $command in
            validate) args=(validate --json "$input") ;;
            render) args=(render "$input" --slot 320x50 --output "$work/out.png") ;;
            process) args=(process "$input" --output-dir "$work/job" --json) ;;
        esac
        status=0
        /usr/bin/time -v -o "$work/time.txt" "$bin" "${args[@]}" >"$work/stdout.txt" 2>"$work/stderr.txt" || status=$?
        cpu=$(awk -F': ' '/User time/ {u=$2} /System time/ {s=$2} END {printf "%.2f", u + s}' "$work/time.txt")
        peak=$(awk -F': ' '/Maximum resident set size/ {printf "%.1f", $2 / 1024}' "$work/time.txt")
        codes=$( { grep -o '"code":"[a-z_]*"' "$work/stdout.txt" | sed 's/"code":"\(.*\)"/\1/'
                   sed -n 's/^creative-tool [a-z-]*: \([a-z_]*\): .*/\1/p' "$work/stderr.txt"; } | sort -u | tr '\n' ' ')
        printf '%-28s %8s %-8s %8s %8s %5s  %s\n' "$name" "$size" "$command" "$cpu" "$peak" "$status" "$codes"
        if awk -v c="$cpu" -v p="$peak" 'BEGIN {exit !(c > 1.0 || p > 128)}'; then fail=1; fi
        rm -rf "$work/job" "$work/out.png"
    done
done
[ "$fail" -eq 0 ] && echo "every run under 1 s of CPU and 128 MB" || echo "SOME RUN WENT OVER 1 s OF CPU OR 128 MB"
# The cost model's inputs (thin strips, wide 16-bit strips, slow filters, attribute and image
# bombs, auto on big slots), in the CLI and in the service (scripts/measure_bombs.py).
"$python" scripts/measure_bombs.py "$bin" ${MARKDOWN:+--markdown} || fail=1
exit "$fail"
