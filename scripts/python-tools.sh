#!/usr/bin/env bash
# Installs Python tools into the project's own virtual environment (.build/venv, made with Debian's
# python3-venv) and prints its bin folder; never installs into the system Python (PEP 668).
#   PATH="$(scripts/python-tools.sh PACKAGE...):$PATH"
# Each PACKAGE is a PyPI name; only the missing ones are installed. Exits 3 when PyPI cannot be
# reached (or refuses), so a caller can tell "no network" from a failed check: see
# scripts/lint-steps.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.build/venv
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -m pip --version >/dev/null 2>&1; then
    if ! python3 -c 'import ensurepip, venv' 2>/dev/null; then
        echo "installing: python3-venv" >&2
        sudo=""
        [ "$(id -u)" -eq 0 ] || sudo="sudo"
        $sudo apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends python3-venv >/dev/null
    fi
    rm -rf "$venv"
    python3 -m venv "$venv" >&2
fi
missing=()
for package in "$@"; do
    "$venv/bin/python" -m pip show --quiet "$package" >/dev/null 2>&1 || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "installing into $venv: ${missing[*]}" >&2
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "${missing[@]}" >&2 || exit 3
fi
echo "$PWD/$venv/bin"
