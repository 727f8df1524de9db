#!/usr/bin/env python3
"""Validates real outputs of the tool and of its service against the JSON Schemas in schemas/
(draft 2020-12, the `jsonschema` package): validate (also with --profile), render, slot, select, prompt,
guidance (also with --profile) and profiles
`--json`, render and process `--cost`, process's manifest and `--json` (also of a missing file and
of one over the size limit), companion lint, and the service's answers to the same operations
(GET /v1/prompt as a prompt list), /healthz and /readyz on both ports, and its error bodies. The
inputs are made here: the test artwork, renders of it at other sizes (accepted and not), a JPEG, a
truncated PNG, a text file, an HTML5 bundle.
Before any output, each schema must reject a few known-bad documents (old shapes, a share as a
string, a field too many or missing): a schema that cannot fail proves nothing.
Prints one line per schema with the outputs it checked; exit 1 when any output does not validate,
a known-bad document is accepted, or a schema checked nothing. `enqueue`'s outputs need Redis and
the store: the worker's tests (Tests/CreativeFleetTests) check them with the second form.
  scripts/check-schemas.py TOOL      (scripts/check-schemas.sh runs it with the venv's Python)
  scripts/check-schemas.py --documents SCHEMA FILE...   (each JSON line of the files against SCHEMA)"""
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
TOOL = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else ""
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

VERSION = {"schema_version": 2, "tool_version": "0.1.0"}
SIZE = {"width": 960, "height": 150}
GOOD_REPORT = {"file": "a.png", "valid": True, "format": "png", "size_pixels": SIZE, "file_bytes": 3396,
               "size_class": "adaptive", "shape": "strip", "decoded": True, "profiles": ["network"], "errors": [],
               "warnings": []}
GOOD_ASSIGNMENT = {"device": "iPhone SE", "orientation": "portrait", "slot_mode": "anchored",
                   "slot_points": {"width": 320, "height": 50}, "scale": 2.0, "slot_pixels": {"width": 640, "height": 100},
                   "content_pixels": {"width": 640, "height": 100}, "content_position_pixels": {"x": 0, "y": 0},
                   "fill_share": 1.0}
GOOD_RENDER = {**GOOD_ASSIGNMENT, "file": "iphone-se-portrait-320x50@2x.webp", "file_bytes": 3280, "sha256": "0" * 64,
               "format": "webp", "encoding": "WebP quality 50", "weight_budget_bytes": 50000,
               "weight_budget_profile": "iab-lean", "warnings": []}
GOOD_MANIFEST = {"written_by": "creative-tool process", **VERSION, "product": "banner",
                 "source": {"file": "a.png", "sha256": "0" * 64, "file_bytes": 3396}, "report": GOOD_REPORT,
                 "campaign_pixels": [SIZE], "weight_budget_bytes": 153600, "weight_budget_profiles": ["iab-lean"], "renders": [GOOD_RENDER], "preview": {"file": "preview.png", "file_bytes": 1, "sha256": "0" * 64, "format": "png", "page": {"file": "preview.html", "file_bytes": 1, "sha256": "0" * 64}}}
GOOD_PROMPT = {"product": "banner", "artwork_pixels": SIZE, "aspect_ratio": 6.4,
               "safe_area_pixels": {"x": 48, "y": 15, "width": 864, "height": 120}, "min_text_height_pixels": 27,
               "prompt": "Flat digital advertising banner"}
# (schema, document, what makes it wrong): each must be rejected. The first of each schema is a
# good document, which must be accepted: the bad ones then fail for their own reason.
GOOD_RULE = {"rule": "max_bytes", "bytes": 153600, "source": "https://support.google.com/google-ads/answer/1722096",
             "read": "2026-12", "note": None}
GOOD_PROFILES = {**VERSION, "profiles": [{"name": "google-ads", "title": "Google Ads", "default": False,
                                          "rules": [GOOD_RULE]}]}
GOOD_CAMPAIGN_RESULT = {"id": "c7", "entry": "1-1", "status": "valid", "codes": [], "campaign": "s3://b/c/campaign.json",
                        "sheet": "s3://b/c/campaign.png", "manifests": ["s3://b/c/a/manifest.json", None],
                        "sources": ["s3://b/a.png", "s3://b/c.png"], "cached": False, "worker": "w"}
KNOWN = [
    ("profiles.schema.json", GOOD_PROFILES, None),
    ("profiles.schema.json", {**VERSION, "profiles": [{**GOOD_PROFILES["profiles"][0], "rules": [
        {k: v for k, v in GOOD_RULE.items() if k != "source"}]}]}, "a rule without its source"),
    ("profiles.schema.json", {**VERSION, "profiles": [{**GOOD_PROFILES["profiles"][0], "rules": [
        {**GOOD_RULE, "read": "December"}]}]}, "a read date that is no date"),
    ("slot.schema.json", {**VERSION, "slot_mode": "anchored", "rule": "qartvelo", "estimate": False,
                          "screen_height_points": None, "slot_points": {"width": 390, "height": 60}, "scale": 3.0,
                          "slot_pixels": {"width": 1170, "height": 180}}, None),
    ("slot.schema.json", {**VERSION, "slot_mode": "anchored", "rule": "qartvelo", "estimate": False,
                          "screen_height_points": None, "width_points": 390, "height_points": 60, "scale": 3.0,
                          "width_pixels": 1170, "height_pixels": 180}, "the old width_points/height_points shape"),
    ("slot.schema.json", {**VERSION, "slot_mode": "anchored", "rule": "qartvelo", "estimate": False,
                          "screen_height_points": None, "slot_points": "390x60", "scale": 3.0,
                          "slot_pixels": {"width": 1170, "height": 180}}, "a size as WxH text"),
    ("slot.schema.json", {"slot_mode": "anchored", "rule": "qartvelo", "estimate": False, "screen_height_points": None,
                          "slot_points": {"width": 390, "height": 60}, "scale": 3.0,
                          "slot_pixels": {"width": 1170, "height": 180}}, "no version fields"),
    ("slot.schema.json", {**VERSION, "mode": "anchored", "rule": "qartvelo", "estimate": False, "screen_height_points": None,
                          "slot_points": {"width": 390, "height": 60}, "scale": 3.0,
                          "slot_pixels": {"width": 1170, "height": 180}}, "mode instead of slot_mode"),
    ("validate-report.schema.json", {**VERSION, **GOOD_REPORT}, None),
    ("validate-report.schema.json", {**VERSION, **GOOD_REPORT, "schema_version": 1}, "schema version 1"),
    ("validate-report.schema.json", {**VERSION, **GOOD_REPORT, "tool_version": "dev"}, "a tool_version that is not semver"),
    ("validate-report.schema.json", {**VERSION, **GOOD_REPORT, "bytes": 3396}, "the old bytes field"),
    ("validate-report.schema.json", {**VERSION, **{k: v for k, v in GOOD_REPORT.items() if k != "file_bytes"}},
     "file_bytes missing"),
    ("validate-report.schema.json", {**VERSION, **GOOD_REPORT, "valid": False}, "rejected without an error"),
    ("validate-report.schema.json", {**VERSION, **GOOD_REPORT, "file_count": 2}, "bundle fields on a PNG"),
    ("validate-report.schema.json", GOOD_REPORT, "a top-level report without version fields"),
    ("validate-report.schema.json", {**VERSION, **{k: v for k, v in GOOD_REPORT.items() if k != "profiles"}},
     "no profiles"),
    ("validate-report.schema.json", {**VERSION, **GOOD_REPORT, "profiles": []}, "an empty profile list"),
    ("manifest.schema.json", GOOD_MANIFEST, None),
    ("manifest.schema.json", {**GOOD_MANIFEST, "renders": [{**GOOD_RENDER, "fill_share": "1"}]}, "fill_share as a string"),
    ("manifest.schema.json", {**GOOD_MANIFEST, "renders": [{**GOOD_RENDER, "scale": "2"}]}, "scale as a string"),
    ("manifest.schema.json", {**GOOD_MANIFEST, "renders": [{**GOOD_RENDER, "sizing": "anchored"}]}, "the old sizing field"),
    ("manifest.schema.json", {**GOOD_MANIFEST, "renders": [{**GOOD_RENDER, "content_x": 0}]}, "the old content_x field"),
    ("manifest.schema.json", {**GOOD_MANIFEST, "report": {**VERSION, **GOOD_REPORT}}, "a nested report with version fields"),
    ("manifest.schema.json", {**GOOD_MANIFEST, "close_zone_pixels": None}, "close_zone_pixels on a banner"),
    ("manifest.schema.json", {k: v for k, v in GOOD_MANIFEST.items() if k != "source"}, "no source"),
    ("manifest.schema.json", {**GOOD_MANIFEST, "weight_budget_bytes": "150K"}, "weight_budget_bytes as a string"),
    ("manifest.schema.json", {**GOOD_MANIFEST, "weight_budget_profiles": "iab-lean"}, "weight_budget_profiles as a string"),
    ("manifest.schema.json", {**GOOD_MANIFEST, "renders": [{**GOOD_RENDER, "weight_budget_profile": 1}]},
     "a render's weight_budget_profile as a number"),
    ("manifest.schema.json", {**GOOD_MANIFEST, "renders": [{k: v for k, v in GOOD_RENDER.items() if k != "weight_budget_bytes"}]},
     "a render without its weight budget"),
    ("manifest.schema.json", {**GOOD_MANIFEST, "renders": [{**GOOD_RENDER, "over_weight_budget": {"code": "timeout",
     "message": "m", "smallest_bytes": 1}}]}, "over_weight_budget with another code"),
    ("manifest.schema.json", {**GOOD_MANIFEST, "renders": [{**GOOD_RENDER, "orientation": "any"}]},
     "orientation any outside a standard slot"),
    ("prompt.schema.json", {**VERSION, **GOOD_PROMPT}, None),
    ("prompt.schema.json", {**VERSION, **GOOD_PROMPT, "aspect_ratio": "6.40:1"}, "aspect_ratio as text"),
    ("prompt.schema.json", {**VERSION, **GOOD_PROMPT, "close_zone_pixels": None}, "close_zone_pixels on a banner prompt"),
    ("prompt-list.schema.json", {**VERSION, "prompts": [GOOD_PROMPT]}, None),
    ("prompt-list.schema.json", [GOOD_PROMPT], "a bare array of prompts"),
    ("prompt-list.schema.json", {**VERSION, "prompts": [{**VERSION, **GOOD_PROMPT}]}, "version fields in a nested prompt"),
    ("select.schema.json", {**VERSION, "slot_mode": "anchored", "slot_pixels": {"width": 1170, "height": 183},
                            "winner": {"candidate": "960x150", "size_pixels": SIZE},
                            "ranking": [{"candidate": "960x150", "size_pixels": SIZE, "shape": "strip", "eligible": True,
                                         "score": 0.001, "note": None}]}, None),
    ("select.schema.json", {**VERSION, "slot_mode": "adaptive", "slot_pixels": {"width": 1170, "height": 183},
                            "winner": {"candidate": "960x150", "size_pixels": SIZE},
                            "ranking": [{"candidate": "960x150", "size_pixels": SIZE, "shape": "strip", "eligible": True,
                                         "score": 0.001, "note": None}]}, "the old mode adaptive"),
    ("select.schema.json", {**VERSION, "slot_mode": "anchored", "slot_pixels": {"width": 1170, "height": 183},
                            "winner": {"candidate": "960x150", "size_pixels": SIZE},
                            "ranking": [{"candidate": "960x150", "size_pixels": SIZE, "shape": "strip", "eligible": True,
                                         "score": "0.001", "note": None}]}, "a score as a string"),
    ("cost.schema.json", {**VERSION, "memory_bytes": 1, "decode_bytes": 1, "output_bytes": 1, "decoded_sample_bytes": 1,
                          "memory_budget_bytes": 1, "max_decoded_bytes": 1, "accepted": True, "code": None}, None),
    ("cost.schema.json", {**VERSION, "memory": 1, "decode": 1, "output": 1, "decoded_samples": 1,
                          "memory_budget": 1, "max_decoded_bytes": 1, "accepted": True, "code": None}, "the old cost fields"),
    ("health.schema.json", {**VERSION, "status": "ok"}, None),
    ("health.schema.json", {"status": "ok"}, "health without version fields"),
    ("process-answer.schema.json", {**VERSION, "manifest": GOOD_MANIFEST,
                                    "files": [{"file": "preview.png", "sha256": "0" * 64, "file_bytes": 1}]}, None),
    ("process-answer.schema.json", {**VERSION, "manifest": GOOD_MANIFEST,
                                    "files": [{"name": "preview.png", "sha256": "0" * 64, "bytes": 1}]},
     "the old name/bytes file fields"),
    ("enqueue.schema.json", {**VERSION, "entry": "1-0", "id": "c7", "sources": ["s3://b/a.png", "s3://b/c.png"]}, None),
    ("enqueue.schema.json", {**VERSION, "entry": "1-0", "id": "c7", "source": "s3://b/a.png",
                             "sources": ["s3://b/a.png", "s3://b/c.png"]}, "a job with source and sources"),
    ("enqueue.schema.json", {**VERSION, **GOOD_CAMPAIGN_RESULT}, None),
    ("enqueue.schema.json", {**VERSION, **GOOD_CAMPAIGN_RESULT, "manifest": None}, "a campaign result with a manifest"),
    ("enqueue.schema.json", {**VERSION, **GOOD_CAMPAIGN_RESULT, "sources": "s3://b/a.png\ns3://b/c.png"},
     "a campaign's sources as the stream's string"),
]


def self_test():
    """Each schema accepts its good document and rejects every bad one: a schema that cannot fail proves nothing."""
    rejected = 0
    for schema, document, wrong in KNOWN:
        errors = list(VALIDATORS[schema].iter_errors(document))
        if wrong is None and errors:
            failures.append(f"self-test: {schema} rejects its good document: {errors[0].message[:200]}")
        elif wrong is not None and not errors:
            failures.append(f"self-test: {schema} accepts a known-bad document ({wrong})")
        elif wrong is not None:
            rejected += 1
    if not list(integers_in_decimal_fields({"renders": [{"fill_share": 1}]})):
        failures.append("self-test: a share written without a decimal point is not reported")
    return rejected


# Fields that hold non-integer numbers: always written with a decimal point (`1.0`, not `1`), which
# a schema's `type: number` cannot tell apart; json.loads reads them as float only then.
DECIMAL_KEYS = {"scale", "fill_share", "letterbox_share", "aspect_ratio", "score"}


def integers_in_decimal_fields(value, path=""):
    if isinstance(value, dict):
        for key, item in value.items():
            if key in DECIMAL_KEYS and isinstance(item, int) and not isinstance(item, bool):
                yield f"{path}/{key}"
            yield from integers_in_decimal_fields(item, f"{path}/{key}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from integers_in_decimal_fields(item, f"{path}/{index}")


def check(schema, document, what):
    errors = sorted(VALIDATORS[schema].iter_errors(document), key=lambda error: list(error.absolute_path))
    checked[schema] = checked.get(schema, 0) + 1
    for error in errors[:3]:
        failures.append(f"{schema}: {what}: at /{'/'.join(map(str, error.absolute_path))}: {error.message[:300]}")
    for path in list(integers_in_decimal_fields(document))[:3]:
        failures.append(f"{schema}: {what}: at {path}: a number without a decimal point")


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


def size_text(size):
    """`WxH` of a {"width", "height"} object, for messages."""
    return f"{size['width']}x{size['height']}" if isinstance(size, dict) else repr(size)


def process_outputs(arguments, expect, folder, what, schemas):
    """Runs process ARGUMENTS --output-dir FOLDER --json; checks what it prints against the first
    schema and the file it writes (the second) against the third. Returns that file, or None."""
    printed_schema, name, written_schema = schemas
    printed = tool("process", *arguments, "--output-dir", folder, "--json", expect=expect)
    for answer in json_lines(printed, what + " --json"):
        check(printed_schema, answer, what + " --json")
    path = os.path.join(WORK, folder, name)
    if not os.path.exists(path):
        failures.append(f"{what}: wrote no {folder}/{name}")
        return None
    with open(path, encoding="utf-8") as handle:
        written = json.load(handle)
    check(written_schema, written, f"{folder}/{name} ({what})")
    return written


def check_command_line(files):
    check("api-parameters.schema.json", json.loads(tool("serve", "--api-parameters")), "serve --api-parameters")
    every = [files[name] for name in ("banner", "odd", "interstitial", "companion", "jpeg", "truncated", "text", "bundle")]
    for product in ("banner", "interstitial", "companion"):
        for report in json_lines(tool("validate", "--json", "--product", product, *every, "missing.png", expect=(74,)),
                                 "validate"):
            check("validate-report.schema.json", report, f"validate --product {product} {report.get('file')}")
    for profiles in ("google-ads", "network,iab-lean", "google-ad-manager,trade-desk,microsoft", "dv360,cm360,amazon-dsp"):
        for report in json_lines(tool("validate", "--json", "--profile", profiles, *every, expect=(1,)), "validate"):
            check("validate-report.schema.json", report, f"validate --profile {profiles} {report.get('file')}")
    check("profiles.schema.json", json.loads(tool("profiles", "--json")), "profiles --json")
    for arguments in (["--slot", "390x61@3x", files["banner"], "--output", "r1.png"],
                      ["--device", "iPhone 15", files["banner_wide"], "--output", "r2.jpg"],
                      ["--product", "interstitial", "--device", "iPad Air", "--orientation", "landscape",
                       files["interstitial_hd"], "--output", "r3.webp", "--memory-budget", "256M"],
                      ["--product", "companion", "--device", "iPad Air", files["companion"], "--output", "r4.png"],
                      ["--slot", "320x50", "--scale", "2", "--output", "r5.png"],
                      ["--slot", "320x50", files["odd"], "--output", "r6.png"],
                      ["--slot", "320x50@3x", files["banner"], "--profile", "iab-lean", "--output", "r7.jpg"]):
        for answer in json_lines(tool("render", "--json", *arguments), "render"):
            check("render.schema.json", answer, "render " + " ".join(arguments))
    # fix --json: a near miss resized (a 961x150 render), a JPEG re-encoded, one to WebP.
    tool("render", "--slot", "961x150", "--output", "near-miss.png")
    for arguments in (["near-miss.png", "--output", "fixed.png"], [files["jpeg"], "--output", "fixed.jpg"],
                      ["near-miss.png", "--format", "webp", "--output", "fixed.webp"]):
        check("fix.schema.json", json.loads(tool("fix", "--json", *arguments)), "fix --json " + " ".join(arguments))
    # --cost: accepted, and refused by the memory budget (still exit 0: it only reports).
    for command, arguments in (("render", ["--slot", "390x61@3x", files["banner"]]),
                               ("render", ["--slot", "390x61@3x", files["interstitial_hd"], "--memory-budget", "1M"]),
                               ("render", ["--product", "interstitial", "--device", "iPad Air", files["interstitial_hd"]]),
                               ("process", [files["banner"]]),
                               ("process", ["--product", "interstitial", files["interstitial_hd"]]),
                               ("process", [files["banner"], "--memory-budget", "1M"])):
        for answer in json_lines(tool(command, "--cost", *arguments), f"{command} --cost"):
            check("cost.schema.json", answer, f"{command} --cost " + " ".join(arguments))
    for arguments in (["--width", "390", "--scale", "3"], ["--width", "390", "--screen-height", "700", "--rule", "google"],
                      ["--width", "390", "--inline", "--max-height", "250", "--scale", "2"],
                      ["--device", "iPhone 15"], ["--device", "iPhone 15", "--orientation", "landscape"],
                      ["--device", "iPhone 15", "--inline"],
                      ["--product", "interstitial", "--device", "iPad Air"],
                      ["--product", "interstitial", "--device", "iPhone 15", "--orientation", "landscape"],
                      ["--product", "companion", "--device", "iPhone SE"],
                      ["--product", "companion", "--device", "iPad Air"]):
        for answer in json_lines(tool("slot", "--json", *arguments), "slot"):
            check("slot.schema.json", answer, "slot " + " ".join(arguments))
    for arguments in (["--width", "1170", "--height", "183", "960x150", "1320x204", "2184x270", "300x250"],
                      ["--width", "390", "--height", "61", "--scale", "3", files["banner"], files["banner_wide"]],
                      ["--width", "390", "--mode", "legacy", "320x50", "728x90"],
                      ["--width", "390", "320x50", "728x90", "300x250"],
                      ["--width", "390", "--height", "250", "--mode", "inline", "320x50", "728x90", "300x250"],
                      ["--product", "companion", "--width", "960", "--height", "150", "640x100", "960x150"],
                      ["--product", "interstitial", "--width", "640", "--height", "1096", "320x480", "1080x1920", "480x320"]):
        for answer in json_lines(tool("select", "--json", *arguments), "select"):
            check("select.schema.json", answer, "select " + " ".join(arguments))
    for product in ("banner", "interstitial", "companion"):
        for answer in json_lines(tool("prompt", "--json", "--product", product, "--brand", "Acme", "--headline", "Sale"), "prompt"):
            check("prompt.schema.json", answer, f"prompt --product {product} {size_text(answer.get('artwork_pixels'))}")
        check("guidance.schema.json", json.loads(tool("guidance", "--format", "json", "--product", product)),
              f"guidance --product {product}")
        for profile in ("google-ads", "iab-lean", "microsoft", "network"):
            check("guidance.schema.json", json.loads(tool("guidance", "--product", product, "--profile", profile)),
                  f"guidance --product {product} --profile {profile}")
    for answer in json_lines(tool("prompt", "--json", "--size", "300x250", "--cta", "Buy"), "prompt"):
        check("prompt.schema.json", answer, "prompt --size 300x250")
    for arguments in (["carousel_images=https://cdn.example/a.png|http://x/b.png,foo=1"],
                      ["ad_type=carousel,carousel_images=https://cdn.example/a.png|https://cdn.example/b.png"],
                      ["icon=https://cdn.example/i.png,bannerTitle=Sale,ctaUrl=https://example.com"],
                      ["--takeover", "ad_type=webview"], ["--takeover", "ad_type=webview,campaign=x,Image_url=https://e.com/t"]):
        for answer in json_lines(tool("companion", "lint", "--json", *arguments, expect=(0, 1)), "companion lint"):
            check("companion-lint.schema.json", answer, "companion lint " + " ".join(arguments))
    # Valid creatives (exit 0) and rejected ones (exit 1, a manifest with the report alone): among
    # them one over --max-bytes, not read whole, whose source has a null sha256. (A file that does
    # not exist writes no manifest: exit 1 and nothing created.)
    for index, (product, path, extra, expect) in enumerate([
            ("banner", files["banner"], [], 0), ("banner", files["jpeg"], [], 0),
            ("interstitial", files["interstitial_hd"], [], 0), ("companion", files["companion"], [], 0),
            ("banner", files["odd"], [], 1), ("interstitial", files["odd"], [], 1), ("banner", files["truncated"], [], 1),
            ("banner", files["text"], [], 1), ("banner", files["bundle"], [], 1),
            ("banner", files["banner"], ["--max-bytes", "1K"], 1),
            ("banner", files["banner"], ["--profile", "iab-lean", "--with", "1320x204,2184x270"], 0)]):
        folder = f"process-{index}"
        what = f"process --product {product} {path} {' '.join(extra)}".rstrip()
        written = process_outputs([path, "--product", product, *extra], (expect,), folder, what,
                                  ("manifest.schema.json", "manifest.json", "manifest.schema.json"))
        if written is None:
            continue
        if "--max-bytes" in extra and written.get("source", {}).get("sha256", "") is not None:
            failures.append(f"{what}: the manifest's source.sha256 is not null for a file not read whole")
    # Campaigns: several files as one (one of them rejected), one with two of a size, and an
    # interstitial with --with;
    # campaign.json and the one --json document.
    for index, (product, paths, extra) in enumerate([
            ("banner", [files["banner"], files["banner_wide"], files["odd"]], []),
            # A second creative of a size: duplicate_size, with the creative kept.
            ("banner", [files["banner"], files["banner"]], []),
            ("interstitial", [files["interstitial"], files["interstitial_hd"]], ["--with", "1920x1080"])]):
        folder = f"campaign-{index}"
        what = f"process --product {product} {' '.join(paths + extra)}"
        process_outputs([*paths, "--product", product, *extra], (0, 1), folder, what,
                        ("process-batch.schema.json", "campaign.json", "campaign.schema.json"))


def request(port, method, path, body=None, content_type="application/octet-stream", accept=None):
    headers = {"Content-Type": content_type} if body is not None else {}
    if accept:
        headers["Accept"] = accept
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=body, method=method, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=60) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def check_service(files):
    log_path = os.path.join(WORK, "serve.log")
    with open(log_path, "wb") as log:
        # A deadline no loaded machine reaches: this checks the answers' shapes, not the clock (a
        # debug build's `process` of the test artwork takes 10-14 s on two busy cores).
        server = subprocess.Popen([TOOL, "serve", "--host", "127.0.0.1", "--port", "0", "--admin-port", "0",
                                   "--allow-unauthenticated", "--job-timeout", "300"], stderr=log, cwd=WORK)
    try:
        port = admin_port = None
        for _ in range(200):
            with open(log_path, encoding="utf-8", errors="replace") as handle:
                found = re.search(r'"event":"listening".*?"port":([0-9]+).*?"admin_port":([0-9]+)', handle.read())
            if found:
                port, admin_port = int(found.group(1)), int(found.group(2))
                break
            time.sleep(0.1)
        if port is None:
            failures.append("serve did not start")
            return

        def read(name):
            with open(os.path.join(WORK, files[name]), "rb") as handle:
                return handle.read()

        def answer(schema, method, path, body=None, statuses=(200,), content_type="application/octet-stream", on=None,
                   accept=None):
            status, data = request(on or port, method, path, body, content_type, accept)
            where = f"{method} {path}" + (" (admin port)" if on else "")
            if status not in statuses:
                failures.append(f"{where}: status {status}: {data[:200]!r}")
                return None
            document = json.loads(data)
            check(schema if status < 400 else "error.schema.json", document, f"{where} ({status})")
            return document

        for on in (None, admin_port):
            answer("health.schema.json", "GET", "/healthz", on=on)
            answer("health.schema.json", "GET", "/readyz", on=on)
        for name in ("banner", "odd", "jpeg", "truncated", "text", "bundle"):
            answer("validate-report.schema.json", "POST", f"/v1/validate?filename={files[name]}", read(name))
        answer("validate-report.schema.json", "POST", "/v1/validate?product=interstitial", read("interstitial"))
        answer("validate-report.schema.json", "POST", "/v1/validate?product=companion", read("companion"))
        answer("validate-report.schema.json", "POST", "/v1/validate?profile=google-ads,iab-lean", read("jpeg"))
        answer("guidance.schema.json", "GET", "/v1/guidance?profile=google-ads")
        answer("error.schema.json", "GET", "/v1/guidance?profile=google-adz", statuses=(400,))
        for query in ("width=390&scale=3", "width=390&inline=true&max_height=250", "device=iPhone%2015",
                      "device=iPhone%2015&orientation=landscape", "product=interstitial&device=iPad%20Air",
                      "product=companion&device=iPhone%20SE"):
            answer("slot.schema.json", "GET", f"/v1/slot?{query}")
        for query, body in (("", {"width": 1170, "height": 183, "candidates": ["960x150", "1320x204", "300x250"]}),
                            ("", {"width": 390, "height": 61, "scale": 3, "mode": "anchored", "candidates": ["960x150"]}),
                            ("", {"width": 390, "mode": "legacy", "candidates": ["320x50", "728x90"]}),
                            ("", {"width": 390, "height": 250, "mode": "inline", "candidates": ["320x50", "300x250"]}),
                            ("?product=interstitial", {"width": 640, "height": 1096, "candidates": ["320x480", "1080x1920"]}),
                            ("?product=companion", {"width": 960, "height": 150, "candidates": ["640x100", "960x150"]})):
            answer("select.schema.json", "POST", "/v1/select" + query, json.dumps(body).encode(),
                   content_type="application/json")
        for product in ("banner", "interstitial", "companion"):
            answer("guidance.schema.json", "GET", f"/v1/guidance?product={product}")
            answer("prompt-list.schema.json", "GET", f"/v1/prompt?product={product}")
        answer("prompt-list.schema.json", "GET", "/v1/prompt?size=960x150&brand=Acme&headline=Sale")
        for product, name in (("banner", "banner"), ("interstitial", "interstitial_hd"), ("companion", "companion")):
            answer("process-answer.schema.json", "POST", f"/v1/process?product={product}&inline=false", read(name))
        answer("process-answer.schema.json", "POST", "/v1/process", read("jpeg"))
        answer("process-answer.schema.json", "POST", "/v1/process?product=companion", read("companion"))
        answer("companion-lint.schema.json", "POST", "/v1/companion/lint", b"carousel_images=https://cdn.example/a.png,x=1",
               content_type="text/plain")
        answer("companion-lint.schema.json", "POST", "/v1/companion/lint?takeover=true", b"ad_type=webview",
               content_type="text/plain")
        with open(os.path.join(WORK, "near-miss.png"), "rb") as handle:
            near_miss = handle.read()
        answer("fix.schema.json", "POST", "/v1/fix", near_miss, accept="application/json")
        answer("fix.schema.json", "POST", "/v1/fix?format=webp", near_miss, accept="application/json")
        answer("error.schema.json", "POST", "/v1/fix", read("odd"), statuses=(422,), accept="application/json")
        # Errors: rejected creatives (422 with the report), no eligible candidate (422), a bad
        # query, an unknown route, a wrong method.
        answer("error.schema.json", "POST", "/v1/process", read("odd"), statuses=(422,))
        answer("error.schema.json", "POST", "/v1/process?product=interstitial", read("text"), statuses=(422,))
        answer("error.schema.json", "POST", "/v1/render?slot=390x61", read("truncated"), statuses=(422,))
        answer("error.schema.json", "POST", "/v1/select",
               json.dumps({"width": 390, "height": 61, "candidates": ["300x250"]}).encode(), statuses=(422,),
               content_type="application/json")
        answer("error.schema.json", "GET", "/v1/slot?width=abc", statuses=(400,))
        answer("error.schema.json", "GET", "/v1/slot?widht=390", statuses=(400,))
        answer("error.schema.json", "GET", "/v1/prompt?size=961x150", statuses=(400,))
        answer("error.schema.json", "GET", "/healthz?x=1", statuses=(400,), on=admin_port)
        answer("error.schema.json", "GET", "/v1/nothing-here", statuses=(404,))
        answer("error.schema.json", "GET", "/v1/validate", statuses=(405,))
    finally:
        server.terminate()
        server.wait(timeout=30)


CHECKED_ELSEWHERE = {"enqueue.schema.json": "Tests/CreativeFleetTests, against Redis and the store"}


def check_documents(schema, paths):
    """The second form: every JSON line of the files against one schema; exit 1 when any fails."""
    for path in paths:
        with open(path, encoding="utf-8") as handle:
            for number, line in enumerate(handle, 1):
                if line.strip():
                    check(schema, json.loads(line), f"{path}:{number}")
    for failure in failures:
        print("check-schemas: FAILED " + failure)
    print(f"check-schemas: {schema}: {checked.get(schema, 0)} documents, {len(failures)} failures")
    sys.exit(1 if failures or not checked.get(schema) else 0)


if len(sys.argv) > 2 and sys.argv[1] == "--documents":
    check_documents(sys.argv[2], sys.argv[3:])
known_bad = self_test()
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
    if name in CHECKED_ELSEWHERE:
        print(f"check-schemas: {name}: checked in {CHECKED_ELSEWHERE[name]}")
    elif name != "defs.schema.json":
        print(f"check-schemas: {name}: {checked.get(name, 0)} outputs")
        if not checked.get(name):
            failures.append(f"{name}: no output checked")
if failures:
    print(f"check-schemas: {len(failures)} failures")
    sys.exit(1)
print(f"check-schemas: {sum(checked.values())} outputs valid against their schemas; "
      f"{known_bad} known-bad documents rejected")
