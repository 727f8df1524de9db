"""Runs a program on a pseudo-terminal, as at a user's terminal: its standard input, output and
error are the terminal (`isatty` is true), and what the terminal shows is written out.

    python3 scripts/pty_run.py PROGRAM [ARGUMENT...]

Exits with the program's exit code. scripts/check-examples.py and the TTY tests use it.
"""
import os
import pty
import sys


def run(argv, cwd=None, env=None):
    """(exit code, bytes the terminal showed) of `argv` run on a new pseudo-terminal."""
    pid, fd = pty.fork()
    if pid == 0:
        if cwd:
            os.chdir(cwd)
        os.execve(argv[0], argv, env if env is not None else os.environ)
    shown = b""
    while True:
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            break
        if not chunk:
            break
        shown += chunk
    os.close(fd)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status), shown


if __name__ == "__main__":
    code, shown = run(sys.argv[1:])
    sys.stdout.buffer.write(shown)
    sys.exit(code)
