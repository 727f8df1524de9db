#!/usr/bin/env python3
"""The expensive and hostile inputs of the cost model, measured: CPU seconds and peak MB per
input, in the CLI (one process per job, /usr/bin/time's figures from wait4) and in the service
(one `serve` process; CPU from /proc/PID/stat, peak from VmHWM reset before each request through
/proc/PID/clear_refs). Every input is made here with zlib, zipfile and the tool itself (no
Pillow). The rule: every CLI row within 1 s of CPU and 128 MB, every service row within the job
deadline and the service's budget, and the admin probe answering throughout.

    scripts/measure_bombs.py BIN [--markdown]      (scripts/measure-bombs.sh builds BIN first)
"""
import http.client
import io
import os
import resource
import socket
import struct
import subprocess
import sys
import tempfile
import time
import zipfile
import zlib


def chunk(kind, data):
    return struct.pack('>I', len(data)) + kind + data + struct.pack('>I', zlib.crc32(kind + data) & 0xffffffff)


def png(width, height, depth=8, colour=6, interlace=0, filt=0, rows=None):
    """A valid PNG; every row the same (zeros, or a Paeth-filtered ramp when filt=4)."""
    bands = {0: 1, 2: 3, 4: 2, 6: 4}[colour]
    length = (width * bands * depth + 7) // 8
    row = bytes([filt]) + (bytes(range(256)) * (length // 256 + 1))[:length] if filt else bytes(1 + length)
    compressor = zlib.compressobj(9)
    parts = []
    left = height
    block = max(1, (1 << 20) // len(row))
    while left > 0:
        count = min(left, block)
        parts.append(compressor.compress(row * count))
        left -= count
    parts.append(compressor.flush())
    return (b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', width, height, depth, colour, 0, 0, interlace))
            + chunk(b'IDAT', b''.join(parts)) + chunk(b'IEND', b''))


def bundle(html, extra=()):
    """An HTML5 bundle: index.html with the ad size, and extra (name, bytes) entries."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, 'w', zipfile.ZIP_DEFLATED) as archive:
        archive.writestr('index.html', html)
        for name, data in extra:
            archive.writestr(name, data)
    return buffer.getvalue()


def make_inputs(tool, folder):
    head = '<!doctype html><html><head><meta name="ad.size" content="width=320,height=50"></head><body>'
    inputs = {
        'strip-1x2000000.png': png(1, 2_000_000, colour=2),
        'wide16-2000000x25.png': png(2_000_000, 25, depth=16),
        'wide16-9000000x5.png': png(9_000_000, 5, depth=16),
        'strip-512x16384.png': png(512, 16384, colour=2),
        'wide16-16384x512.png': png(16384, 512, depth=16),
        'paeth16-7000x7140.png': png(7000, 7140, depth=16, filt=4),
        'paeth8-5000x5000.png': png(5000, 5000, filt=4),
        'adam7-16-4000x4000.png': png(4000, 4000, depth=16, interlace=1),
        'attributes-40000.zip': bundle(head + '<div ' + ' '.join(f'a{i}="1"' for i in range(40000)) + '></div></body></html>'),
        'attributes-150000.zip': bundle(head + '<div ' + ' '.join(f'a{i}="1"' for i in range(150000)) + '></div></body></html>'),
        'images16-67.zip': bundle(head + ''.join(f'<img src="i{i}.png">' for i in range(67)) + '</body></html>',
                                  [(f'i{i}.png', png(2000, 2000, depth=16)) for i in range(67)]),
    }
    paths = {}
    for name, data in inputs.items():
        paths[name] = os.path.join(folder, name)
        with open(paths[name], 'wb') as out:
            out.write(data)
    # Made by the tool: a detailed 1080x1920 JPEG and a wide grey one (the test artwork letterboxed).
    for name, slot, extra in [('portrait-1080x1920.jpg', '1080x1920', []),
                              ('wide-16000x500.jpg', '16000x500', ['--background', '#808080'])]:
        paths[name] = os.path.join(folder, name)
        subprocess.run([tool, 'render', '--slot', slot, '--format', 'jpeg', '--quality', '95', '--memory-budget', '2000', '--output', paths[name]]
                       + extra, check=True, capture_output=True)
    return paths


def jobs(paths, out):
    """(label, CLI arguments, service request (method, path, body) or None)."""
    def body(name):
        with open(paths[name], 'rb') as data:
            return data.read()
    rows = []
    for name in ['strip-1x2000000.png', 'wide16-2000000x25.png', 'wide16-9000000x5.png', 'strip-512x16384.png',
                 'wide16-16384x512.png', 'paeth16-7000x7140.png', 'paeth8-5000x5000.png', 'adam7-16-4000x4000.png',
                 'wide-16000x500.jpg']:
        rows.append((f'render {name}', ['render', paths[name], '--slot', '320x50', '--max-bytes', '100000000',
                                        '--output', out + '.png'],
                     ('POST', '/v1/render?slot=320x50', body(name)) if os.path.getsize(paths[name]) < 2 << 20 else None))
    for name in ['attributes-40000.zip', 'attributes-150000.zip', 'images16-67.zip']:
        rows.append((f'validate {name}', ['validate', paths[name], '--json'], ('POST', '/v1/validate', body(name))))
    rows.append(('render no file, 4096x4096 auto', ['render', '--slot', '4096x4096', '--format', 'auto', '--output', out],
                 ('POST', '/v1/render?slot=4096x4096&format=auto', b'')))
    rows.append(('render no file, 16384x100 webp', ['render', '--slot', '16384x100', '--format', 'webp', '--output', out],
                 ('POST', '/v1/render?slot=16384x100&format=webp', b'')))
    rows.append(('render 1080x1920 JPEG, iPad Pro 12.9 auto',
                 ['render', paths['portrait-1080x1920.jpg'], '--product', 'interstitial', '--device', 'iPad Pro 12.9',
                  '--format', 'auto', '--output', out],
                 ('POST', '/v1/render?product=interstitial&device=iPad%20Pro%2012.9&orientation=portrait&format=auto',
                  body('portrait-1080x1920.jpg'))))
    rows.append(('process 1080x1920 JPEG, interstitial',
                 ['process', paths['portrait-1080x1920.jpg'], '--product', 'interstitial', '--output-dir', out + '.d'],
                 ('POST', '/v1/process?product=interstitial', body('portrait-1080x1920.jpg'))))
    return rows


def cli_row(tool, arguments):
    """CPU seconds, peak MB, exit status and codes of one run, measured by a small parent of its
    own (this script's RUSAGE_CHILDREN keeps the largest child so far)."""
    script = ('import resource, subprocess, sys\n'
              'run = subprocess.run(sys.argv[1:], capture_output=True, text=True)\n'
              'usage = resource.getrusage(resource.RUSAGE_CHILDREN)\n'
              'sys.stderr.write(run.stdout + run.stderr)\n'
              'print(run.returncode, usage.ru_utime + usage.ru_stime, usage.ru_maxrss)\n')
    run = subprocess.run([sys.executable, '-c', script, tool] + arguments, capture_output=True, text=True)
    status, cpu, peak = run.stdout.split()
    text = run.stderr
    codes = sorted({part.split('"')[0] for part in text.split('"code":"')[1:]}
                   | {line.split(': ')[1] for line in text.splitlines()
                      if line.startswith('creative-tool ') and ': ' in line and ' ' not in line.split(': ')[1]})
    return float(cpu), int(peak) / 1024, int(status), ' '.join(codes)


def free_port():
    with socket.socket() as probe:
        probe.bind(('127.0.0.1', 0))
        return probe.getsockname()[1]


def proc_cpu(pid):
    with open(f'/proc/{pid}/stat') as stat:
        fields = stat.read().rsplit(')', 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf('SC_CLK_TCK')


def proc_hwm(pid):
    with open(f'/proc/{pid}/status') as status:
        for line in status:
            if line.startswith('VmHWM:'):
                return int(line.split()[1]) / 1024
    return 0.0


def service_rows(tool, rows, timeout):
    port, admin = free_port(), free_port()
    server = subprocess.Popen([tool, 'serve', '--port', str(port), '--admin-port', str(admin), '--job-timeout', str(timeout)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            try:
                socket.create_connection(('127.0.0.1', admin), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.05)
        results = []
        for label, _, request in rows:
            if request is None:
                results.append((label, None))
                continue
            with open(f'/proc/{server.pid}/clear_refs', 'w') as refs:
                refs.write('5')
            cpu0 = proc_cpu(server.pid)
            started = time.monotonic()
            connection = http.client.HTTPConnection('127.0.0.1', port, timeout=60)
            method, path, payload = request
            connection.request(method, path, body=payload, headers={'Host': '127.0.0.1'})
            response = connection.getresponse()
            text = response.read()
            connection.close()
            probe = http.client.HTTPConnection('127.0.0.1', admin, timeout=5)
            probe.request('GET', '/healthz')
            healthy = probe.getresponse().status == 200
            probe.close()
            code = ''
            if b'"code":"' in text:
                code = text.split(b'"code":"')[1].split(b'"')[0].decode()
            results.append((label, (proc_cpu(server.pid) - cpu0, proc_hwm(server.pid), response.status, code, healthy,
                                    time.monotonic() - started)))
        return results
    finally:
        server.terminate()
        server.wait(timeout=30)


def main():
    tool = sys.argv[1]
    markdown = '--markdown' in sys.argv
    timeout = 2
    with tempfile.TemporaryDirectory() as folder:
        paths = make_inputs(tool, folder)
        rows = jobs(paths, os.path.join(folder, 'out'))
        service = dict(service_rows(tool, rows, timeout))
        failures = 0
        if markdown:
            print('| input | CLI CPU s | CLI peak MB | CLI exit, codes | service CPU s | service peak MB | status, code |')
            print('|---|---|---|---|---|---|---|')
        for label, arguments, _ in rows:
            cpu, peak, status, codes = cli_row(tool, arguments)
            over = cpu > 1.0 or peak > 128
            answer = service.get(label)
            served = '(over the 2 MiB upload limit)' if answer is None else None
            if answer is not None:
                s_cpu, s_peak, s_status, s_code, healthy, wall = answer
                over = over or s_cpu > timeout + 0.5 or not healthy
                served = (f'{s_cpu:.2f}', f'{s_peak:.0f}', f'{s_status} {s_code}' + ('' if healthy else ' PROBE FAILED'))
            failures += over
            if markdown:
                service_cells = ' | '.join(served) if isinstance(served, tuple) else f'{served} | | '
                print(f'| {label} | {cpu:.2f} | {peak:.0f} | {status} {codes} | {service_cells} |')
            else:
                service_text = ' '.join(served) if isinstance(served, tuple) else served
                print(f'{label:44} cli {cpu:5.2f} s {peak:6.0f} MB exit {status} {codes:28} | service {service_text}'
                      + ('   OVER' if over else ''))
        print('every run within 1 s of CPU and 128 MB (CLI) and the deadline with probes answering (service)'
              if not failures else f'{failures} RUNS WENT OVER')
        return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
