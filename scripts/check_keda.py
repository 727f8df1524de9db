"""Checks the KEDA ScaledObjects of Kubernetes manifests, which kubernetes-validate has no schema for.

Each ScaledObject is read into KEDA's own models (PyPI cloudcoil-models-keda, generated from
KEDA's CRDs) and written back: a field the models dropped is unknown to KEDA, which fails like
kubernetes-validate --strict. A redis-streams trigger may only use the scaler's documented
metadata, must scale on the group's lag, and must name the stream and consumer group that the
Deployment it scales passes to `creative-tool worker`.
    python scripts/check_keda.py deploy/worker.yaml
"""
import sys

import yaml
from cloudcoil.models.keda import v1alpha1

REDIS_STREAMS_KEYS = {
    "address", "addressFromEnv", "host", "hostFromEnv", "port", "portFromEnv", "usernameFromEnv",
    "passwordFromEnv", "databaseIndex", "enableTLS", "unsafeSsl", "stream", "consumerGroup",
    "pendingEntriesCount", "streamLength", "lagCount", "activationLagCount", "activationStreamLength",
}


def dropped(given, kept, path=""):
    """The paths of fields in `given` that are not in `kept`."""
    if isinstance(given, dict):
        out = []
        for key, value in given.items():
            if not isinstance(kept, dict) or key not in kept:
                out.append(f"{path}.{key}")
            else:
                out += dropped(value, kept[key], f"{path}.{key}")
        return out
    if isinstance(given, list) and isinstance(kept, list):
        return [p for index, item in enumerate(given) for p in dropped(item, kept[index], f"{path}[{index}]")]
    return []


def worker_option(container, name):
    args = container.get("args", [])
    return args[args.index(name) + 1] if name in args[:-1] else None


def check(path):
    documents = [d for d in yaml.safe_load_all(open(path)) if d]
    deployments = {d["metadata"]["name"]: d for d in documents if d.get("kind") == "Deployment"}
    failures, checked = [], 0
    for document in documents:
        if document.get("kind") != "ScaledObject":
            continue
        checked += 1
        name = document["metadata"]["name"]
        try:
            model = v1alpha1.ScaledObject.model_validate(document)
        except Exception as error:  # pydantic's ValidationError: the message says which field
            failures.append(f"{name}: {error}")
            continue
        unknown = dropped(document, model.model_dump(by_alias=True, exclude_unset=True, mode="json"))
        failures += [f"{name}: unknown field {field}" for field in unknown]
        target = deployments.get(document["spec"]["scaleTargetRef"]["name"])
        if target is None:
            failures.append(f"{name}: scales no Deployment of {path}")
            continue
        container = target["spec"]["template"]["spec"]["containers"][0]
        for trigger in document["spec"]["triggers"]:
            if trigger["type"] != "redis-streams":
                continue
            metadata = trigger.get("metadata", {})
            failures += [f"{name}: redis-streams has no metadata {key}" for key in set(metadata) - REDIS_STREAMS_KEYS]
            if "lagCount" not in metadata:
                failures.append(f"{name}: redis-streams must scale on lagCount (the group's lag)")
            for key, option in (("stream", "--stream"), ("consumerGroup", "--group")):
                if metadata.get(key) != worker_option(container, option):
                    failures.append(f"{name}: {key} {metadata.get(key)!r} is not the worker's {option} "
                                    f"{worker_option(container, option)!r}")
            env_name = metadata.get("addressFromEnv")
            if env_name:
                names = {e["name"] for e in container.get("env", [])}
                for source in container.get("envFrom", []):
                    config = source.get("configMapRef", {}).get("name")
                    for other in documents:
                        if other.get("kind") == "ConfigMap" and other["metadata"]["name"] == config:
                            names |= set(other.get("data", {}))
                if env_name not in names:
                    failures.append(f"{name}: addressFromEnv {env_name} is not in the worker's environment")
    for failure in failures:
        print(f"check-keda: {path}: {failure}", file=sys.stderr)
    if not checked:
        print(f"check-keda: {path}: no ScaledObject", file=sys.stderr)
        return False
    return not failures


if __name__ == "__main__":
    results = [check(path) for path in sys.argv[1:]]
    sys.exit(0 if results and all(results) else 1)
