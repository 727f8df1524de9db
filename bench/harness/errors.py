"""The one error of the harness."""


class BenchError(Exception):
    """A benchmark that cannot go on honestly: a tool missing, a peer that did not write the output
    it is compared on, an output of the wrong shape, a service that stopped during a run. The
    message is one line; bench/bench.py prints it as "bench: MESSAGE" and exits 1."""
