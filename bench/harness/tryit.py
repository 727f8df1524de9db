"""The try-it page's job, timed against `serve` as the page runs it: POST /v1/validate, then
POST /v1/process with Accept: application/zip, of the public 960x150 test artwork; alone, then
with other uploads in flight (process of the bench photograph as a zip each, started just before).
The page's correctness is the browser tests'; here only the wall time of the two requests and
every answer's status."""
import os
import statistics
import threading
import time
import urllib.error
import urllib.request

from .context import REPO_DIR, note

ARTWORK = os.path.join(REPO_DIR, "TestImages", "test-artwork-960x150.png")
# How many other uploads are in flight beside the page's job, and the page's goal in seconds.
BESIDE = 3
GOAL_SECONDS = 3.0


def post(url, path, accept=None, statuses=None):
    """One POST of the file at PATH; its status (an HTTP error's code, or the exception's name)."""
    with open(path, "rb") as handle:
        body = handle.read()
    headers = {"Content-Type": "image/jpeg" if path.endswith(".jpg") else "image/png"}
    if accept:
        headers["Accept"] = accept
    try:
        with urllib.request.urlopen(urllib.request.Request(url, data=body, headers=headers), timeout=120) as answer:
            answer.read()
            status = answer.status
    except urllib.error.HTTPError as error:
        error.read()
        status = error.code
    except OSError as error:
        status = type(error).__name__
    if statuses is not None:
        statuses.append(status)
    return status


def page_job(base, statuses):
    """The page's two requests; their wall time in seconds."""
    started = time.monotonic()
    post(base + "/v1/validate?product=banner", ARTWORK, statuses=statuses)
    post(base + "/v1/process?product=banner", ARTWORK, accept="application/zip", statuses=statuses)
    return time.monotonic() - started


def run(service, photo, runs):
    """{"alone": row, "beside": row}: each row the page job's times over RUNS runs (median, max)
    and the statuses of every answer, the page's and the other uploads'."""
    rows = {}
    for case, others in (("alone", 0), ("beside", BESIDE)):
        times, page_statuses, other_statuses = [], [], []
        for index in range(runs):
            note("serve: the try-it page's job, %s, run %d of %d" % (case, index + 1, runs))
            threads = [threading.Thread(target=post, args=(service.url + "/v1/process?product=banner", photo,
                                                           "application/zip", other_statuses))
                       for _ in range(others)]
            for thread in threads:
                thread.start()
            if threads:
                time.sleep(0.2)
            times.append(page_job(service.url, page_statuses))
            for thread in threads:
                thread.join()
        rows[case] = {"runs": runs, "uploads_beside": others, "median_s": round(statistics.median(times), 3),
                      "max_s": round(max(times), 3), "times_s": [round(value, 3) for value in times],
                      "page_statuses": page_statuses, "other_statuses": other_statuses}
    return rows
