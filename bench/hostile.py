#!/usr/bin/env python3
"""The hostile phase of `make loadtest`, run beside real renders: slowloris, idle connections,
bodies just under the limit, chunked oversized bodies and request-smuggling attempts, while a
prober GETs /healthz on the admin listener every 0.2 s. Only ever talks to 127.0.0.0/8; each
kind of traffic comes from its own loopback source addresses (127.0.1.x, 127.0.2.x, ...), as
other clients would. Stops by itself after SECONDS.
Usage: hostile.py PORT ADMIN_PORT SECONDS [TOKEN] [MAX_BODY_BYTES]
Prints one line per kind and a PROBES line: count, failures (no 200 within 1 s), max latency.
The prober runs in a process of its own, so that the attacking threads cannot delay it (GIL)."""
import multiprocessing
import resource, selectors, socket, sys, threading, time

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
