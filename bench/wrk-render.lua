-- wrk script: POST the 2184x270 test artwork to /v1/render (slot 390x61 @3x) and report
-- requests/s, p50/p99 latency, the non-2xx count and the bytes received as one "RESULT" line.
-- Usage: wrk -s bench/wrk-render.lua http://127.0.0.1:PORT
-- Environment: ARTWORK=path overrides the image, CONTENT_TYPE its type (default image/png),
-- FORMAT the render's format (default png). GET_PATH=/path GETs that path instead (a peer
-- service's URL for the same render, as `make bench PEERS=...` uses).
local get_path = os.getenv("GET_PATH")
if get_path and get_path ~= "" then
  wrk.method = "GET"
  wrk.path = get_path
else
  local path = os.getenv("ARTWORK") or "TestImages/test-artwork-2184x270.png"
  local file = assert(io.open(path, "rb"))
  local body = file:read("*a")
  file:close()
  wrk.method = "POST"
  wrk.path = "/v1/render?slot=390x61&scale=3&format=" .. (os.getenv("FORMAT") or "png")
  wrk.body = body
  wrk.headers["Content-Type"] = os.getenv("CONTENT_TYPE") or "image/png"
end
local token = os.getenv("TOKEN")
if token and token ~= "" then wrk.headers["Authorization"] = "Bearer " .. token end

done = function(summary, latency, requests)
  local non2xx = summary.errors.status
  local socket = summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout
  io.write(string.format(
    "RESULT requests=%d seconds=%.1f rps=%.1f p50_ms=%.1f p90_ms=%.1f p99_ms=%.1f max_ms=%.1f non2xx=%d socket_errors=%d bytes=%d\n",
    summary.requests, summary.duration / 1e6, summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(90) / 1000, latency:percentile(99) / 1000,
    latency.max / 1000, non2xx, socket, summary.bytes))
end
