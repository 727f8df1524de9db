#!/usr/bin/env python3
"""Hostile traffic for `make loadtest`, run beside wrk: garbage bodies, truncated uploads,
slow clients, oversized bodies (declared and chunked). Only ever talks to 127.0.0.1.
Usage: abuse.py PORT SECONDS [TOKEN]; prints one summary line."""
import os, socket, sys, threading, time

port, seconds = int(sys.argv[1]), float(sys.argv[2])
token = sys.argv[3] if len(sys.argv) > 3 else ""
auth = f"Authorization: Bearer {token}\r\n" if token else ""
stop = time.time() + seconds
counts = {"garbage": 0, "truncated": 0, "slow": 0, "oversized": 0, "chunked_oversized": 0}
lock = threading.Lock()

def connect():
    s = socket.create_connection(("127.0.0.1", port), timeout=20)
    return s

def drain(s):
    try:
        while s.recv(65536):
            pass
    except OSError:
        pass
    s.close()

def garbage():
    s = connect()
    body = os.urandom(4096)
    s.sendall(f"POST /v1/render?slot=390x61&scale=3 HTTP/1.1\r\nHost: 127.0.0.1\r\n{auth}Content-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode() + body)
    drain(s)

def truncated():
    s = connect()
    s.sendall(f"POST /v1/validate HTTP/1.1\r\nHost: 127.0.0.1\r\n{auth}Content-Length: 100000\r\n\r\n".encode() + b"\x89PNG\r\n\x1a\n" + os.urandom(500))
    s.close()

def slow():
    s = connect()
    s.sendall(f"POST /v1/validate HTTP/1.1\r\nHost: 127.0.0.1\r\n{auth}Content-Length: 1000\r\n\r\n".encode())
    for _ in range(3):
        time.sleep(0.5)
        try:
            s.sendall(b"x")
        except OSError:
            break
    s.close()

def oversized():
    s = connect()
    s.sendall(f"POST /v1/render?slot=390x61 HTTP/1.1\r\nHost: 127.0.0.1\r\n{auth}Content-Length: 1000000000\r\n\r\n".encode())
    drain(s)

def chunked_oversized():
    s = connect()
    s.sendall(f"POST /v1/validate HTTP/1.1\r\nHost: 127.0.0.1\r\n{auth}Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n".encode())
    chunk = b"z" * 65536
    try:
        for _ in range(200):  # 13 MB, over the 8 MiB default limit
            s.sendall(b"10000\r\n" + chunk + b"\r\n")
        s.sendall(b"0\r\n\r\n")
    except OSError:
        pass
    drain(s)

def loop(name, action, pause):
    while time.time() < stop:
        try:
            action()
        except OSError:
            pass
        with lock:
            counts[name] += 1
        time.sleep(pause)

threads = [threading.Thread(target=loop, args=(name, globals()[name], pause)) for name, pause in
           [("garbage", 0.05), ("truncated", 0.05), ("slow", 0.0), ("slow", 0.0), ("oversized", 0.1),
            ("chunked_oversized", 0.2)]]
for t in threads:
    t.start()
for t in threads:
    t.join()
print("abuse: " + ", ".join(f"{k}={v}" for k, v in counts.items()))
