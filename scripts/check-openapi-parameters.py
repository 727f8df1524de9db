"""openapi.yaml's query parameters against the operations' declarations.

    python3 scripts/check-openapi-parameters.py openapi.yaml DECLARATIONS.json

DECLARATIONS.json is `creative-tool serve --api-parameters`: every route's query parameters
as the code declares them (name, type, enum, minimum, maximum, default). Every route and every
parameter must be on both sides with the same type, enum, range and default; a parameter on one
side only fails. Before the real comparison the checker proves it can fail: a parameter added
to either side, or a changed range, must be reported. Exit 0 when both agree, 1 otherwise.
"""
import copy
import json
import sys

import yaml

COMPARED = ("type", "enum", "minimum", "maximum", "default")


def resolve(document, node):
    """A `$ref` followed to its target within the document."""
    while isinstance(node, dict) and "$ref" in node:
        target = document
        for part in node["$ref"].lstrip("#/").split("/"):
            target = target[part]
        node = target
    return node


def spec_parameters(document):
    """{"get /v1/slot": {"width": {"type": ...}}} from openapi.yaml (query parameters only)."""
    routes = {}
    for path, item in document.get("paths", {}).items():
        for method, operation in item.items():
            if method not in ("get", "post", "put", "delete", "patch"):
                continue
            found = {}
            for parameter in operation.get("parameters", []):
                parameter = resolve(document, parameter)
                if parameter.get("in") != "query":
                    continue
                schema = resolve(document, parameter.get("schema", {}))
                found[parameter["name"]] = {key: schema[key] for key in COMPARED if key in schema}
            routes[f"{method} {path}"] = found
    return routes


def declared_parameters(document):
    return {route: {p["name"]: {key: p[key] for key in COMPARED if key in p} for p in parameters}
            for route, parameters in document["routes"].items()}


def same(a, b):
    if isinstance(a, list) and isinstance(b, list):
        return sorted(map(str, a)) == sorted(map(str, b))
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool):
        return float(a) == float(b)
    return a == b


def differences(spec, declared):
    problems = []
    for route in sorted(set(spec) | set(declared)):
        if route not in spec:
            problems.append(f"{route}: declared in the code, missing from openapi.yaml")
            continue
        if route not in declared:
            problems.append(f"{route}: in openapi.yaml, not a route of the service")
            continue
        ours, theirs = declared[route], spec[route]
        for name in sorted(set(ours) | set(theirs)):
            if name not in theirs:
                problems.append(f"{route}: parameter '{name}' is declared in the code but not in openapi.yaml")
            elif name not in ours:
                problems.append(f"{route}: parameter '{name}' is in openapi.yaml but the code does not take it")
            else:
                for key in COMPARED:
                    if key in ours[name] or key in theirs[name]:
                        if not same(ours[name].get(key), theirs[name].get(key)):
                            problems.append(f"{route}: '{name}' {key}: code {ours[name].get(key)!r}, "
                                            f"openapi.yaml {theirs[name].get(key)!r}")
    return problems


def prove_it_can_fail(spec, declared):
    """Each kind of drift must be caught; otherwise the check itself is broken."""
    route = next(r for r in sorted(declared) if declared[r])
    name = sorted(declared[route])[0]
    drifts = []
    extra = copy.deepcopy(declared)
    extra[route]["added_in_code_only"] = {"type": "string"}
    drifts.append(("a parameter only in the code", extra, spec))
    extra = copy.deepcopy(spec)
    extra[route]["added_in_spec_only"] = {"type": "string"}
    drifts.append(("a parameter only in openapi.yaml", declared, extra))
    changed = copy.deepcopy(declared)
    changed[route][name]["maximum"] = 123456789
    drifts.append(("a changed range", changed, spec))
    for what, ours, theirs in drifts:
        if not differences(theirs, ours):
            sys.exit(f"check-openapi-parameters: broken: {what} was not reported")


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    with open(sys.argv[1], encoding="utf-8") as handle:
        spec = spec_parameters(yaml.safe_load(handle))
    with open(sys.argv[2], encoding="utf-8") as handle:
        declared = declared_parameters(json.load(handle))
    prove_it_can_fail(spec, declared)
    problems = differences(spec, declared)
    for problem in problems:
        print(f"check-openapi-parameters: {problem}", file=sys.stderr)
    if problems:
        sys.exit(1)
    count = sum(len(parameters) for parameters in declared.values())
    print(f"check-openapi-parameters: openapi.yaml lists the {count} query parameters of {len(declared)} routes as declared")


if __name__ == "__main__":
    main()
