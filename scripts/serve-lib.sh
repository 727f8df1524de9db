# Sourced by scripts/apitest.sh and scripts/loadtest.sh: starts `BIN serve` on a free loopback
# port in a scratch folder and stops it (SIGTERM) on exit.
#   start_service NAME [serve options...]   sets: work, server (pid), port, admin_port
work=$(mktemp -d)
server=""
cleanup() {
    if [ -n "$server" ]; then kill -TERM "$server" 2> /dev/null || true; wait "$server" 2> /dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

start_service() {
    local name="$1"; shift
    "$BIN" serve --host 127.0.0.1 --port 0 --admin-port 0 "$@" 2> "$work/serve.log" &
    server=$!
    port=""
    for _ in $(seq 100); do
        port=$(grep -o '"event":"listening".*"port":[0-9]*' "$work/serve.log" 2> /dev/null | grep -o '[0-9]*$' || true)
        [ -n "$port" ] && break
        sleep 0.1
    done
    [ -n "$port" ] || { echo "$name: the service did not start" >&2; cat "$work/serve.log" >&2; exit 1; }
    admin_port=$(grep -o '"admin_port":[0-9]*' "$work/serve.log" | head -1 | grep -o '[0-9]*$')
}
