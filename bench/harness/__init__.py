"""The benchmark harness of creative-tool: `make bench` runs bench/bench.py, which runs the
sections of harness/sections/ (one module each), writes one JSON result file and prints a
markdown report made from it (harness/report.py). bench/tables.py rewrites the tables of
docs/performance.md from the same file.

The pure parts (statistics, parsing of hyperfine, wrk and /proc, the report and the doc's
blocks) import nothing outside the standard library; bench/tests tests them."""
