#!/usr/bin/env python3
"""Validates real outputs of the tool and of its service against the JSON Schemas in schemas/
(draft 2020-12, the `jsonschema` package): validate, render, slot, select, prompt and guidance
`--json`, process's manifest and `--json`, companion lint, and the service's answers to the same
operations and its error bodies. The inputs are made here: the test artwork, renders of it at other sizes
(accepted and not), a JPEG, a truncated PNG, a text file, an HTML5 bundle.
Prints one line per schema with the outputs it checked; exit 1 when any output does not validate.
  scripts/check-schemas.py TOOL      (scripts/check-schemas.sh runs it with the venv's Python)"""
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import zipfile

from jsonschema import Draft202012Validator
from referencing import Registry, Resource

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
TOOL = os.path.abspath(sys.argv[1])
SCHEMAS = os.path.join(ROOT, "schemas")


def load_validators():
    resources, schemas = [], {}
    for name in sorted(os.listdir(SCHEMAS)):
        with open(os.path.join(SCHEMAS, name), encoding="utf-8") as handle:
            schema = json.load(handle)
        Draft202012Validator.check_schema(schema)
        resources.append((schema["$id"], Resource.from_contents(schema)))
        schemas[name] = schema
    registry = Registry().with_resources(resources)
    return {name: Draft202012Validator(schema, registry=registry) for name, schema in schemas.items()}


VALIDATORS = load_validators()
checked = {}
failures = []


def check(schema, document, what):
    errors = sorted(VALIDATORS[schema].iter_errors(document), key=lambda error: list(error.absolute_path))
    checked[schema] = checked.get(schema, 0) + 1
    for error in errors[:3]:
        failures.append(f"{schema}: {what}: at /{'/'.join(map(str, error.absolute_path))}: {error.message[:300]}")


def tool(*arguments, expect=(0,)):
    run = subprocess.run([TOOL, *arguments], capture_output=True, cwd=WORK)
    if run.returncode not in expect:
        failures.append(f"creative-tool {' '.join(arguments)}: exit {run.returncode}: {run.stderr.decode()[:300]}")
    return run.stdout.decode()


def json_lines(text, what):
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines:
        failures.append(f"{what}: no JSON output")
    return [json.loads(line) for line in lines]


def make_inputs():
    tool("test-artwork", "--output-dir", "art")
    made = {"banner": "art/test-artwork-960x150.png", "banner_wide": "art/test-artwork-2184x270.png"}
    for name, slot, output in [("odd", "100x80", "odd.png"), ("interstitial", "320x480", "interstitial.png"),
                               ("interstitial_hd", "1080x1920", "interstitial-hd.png"),
                               ("companion", "640x100", "companion.png"), ("jpeg", "960x150", "banner.jpg")]:
        tool("render", "--slot", slot, "--output", output)
        made[name] = output
    if not all(os.path.exists(os.path.join(WORK, path)) for path in made.values()):
        return None
    with open(os.path.join(WORK, made["banner"]), "rb") as handle:
        png = handle.read()
    with open(os.path.join(WORK, "truncated.png"), "wb") as handle:
        handle.write(png[: len(png) // 2])
    with open(os.path.join(WORK, "text.png"), "w") as handle:
        handle.write("not an image\n")
    with zipfile.ZipFile(os.path.join(WORK, "bundle.zip"), "w") as bundle:
        bundle.writestr("index.html", '<!doctype html><html><head><meta name="ad.size" content="width=320,height=50">'
                        '</head><body><a href="https://example.com"><img src="backup.png"></a></body></html>')
        bundle.write(os.path.join(WORK, made["banner"]), "backup.png")
    made.update(truncated="truncated.png", text="text.png", bundle="bundle.zip")
    return made


def check_command_line(files):
    every = [files[name] for name in ("banner", "odd", "interstitial", "companion", "jpeg", "truncated", "text", "bundle")]
    for product in ("banner", "interstitial", "companion"):
        for report in json_lines(tool("validate", "--json", "--product", product, *every, expect=(0, 1)), "validate"):
            check("validate-report.schema.json", report, f"validate --product {product} {report['file']}")
    for arguments in (["--slot", "390x61@3x", files["banner"], "--output", "r1.png"],
                      ["--device", "iPhone 15", files["banner_wide"], "--output", "r2.jpg"],
                      ["--product", "interstitial", "--device", "iPad Air", "--orientation", "landscape",
                       files["interstitial_hd"], "--output", "r3.webp", "--memory-budget", "256M"],
                      ["--product", "companion", "--device", "iPad Air", files["companion"], "--output", "r4.png"],
                      ["--slot", "320x50", "--scale", "2", "--output", "r5.png"]):
        for answer in json_lines(tool("render", "--json", *arguments), "render"):
            check("render.schema.json", answer, "render " + " ".join(arguments))
    for arguments in (["--width", "390", "--scale", "3"], ["--width", "390", "--screen-height", "700", "--rule", "google"],
                      ["--width", "390", "--inline", "--max-height", "250", "--scale", "2"],
                      ["--device", "iPhone 15", "--orientation", "landscape"],
                      ["--product", "interstitial", "--device", "iPad Air"],
                      ["--product", "companion", "--device", "iPhone SE"]):
        for answer in json_lines(tool("slot", "--json", *arguments), "slot"):
            check("slot.schema.json", answer, "slot " + " ".join(arguments))
    for arguments, expect in ((["--width", "1170", "--height", "183", "960x150", "1320x204", "2184x270"], (0,)),
                              (["--width", "390", "--height", "61", "--scale", "3", files["banner"], files["banner_wide"]], (0,)),
                              (["--width", "390", "--mode", "legacy", "320x50", "728x90"], (0,)),
                              (["--product", "companion", "--width", "960", "--height", "150", "640x100", "960x150"], (0,)),
                              (["--product", "interstitial", "--width", "640", "--height", "1096", "320x480", "1080x1920"], (0,))):
        for answer in json_lines(tool("select", "--json", *arguments, expect=expect), "select"):
            check("select.schema.json", answer, "select " + " ".join(arguments))
    for product in ("banner", "interstitial", "companion"):
        for answer in json_lines(tool("prompt", "--json", "--product", product, "--brand", "Acme", "--headline", "Sale"), "prompt"):
            check("prompt.schema.json", answer, f"prompt --product {product} {answer['size']}")
        check("guidance.schema.json", json.loads(tool("guidance", "--format", "json", "--product", product)),
              f"guidance --product {product}")
    for arguments in (["carousel_images=https://cdn.example/a.png|http://x/b.png,foo=1"],
                      ["ad_type=carousel,carousel_images=https://cdn.example/a.png|https://cdn.example/b.png"],
                      ["icon=https://cdn.example/i.png,bannerTitle=Sale,ctaUrl=https://example.com"],
                      ["--takeover", "ad_type=webview"], ["--takeover", "ad_type=webview,campaign=x,Image_url=https://e.com/t"]):
        for answer in json_lines(tool("companion", "lint", "--json", *arguments, expect=(0, 1)), "companion lint"):
            check("companion-lint.schema.json", answer, "companion lint " + " ".join(arguments))
    for index, (product, name) in enumerate([("banner", "banner"), ("banner", "jpeg"), ("interstitial", "interstitial_hd"),
                                             ("companion", "companion"), ("banner", "odd"), ("banner", "truncated"),
                                             ("banner", "bundle")]):
        folder = f"process-{index}"
        printed = tool("process", files[name], "--output-dir", folder, "--product", product, "--json", expect=(0, 1))
        for answer in json_lines(printed, "process --json"):
            check("manifest.schema.json", answer, f"process --json --product {product} {files[name]}")
        with open(os.path.join(WORK, folder, "manifest.json"), encoding="utf-8") as handle:
            check("manifest.schema.json", json.load(handle), f"{folder}/manifest.json ({product} {files[name]})")


def request(port, method, path, body=None, content_type="application/octet-stream"):
    headers = {"Content-Type": content_type} if body is not None else {}
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=body, method=method, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=60) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def check_service(files):
    log_path = os.path.join(WORK, "serve.log")
    with open(log_path, "wb") as log:
        server = subprocess.Popen([TOOL, "serve", "--host", "127.0.0.1", "--port", "0", "--admin-port", "0",
                                   "--allow-unauthenticated"], stderr=log, cwd=WORK)
    try:
        port = None
        for _ in range(200):
            with open(log_path, encoding="utf-8", errors="replace") as handle:
                found = re.search(r'"event":"listening".*?"port":([0-9]+)', handle.read())
            if found:
                port = int(found.group(1))
                break
            time.sleep(0.1)
        if port is None:
            failures.append("serve did not start")
            return

        def read(name):
            with open(os.path.join(WORK, files[name]), "rb") as handle:
                return handle.read()

        def answer(schema, method, path, body=None, statuses=(200,), content_type="application/octet-stream"):
            status, data = request(port, method, path, body, content_type)
            if status not in statuses:
                failures.append(f"{method} {path}: status {status}: {data[:200]!r}")
                return None
            document = json.loads(data)
            check(schema if status < 400 else "error.schema.json", document, f"{method} {path} ({status})")
            return document

        for name in ("banner", "odd", "jpeg", "truncated", "text", "bundle"):
            answer("validate-report.schema.json", "POST", f"/v1/validate?filename={files[name]}", read(name))
        answer("validate-report.schema.json", "POST", "/v1/validate?product=interstitial", read("interstitial"))
        for query in ("width=390&scale=3", "width=390&inline=true&max_height=250", "device=iPhone%2015",
                      "product=interstitial&device=iPad%20Air", "product=companion&device=iPhone%20SE"):
            answer("slot.schema.json", "GET", f"/v1/slot?{query}")
        answer("select.schema.json", "POST", "/v1/select",
               json.dumps({"width": 1170, "height": 183, "candidates": ["960x150", "1320x204"]}).encode(),
               content_type="application/json")
        for product in ("banner", "interstitial", "companion"):
            answer("guidance.schema.json", "GET", f"/v1/guidance?product={product}")
            status, data = request(port, "GET", f"/v1/prompt?product={product}")
            for item in json.loads(data) if status == 200 else []:
                check("prompt.schema.json", item, f"GET /v1/prompt?product={product} {item['size']}")
        for product, name in (("banner", "banner"), ("interstitial", "interstitial_hd"), ("companion", "companion")):
            answer("process-answer.schema.json", "POST", f"/v1/process?product={product}&inline=false", read(name))
        answer("process-answer.schema.json", "POST", "/v1/process", read("jpeg"))
        answer("companion-lint.schema.json", "POST", "/v1/companion/lint", b"carousel_images=https://cdn.example/a.png,x=1",
               content_type="text/plain")
        # Errors: a rejected creative (422 with its report), a bad query, an unknown route, a wrong method.
        answer("error.schema.json", "POST", "/v1/process", read("odd"), statuses=(422,))
        answer("error.schema.json", "POST", "/v1/render?slot=390x61", read("truncated"), statuses=(422,))
        answer("error.schema.json", "GET", "/v1/slot?width=abc", statuses=(400,))
        answer("error.schema.json", "GET", "/v1/slot?widht=390", statuses=(400,))
        answer("error.schema.json", "GET", "/v1/nothing-here", statuses=(404,))
        answer("error.schema.json", "GET", "/v1/validate", statuses=(405,))
    finally:
        server.terminate()
        server.wait(timeout=30)


with tempfile.TemporaryDirectory(prefix="check-schemas-") as WORK:
    inputs = make_inputs()
    if inputs:
        check_command_line(inputs)
        check_service(inputs)
    else:
        failures.append("the inputs could not be made (the tool does not run?)")

for failure in failures:
    print("check-schemas: FAILED " + failure)
for name in sorted(VALIDATORS):
    if name != "defs.schema.json":
        print(f"check-schemas: {name}: {checked.get(name, 0)} outputs")
        if not checked.get(name):
            failures.append(f"{name}: no output checked")
if failures:
    print(f"check-schemas: {len(failures)} failures")
    sys.exit(1)
print(f"check-schemas: {sum(checked.values())} outputs valid against their schemas")
