#!/usr/bin/env python3
"""Rewrites the generated tables of docs/performance.md from a results file of bench/bench.py.

    bench/tables.py [RESULTS] [DOC]     (defaults: out/bench/results.json, docs/performance.md)

Each block between <!-- bench:NAME --> and <!-- /bench:NAME --> (machine, summary, and one per
section: startup, render, bytes, weight, validate, preflight, process, serve, worker, memory) is
replaced by the report's block of that name; blocks of sections the results do not hold, and all
the prose around them, stay as they are (a run of only weight or memory, which date their own
blocks, leaves the machine block too). Exit 1 when the document lacks the markers of a block it
gets."""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import docs, report  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main(arguments):
    results_path = arguments[0] if arguments else os.path.join(REPO, "out", "bench", "results.json")
    doc_path = arguments[1] if len(arguments) > 1 else os.path.join(REPO, "docs", "performance.md")
    with open(results_path, encoding="utf-8") as handle:
        results = json.load(handle)
    blocks = {name: docs.demote(text) for name, text in report.blocks(results).items()}
    with open(doc_path, encoding="utf-8") as handle:
        text = handle.read()
    try:
        rewritten = docs.replace_blocks(text, blocks, required=blocks)
    except docs.DocsError as error:
        sys.exit("bench/tables.py: %s: %s" % (doc_path, error))
    with open(doc_path, "w", encoding="utf-8") as handle:
        handle.write(rewritten)
    print("bench/tables.py: %s: rewrote %s from %s" % (doc_path, ", ".join(blocks), results_path))


if __name__ == "__main__":
    main(sys.argv[1:])
