#!/usr/bin/env bash
# Validates openapi.yaml (openapi-spec-validator) and deploy/kubernetes.yaml (kubernetes-validate),
# both from PyPI in the project's venv (scripts/python-tools.sh), and checks that openapi.yaml lists
# every query parameter as the code declares it (scripts/check-openapi-parameters.py against
# `creative-tool serve --api-parameters` of the debug build, built when missing).
set -euo pipefail
cd "$(dirname "$0")/.."

. scripts/lint-steps.sh
need_python_tools check-specs openapi-spec-validator kubernetes-validate pyyaml

openapi-spec-validator openapi.yaml
# --strict: unknown fields are errors too. The Kubernetes version is pinned so the result does not
# depend on the tool's default.
kubernetes-validate --strict --kubernetes-version 1.30 deploy/kubernetes.yaml
. scripts/libvips-env.sh
tool="$SWIFT_SCRATCH/debug/creative-tool"
[ -x "$tool" ] || swift build --scratch-path "$SWIFT_SCRATCH" --product creative-tool >&2
declared="$SWIFT_SCRATCH/api-parameters.json"
"$tool" serve --api-parameters > "$declared"
python3 scripts/check-openapi-parameters.py openapi.yaml "$declared"
echo "check-specs: openapi.yaml and deploy/kubernetes.yaml are valid"
