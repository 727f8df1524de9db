#!/usr/bin/env bash
# Validates openapi.yaml (openapi-spec-validator) and the Kubernetes manifests in deploy/
# (kubernetes-validate; the worker's KEDA ScaledObject, which it has no schema for, with
# scripts/check_keda.py on KEDA's own models from cloudcoil-models-keda), all from PyPI in the
# project's venv (scripts/python-tools.sh), and checks that openapi.yaml lists every query
# parameter as the code declares it (scripts/check-openapi-parameters.py against
# `creative-tool serve --api-parameters` of the debug build, built when missing).
set -euo pipefail
cd "$(dirname "$0")/.."

. scripts/lint-steps.sh
need_python_tools check-specs openapi-spec-validator kubernetes-validate pyyaml cloudcoil-models-keda

openapi-spec-validator openapi.yaml
# --strict: unknown fields are errors too. The Kubernetes version is pinned so the result does not
# depend on the tool's default.
kubernetes-validate --strict --kubernetes-version 1.30 deploy/kubernetes.yaml deploy/worker.yaml
python scripts/check_keda.py deploy/worker.yaml
. scripts/libvips-env.sh
tool="$SWIFT_SCRATCH/debug/creative-tool"
[ -x "$tool" ] || swift build --scratch-path "$SWIFT_SCRATCH" --product creative-tool >&2
declared="$SWIFT_SCRATCH/api-parameters.json"
"$tool" serve --api-parameters > "$declared"
python3 scripts/check-openapi-parameters.py openapi.yaml "$declared"
echo "check-specs: openapi.yaml, deploy/kubernetes.yaml and deploy/worker.yaml are valid"
