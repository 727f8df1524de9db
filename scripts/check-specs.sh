#!/usr/bin/env bash
# Validates openapi.yaml (openapi-spec-validator) and deploy/kubernetes.yaml (kubernetes-validate),
# installing the two PyPI tools first when they are missing.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v openapi-spec-validator > /dev/null || need+=(openapi-spec-validator)
command -v kubernetes-validate > /dev/null || need+=(kubernetes-validate)
if [ ${#need[@]} -gt 0 ]; then
    python3 -m pip install --quiet --disable-pip-version-check "${need[@]}" 2> /dev/null \
        || python3 -m pip install --quiet --disable-pip-version-check --break-system-packages "${need[@]}"
fi

openapi-spec-validator openapi.yaml
# --strict: unknown fields are errors too. The Kubernetes version is pinned so the result does not
# depend on the tool's default.
kubernetes-validate --strict --kubernetes-version 1.30 deploy/kubernetes.yaml
echo "check-specs: openapi.yaml and deploy/kubernetes.yaml are valid"
