#!/usr/bin/env bash
# Validates openapi.yaml (openapi-spec-validator) and deploy/kubernetes.yaml (kubernetes-validate),
# both from PyPI in the project's venv (scripts/python-tools.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

. scripts/lint-steps.sh
need_python_tools check-specs openapi-spec-validator kubernetes-validate

openapi-spec-validator openapi.yaml
# --strict: unknown fields are errors too. The Kubernetes version is pinned so the result does not
# depend on the tool's default.
kubernetes-validate --strict --kubernetes-version 1.30 deploy/kubernetes.yaml
echo "check-specs: openapi.yaml and deploy/kubernetes.yaml are valid"
