# Sourced by the checks that need Python tools from PyPI (scripts/check-specs.sh,
# scripts/lint-dockerfile.sh): `need_python_tools NAME PACKAGE...` puts them on PATH.
# When PyPI cannot be reached, a developer's run says so in one warning and skips that check
# (exit 0), so `make test` still runs the test suite offline; under CI (CI=true) it is a failure.
# shellcheck shell=bash
need_python_tools() {
    local check="$1" bin status=0
    shift
    bin="$(scripts/python-tools.sh "$@")" || status=$?
    if [ "$status" -eq 0 ]; then PATH="$bin:$PATH"; return 0; fi
    if [ "$status" -eq 3 ] && [ "${CI:-}" != true ]; then
        echo "$check: warning: skipped, PyPI could not be reached to install $* (CI=true makes this an error)" >&2
        exit 0
    fi
    echo "$check: cannot install $*" >&2
    exit 1
}
