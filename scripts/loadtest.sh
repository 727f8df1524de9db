#!/usr/bin/env bash
# make loadtest: two phases against a local `creative-tool serve` (default options), then SIGTERM.
#
# 1. wrk for DURATION s (default 30) at 16 connections on POST /v1/render (the 2184x270 test
#    artwork into slot 390x61 @3x), with bench/abuse.py beside it (garbage, truncated uploads,
#    slow clients, oversized bodies). Targets: >= 60 renders/s, p99 < 150 ms, zero non-2xx,
#    RSS after <= 1.5 x RSS after warm-up.
# 2. The hostile phase, HOSTILE s (default 30): 8 wrk connections of the same renders beside
#    bench/hostile.py (300 slowloris connections, 2000 idle ones, 100 clients sending bodies just
#    under the limit, chunked oversized bodies, request-smuggling attempts, 4 clients sending
#    expensive valid uploads: thin and wide strips, the slowest PNG filter at the pixel cap, auto
#    on a 4096x4096 slot, an attribute bomb, a PNG whose colour profile has 20,000 pipeline
#    stages; 16 uploads of the body limit stalled 200 bytes short, a byte every 4 s; a /healthz
#    probe on the admin listener every 0.2 s).
#    Targets: every probe answered 200 within 1 s; renders answered only 200, 503 or (the
#    expensive uploads) 422, no socket errors; the expensive uploads answered (those the
#    connection cap lets in) with 200, 422 or 503, never another 5xx; peak RSS (VmHWM) <= RSS after warm-up + the memory budget
#    (160 MiB) + 64 MiB of connection memory at the connection cap; the profile bomb rendered
#    (never a 422 timeout) and the stalled uploads cut.
# Then SIGTERM: exit 0 within the 30 s drain grace.
#   scripts/loadtest.sh [BIN] [DURATION] [HOSTILE]      (SERVE_ARGS="--workers 2" passes options to serve)
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:-.build/release/creative-tool}
DURATION=${2:-${DURATION:-30}}
HOSTILE=${3:-${HOSTILE:-30}}
CONNECTIONS=16
command -v wrk > /dev/null || scripts/install-deps.sh bench

. "$(dirname "$0")/serve-lib.sh"

start_service loadtest ${SERVE_ARGS:-}
url="http://127.0.0.1:$port"
rss() { awk '/^VmRSS/ {print $2 * 1024}' "/proc/$server/status"; }
peak() { awk '/^VmHWM/ {print $2 * 1024}' "/proc/$server/status"; }
mib() { awk -v b="$1" 'BEGIN {printf "%.1f MiB", b / 1048576}'; }
# Renders answered so far, by status, from the admin listener's metrics: "200=N 503=M".
renders() {
    curl -s "http://127.0.0.1:$admin_port/metrics" | awk -F'status="' '/^creative_http_requests_total\{route="\/v1\/render"/ {
        split($2, a, "\""); split($0, v, " "); n[a[1]] += v[2] } END { for (s in n) printf "%s=%d ", s, n[s] }'
}

rss_start=$(rss)
echo "loadtest: service on 127.0.0.1:$port (admin $admin_port, pid $server), $(nproc) processors, RSS at start $(mib "$rss_start")"
wrk -t2 -c"$CONNECTIONS" -d5s -s bench/wrk-render.lua "$url" > /dev/null
rss_warm=$(rss)
RSS_BUDGET=$((rss_warm + 224 * 1024 * 1024))
echo "loadtest: after 5 s warm-up RSS $(mib "$rss_warm")"

python3 bench/abuse.py "$port" "$DURATION" > "$work/abuse.txt" &
abuse=$!
wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --latency -s bench/wrk-render.lua "$url" | tee "$work/wrk.txt"
wait "$abuse" || true
cat "$work/abuse.txt"
rss_after=$(rss)
result=$(grep '^RESULT' "$work/wrk.txt")
value() { echo "$result" | grep -o "$1=[0-9.]*" | cut -d= -f2; }
rps=$(value rps); p50=$(value p50_ms); p99=$(value p99_ms); non2xx=$(value non2xx); socket_errors=$(value socket_errors)
curl -s "$url/metrics" > "$work/metrics.txt" 2> /dev/null || true

echo
echo "loadtest: hostile phase, ${HOSTILE} s"
before=$(renders)
wrk -t2 -c8 -d"${HOSTILE}s" -s bench/wrk-render.lua "$url" > "$work/wrk-hostile.txt" &
wrk_hostile=$!
sleep 1
python3 bench/hostile.py "$port" "$admin_port" "$((HOSTILE - 2))" > "$work/hostile.txt"
wait "$wrk_hostile" || true
after=$(renders)
cat "$work/hostile.txt"
hostile_result=$(grep '^RESULT' "$work/wrk-hostile.txt")
hostile_socket_errors=$(echo "$hostile_result" | grep -o 'socket_errors=[0-9]*' | cut -d= -f2)
probes=$(grep '^PROBES' "$work/hostile.txt")
probe_failures=$(echo "$probes" | grep -o 'failures=[0-9]*' | cut -d= -f2)
# Render statuses during the hostile phase: after minus before, per status.
statuses=$(awk -v b="$before" -v a="$after" 'BEGIN {
    nb = split(b, x, " "); for (i = 1; i <= nb; i++) { split(x[i], kv, "="); base[kv[1]] = kv[2] }
    na = split(a, y, " "); for (i = 1; i <= na; i++) { split(y[i], kv, "="); d = kv[2] - base[kv[1]]; if (d > 0) printf "%s=%d ", kv[1], d } }')
rss_peak=$(peak)
curl -s "http://127.0.0.1:$admin_port/metrics" > "$work/metrics-hostile.txt" 2> /dev/null || true

started=$(date +%s.%N)
kill -TERM "$server"
wait "$server" && stopped=0 || stopped=$?
stop_seconds=$(awk -v s="$started" -v e="$(date +%s.%N)" 'BEGIN {printf "%.1f", e - s}')
server=""

echo
echo "== loadtest: POST /v1/render (2184x270 -> 390x61@3x), $CONNECTIONS connections, ${DURATION} s, with abuse traffic =="
echo "requests/s:   $rps   (target >= 60)"
echo "latency p50:  $p50 ms"
echo "latency p99:  $p99 ms   (target < 150)"
echo "non-2xx:      $non2xx   (target 0; socket errors $socket_errors)"
echo "RSS:          start $(mib "$rss_start"), after warm-up $(mib "$rss_warm"), after $(mib "$rss_after")   (target after <= 1.5 x warm-up)"
grep -E '^creative_http_errors_total|^creative_http_requests_aborted_total' "$work/metrics.txt" | sed 's/^/metrics:      /' || true
echo "== hostile phase: 8 render connections beside slowloris, idle, near-limit, stalled, chunked and smuggling traffic, ${HOSTILE} s =="
echo "renders:      $statuses  (target: only 200, 503 and the expensive uploads' 422; socket errors $hostile_socket_errors, target 0)"
echo "probes:       $probes   (target: every /healthz 200 within 1 s)"
echo "peak RSS:     $(mib "$rss_peak")   (target <= $(mib "$RSS_BUDGET"))"
grep -E '^creative_connections_closed_total|^creative_memory_budget_refusals_total|^creative_log_lines_dropped_total' \
    "$work/metrics-hostile.txt" | sed 's/^/metrics:      /' || true
echo "SIGTERM:      exit $stopped after $stop_seconds s   (target 0 within 30 s)"

fail=0
awk -v v="$rps" 'BEGIN {exit !(v >= 60)}' || { echo "FAIL: under 60 renders/s"; fail=1; }
awk -v v="$p99" 'BEGIN {exit !(v < 150)}' || { echo "FAIL: p99 not under 150 ms"; fail=1; }
[ "$non2xx" -eq 0 ] && [ "$socket_errors" -eq 0 ] || { echo "FAIL: non-2xx or socket errors"; fail=1; }
awk -v a="$rss_after" -v w="$rss_warm" 'BEGIN {exit !(a <= 1.5 * w)}' || { echo "FAIL: memory grew over 1.5x"; fail=1; }
[ "$probe_failures" = 0 ] || { echo "FAIL: a /healthz probe on the admin listener failed or took over 1 s"; fail=1; }
echo "$statuses" | grep -qE '(^| )(200|503)=' && ! echo "$statuses" | grep -qvE '^( *(200|422|503)=[0-9]+)* *$' \
    || { echo "FAIL: renders answered other than 200/422/503 (or none)"; fail=1; }
! grep -E '^hostile: expensive_[a-z0-9]+_5[0-9][0-9]=' "$work/hostile.txt" | grep -qv '_503=' \
    || { echo "FAIL: an expensive upload got a 5xx other than 503"; fail=1; }
grep -qE '^hostile: expensive_[a-z0-9]+_(200|422|400)=' "$work/hostile.txt" \
    || { echo "FAIL: no expensive upload got through to an answer"; fail=1; }
! grep -qE '^hostile: expensive_profile_422=' "$work/hostile.txt" \
    || { echo "FAIL: the colour-profile bomb ran into the deadline (422)"; fail=1; }
grep -qE '^hostile: stalled_body_(cut|answered_503)=[1-9]' "$work/hostile.txt" \
    || { echo "FAIL: no stalled upload was cut"; fail=1; }
[ "${hostile_socket_errors:-1}" -eq 0 ] || { echo "FAIL: render socket errors in the hostile phase"; fail=1; }
[ "$rss_peak" -le "$RSS_BUDGET" ] || { echo "FAIL: peak RSS over warm-up + budget + connections"; fail=1; }
[ "$stopped" -eq 0 ] || { echo "FAIL: exit $stopped on SIGTERM"; fail=1; }
awk -v v="$stop_seconds" 'BEGIN {exit !(v <= 30)}' || { echo "FAIL: SIGTERM took over 30 s"; fail=1; }
[ "$fail" -eq 0 ] && echo "loadtest: all targets met"
exit "$fail"
