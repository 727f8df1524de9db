#!/usr/bin/env python3
"""The hostile phase of `make loadtest`, run beside real renders: slowloris, idle connections,
bodies just under the limit, 16 stalled uploads of the body limit (all but 200 bytes, then a byte
every 4 s), chunked oversized bodies, request-smuggling attempts and
expensive valid uploads (thin strips, wide 16-bit strips, the slowest PNG filter at the pixel
cap, `auto` on big slots with no upload, attribute bombs in bundles, a colour profile of 20,000
pipeline stages), while a
prober GETs /healthz on the admin listener every 0.2 s. Only ever talks to 127.0.0.0/8; each
kind of traffic comes from its own loopback source addresses (127.0.1.x, 127.0.2.x, ...), as
other clients would. Stops by itself after SECONDS.
Usage: hostile.py PORT ADMIN_PORT SECONDS [TOKEN] [MAX_BODY_BYTES]
Prints one line per kind and a PROBES line: count, failures (no 200 within 1 s), max latency.
The prober runs in a process of its own, so that the attacking threads cannot delay it (GIL)."""
import multiprocessing
import io, resource, selectors, socket, struct, sys, threading, time, zipfile, zlib

port, admin, seconds = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
token = sys.argv[4] if len(sys.argv) > 4 else ""
limit = int(sys.argv[5]) if len(sys.argv) > 5 else 8 * 1024 * 1024
auth = f"Authorization: Bearer {token}\r\n" if token else ""
stop = time.time() + seconds
lock = threading.Lock()
counts = {}
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 8192), hard))

def count(key, n=1):
    with lock:
        counts[key] = counts.get(key, 0) + n

def connect(source, timeout=10):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.settimeout(timeout)
    s.bind((source, 0))
    s.connect(("127.0.0.1", port))
    return s

def status_of(s):
    data = b""
    try:
        while b"\r\n" not in data:
            chunk = s.recv(4096)
            if not chunk:
                break
            data += chunk
    except OSError:
        pass
    parts = data.split(b" ", 2)
    return parts[1].decode() if len(parts) > 1 and data.startswith(b"HTTP/1.1") else "none"

def held(name, total, sources, first_bytes, trickle):
    """Keeps `total` connections open from `sources`; each sent `first_bytes`, then (if trickle)
    one more header byte every 6 s. Reopens those the service closes, counting them."""
    sel = selectors.DefaultSelector()
    open_socks = set()
    def open_one(i):
        try:
            s = connect(sources[i % len(sources)])
            s.sendall(first_bytes)
            s.setblocking(False)
            sel.register(s, selectors.EVENT_READ)
            open_socks.add(s)
            count(name + "_opened")
        except OSError:
            count(name + "_refused")
    for i in range(total):
        if time.time() > stop:
            break
        open_one(i)
    next_trickle = time.time() + 6
    while time.time() < stop:
        for key, _ in sel.select(timeout=0.5):
            s = key.fileobj
            try:
                gone = not s.recv(4096)
            except BlockingIOError:
                gone = False
            except OSError:
                gone = True
            if gone:
                sel.unregister(s)
                open_socks.discard(s)
                s.close()
                count(name + "_closed_by_service")
        if trickle and time.time() > next_trickle:
            next_trickle = time.time() + 6
            for s in list(open_socks):
                try:
                    s.send(b"X")
                except OSError:
                    pass
        missing = total - len(open_socks)
        for i in range(min(missing, 50)):
            open_one(i)
    for s in open_socks:
        s.close()

def near_limit_bodies(source):
    body = b"\0" * (limit - 1)
    while time.time() < stop:
        try:
            s = connect(source, timeout=15)
            s.sendall(f"POST /v1/validate HTTP/1.1\r\nHost: 127.0.0.1\r\n{auth}Content-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode() + body)
            count("near_limit_body_" + status_of(s))
            s.close()
        except OSError:
            count("near_limit_body_socket_error")
            time.sleep(0.2)

def chunked_oversized():
    chunk = b"10000\r\n" + b"z" * 65536 + b"\r\n"
    while time.time() < stop:
        try:
            s = connect("127.0.4.1")
            s.sendall(f"POST /v1/validate HTTP/1.1\r\nHost: 127.0.0.1\r\n{auth}Transfer-Encoding: chunked\r\n\r\n".encode())
            for _ in range(limit // 65536 + 16):
                s.sendall(chunk)
            s.sendall(b"0\r\n\r\n")
        except OSError:
            pass
        count("chunked_oversized_" + status_of(s))
        s.close()
        time.sleep(0.1)

SMUGGLING = [
    b"POST /v1/select HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\nContent-Length: 60\r\n\r\nhello",
    b"POST /v1/select HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
    b"POST /v1/select HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n",
]

def smuggling():
    smuggled = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    while time.time() < stop:
        for request in SMUGGLING:
            try:
                s = connect("127.0.5.1", timeout=5)
                s.sendall(request + smuggled)
                data = b""
                while True:
                    chunk = s.recv(65536)
                    if not chunk:
                        break
                    data += chunk
                s.close()
                if data.count(b"HTTP/1.1 ") > 1 or b'"status":"ok"' in data:
                    count("smuggling_SERVED")  # the smuggled request got an answer: a failure
                elif data.startswith(b"HTTP/1.1 400"):
                    count("smuggling_400")
                else:
                    count("smuggling_no_answer")  # refused at accept (connection cap)
            except OSError:
                count("smuggling_socket_error")
        time.sleep(0.1)

def png(width, height, depth=8, colour=6, filt=0):
    """A valid PNG whose rows are all the same (zeros, or a ramp under the Paeth filter)."""
    bands = {0: 1, 2: 3, 6: 4}[colour]
    length = width * bands * depth // 8
    row = bytes([filt]) + (bytes(range(256)) * (length // 256 + 1))[:length] if filt else bytes(1 + length)
    compressor = zlib.compressobj(9)
    data = b"".join(compressor.compress(row) for _ in range(height)) + compressor.flush()
    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xffffffff)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, depth, colour, 0, 0, 0))
            + chunk(b"IDAT", data) + chunk(b"IEND", b""))

def attribute_bundle(count):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("index.html", '<meta name="ad.size" content="width=320,height=50"><div '
                         + " ".join(f'a{i}="1"' for i in range(count)) + "></div>")
    return buffer.getvalue()

def profile_bomb_png(stages=20000):
    """A 960x150 PNG whose ICC profile's float pipeline (D2B0, D2B1: multiProcessElements) lists
    `stages` stages, all one shared 3x3 matrix: 160 KB of profile in about 1.6 KB of file. Little
    CMS would spend seconds building its transform; the service ignores the profile."""
    def be(value, size):
        return value.to_bytes(size, "big")
    matrix = b"matf" + be(0, 4) + be(3, 2) + be(3, 2) + b"".join(struct.pack(">f", v) for v in [1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0])
    mpet = (b"mpet" + be(0, 4) + be(3, 2) + be(3, 2) + be(stages, 4)
            + (be(16 + stages * 8, 4) + be(len(matrix), 4)) * stages + matrix)
    def xyz(x, y, z):
        return b"XYZ " + be(0, 4) + be(round(x * 65536), 4) + be(round(y * 65536), 4) + be(round(z * 65536), 4)
    description = b"desc" + be(0, 4) + be(7, 4) + b"stages\x00" + bytes(12 + 67)
    # A matrix-shaper sRGB profile (D50 primaries, linear curves), and the float pipelines that
    # Little CMS prefers to it.
    tags = [(b"desc", description), (b"wtpt", xyz(0.9642, 1.0, 0.8249)), (b"rXYZ", xyz(0.4361, 0.2225, 0.0139)),
            (b"gXYZ", xyz(0.3851, 0.7169, 0.0971)), (b"bXYZ", xyz(0.1431, 0.0606, 0.7141)),
            (b"rTRC", b"curv" + be(0, 8)), (b"D2B0", mpet), (b"D2B1", mpet)]
    offset, table, data, placed = 132 + 12 * len(tags) + 24, b"", b"", {}
    for name, body in tags + [(b"gTRC", b"curv" + be(0, 8)), (b"bTRC", b"curv" + be(0, 8))]:
        if body not in placed:  # equal data shared, as profiles share it
            placed[body] = offset + len(data)
            data += body + bytes((4 - len(body) % 4) % 4)
        table += name + be(placed[body], 4) + be(len(body), 4)
    tags += [(b"gTRC", b""), (b"bTRC", b"")]
    header = bytearray(128)
    header[4:8], header[8:12], header[12:16] = b"lcms", bytes([4, 0x30, 0, 0]), b"mntr"
    header[16:20], header[20:24], header[36:40] = b"RGB ", b"XYZ ", b"acsp"
    header[68:80] = be(0xF6D6, 4) + be(0x10000, 4) + be(0xD32D, 4)
    profile = bytes(header) + be(len(tags), 4) + table + data
    profile = be(len(profile), 4) + profile[4:]
    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xffffffff)
    width, height = 960, 150
    rows = b"".join(b"\x00" + bytes([200, 30, 30]) * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"iCCP", b"stages\x00\x00" + zlib.compress(profile, 9)) + chunk(b"IDAT", zlib.compress(rows, 9))
            + chunk(b"IEND", b""))

def stalled_bodies(source):
    """An upload of the body limit that sends all but 200 bytes at once, then one byte every 4 s
    (it held the memory budget for minutes when the rate was an average): cut by the service
    (`slow_body` or `budget_pressure`), then opened again."""
    while time.time() < stop:
        try:
            s = connect(source, timeout=10)
            s.sendall(f"POST /v1/validate HTTP/1.1\r\nHost: 127.0.0.1\r\n{auth}Content-Length: {limit}\r\n\r\n".encode()
                      + bytes(limit - 200))
        except OSError:
            count("stalled_body_send_failed")
            time.sleep(0.2)
            continue
        count("stalled_body_opened")
        try:
            while time.time() < stop:
                # A close (or an early 503) shows as readable within the 4 s between bytes.
                if select_readable(s, 4):
                    data = s.recv(4096)
                    count("stalled_body_cut" if not data else "stalled_body_answered_" + status_of_bytes(data))
                    break
                s.sendall(b"\x00")
        except OSError:
            count("stalled_body_cut")
        s.close()

def select_readable(s, seconds):
    sel = selectors.DefaultSelector()
    sel.register(s, selectors.EVENT_READ)
    ready = sel.select(timeout=seconds)
    sel.close()
    return bool(ready)

def status_of_bytes(data):
    parts = data.split(b" ", 2)
    return parts[1].decode() if len(parts) > 1 and data.startswith(b"HTTP/1.1") else "none"

# Expensive but well-formed: each must end with a stable code (or a render) within its budget.
EXPENSIVE = [
    ("strip", "/v1/render?slot=320x50", png(1, 2_000_000, colour=2)),
    ("tall", "/v1/render?slot=320x50&format=auto", png(512, 16384, colour=2)),
    ("wide16", "/v1/render?slot=320x50", png(16384, 512, depth=16)),
    ("paeth16", "/v1/render?slot=320x50", png(7000, 7140, depth=16, filt=4)),
    ("auto4096", "/v1/render?slot=4096x4096&format=auto", b""),
    ("attributes", "/v1/validate", attribute_bundle(40000)),
    ("profile", "/v1/render?slot=320x50", profile_bomb_png()),
]

def expensive_valid(source):
    while time.time() < stop:
        for name, path, body in EXPENSIVE:
            if time.time() > stop:
                break
            try:
                s = connect(source, timeout=30)
                s.sendall(f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{auth}Content-Length: {len(body)}\r\n"
                          f"Connection: close\r\n\r\n".encode() + body)
                count(f"expensive_{name}_" + status_of(s))
                s.close()
            except OSError:
                count(f"expensive_{name}_socket_error")
                time.sleep(0.2)

def prober(results):
    probe_latencies, probe_failures = [], []
    while time.time() < stop:
        started = time.time()
        try:
            s = socket.create_connection(("127.0.0.1", admin), timeout=1)
            s.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            ok = status_of(s) == "200"
            s.close()
        except OSError:
            ok = False
        elapsed = time.time() - started
        probe_latencies.append(elapsed)
        if not ok or elapsed > 1:
            probe_failures.append(round(time.time() - (stop - seconds), 1))
        time.sleep(max(0, 0.2 - elapsed))
    results.put((probe_latencies, probe_failures))

results = multiprocessing.Queue()
probe = multiprocessing.Process(target=prober, args=(results,))
probe.start()
threads = [threading.Thread(target=held, args=("slowloris", 300, [f"127.0.1.{i}" for i in range(1, 7)],
                                               b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n", True)),
           threading.Thread(target=held, args=("idle", 2000, [f"127.0.2.{i}" for i in range(1, 41)], b"", False)),
           threading.Thread(target=chunked_oversized),
           threading.Thread(target=smuggling)]
threads += [threading.Thread(target=near_limit_bodies, args=(f"127.0.3.{i % 4 + 1}",)) for i in range(100)]
threads += [threading.Thread(target=expensive_valid, args=(f"127.0.6.{i + 1}",)) for i in range(4)]
threads += [threading.Thread(target=stalled_bodies, args=(f"127.0.7.{i % 4 + 1}",)) for i in range(16)]
for t in threads:
    t.start()
for t in threads:
    t.join()
probe_latencies, probe_failures = results.get()
probe.join()
for key in sorted(counts):
    print(f"hostile: {key}={counts[key]}")
print(f"PROBES count={len(probe_latencies)} failures={len(probe_failures)} "
      f"max_ms={max(probe_latencies, default=0) * 1000:.0f} failed_at_s={probe_failures[:10]}")
