#!/usr/bin/env python3
"""Checks the repository's own references, as `make test` runs it (scripts/test.sh):
  - every relative link and #anchor in README.md, CHANGELOG.md and docs/*.md points at a file that exists and,
    for an anchor, at a heading of that file (GitHub's anchor rules) or an <a id>/<a name> in it;
  - no tracked text file cites the design file that is not in the repository;
  - every path under the repository's folders that a tracked text file names (a page under docs,
    a script, a source or test file) exists.
Prints each finding as FILE:LINE: what, and "check-links: ..." last; exit 1 on any finding.
  scripts/check-links.py [ROOT]"""
import os
import re
import subprocess
import sys
import unicodedata

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
FENCE = re.compile(r"^\s*(```|~~~)")
INLINE_LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE_LINK = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*(\S+)")
HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
HTML_ANCHOR = re.compile(r"<a\s+(?:[^>]*\s)?(?:id|name)=\"([^\"]+)\"", re.I)
CODE_SPAN = re.compile(r"(`+)(.+?)\1")
# A path under one of the repository's folders, as prose or code names it.
NAMED_PATH = re.compile(r"(?<![\w./-])((?:docs|scripts|Sources|Tests|bench|deploy|TestImages|schemas)/"
                        r"[\w./-]*\w\.(?:md|sh|py|swift|yaml|yml|c|h|txt|png|json|1|bash))(?![\w/])")
CITED = "DESI" + "GN"  # spelled apart so this file does not cite it itself


def slug(heading):
    """GitHub's anchor of a heading: markup dropped, lower case, punctuation dropped, spaces to '-'."""
    text = CODE_SPAN.sub(lambda m: m.group(2), heading)
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"<[^>]+>", "", text).lower()
    kept = "".join(c for c in text if c in " -_" or unicodedata.category(c)[0] in "LNM")
    return kept.replace(" ", "-")


def markdown_lines(path):
    """(number, line) of the lines outside fenced code blocks."""
    inside = False
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if FENCE.match(line):
                inside = not inside
                continue
            if not inside:
                yield number, line


def anchors(path, cache={}):
    if path not in cache:
        found, seen = set(), {}
        for _, line in markdown_lines(path):
            found.update(HTML_ANCHOR.findall(line))
            heading = HEADING.match(line)
            if heading:
                base = slug(heading.group(2))
                count = seen.get(base, 0)
                seen[base] = count + 1
                found.add(base if count == 0 else f"{base}-{count}")
        cache[path] = found
    return cache[path]


def check_markdown(path, findings):
    relative = os.path.relpath(path, ROOT)
    for number, line in markdown_lines(path):
        prose = CODE_SPAN.sub("", line)
        targets = INLINE_LINK.findall(prose) + REFERENCE_LINK.findall(prose)
        for target in targets:
            if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):
                continue  # http:, https:, mailto:
            file_part, _, anchor = target.partition("#")
            resolved = os.path.normpath(os.path.join(os.path.dirname(path), file_part)) if file_part else path
            if not os.path.exists(resolved):
                findings.append(f"{relative}:{number}: link to a missing file: {target}")
            elif anchor and resolved.endswith(".md") and anchor not in anchors(resolved):
                findings.append(f"{relative}:{number}: no heading for #{anchor} in {os.path.relpath(resolved, ROOT)}")


def tracked_text_files():
    names = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    for name in names.decode().split("\0"):
        path = os.path.join(ROOT, name)
        if not name or not os.path.isfile(path):
            continue
        with open(path, "rb") as handle:
            data = handle.read()
        if b"\0" not in data[:8192]:
            yield name, data.decode("utf-8", errors="replace")


def check_citations(findings):
    for name, text in tracked_text_files():
        for number, line in enumerate(text.splitlines(), 1):
            if CITED in line:
                findings.append(f"{name}:{number}: cites {CITED}, which is not in the repository")
            for named in NAMED_PATH.findall(line):
                if "*" not in named and not os.path.exists(os.path.join(ROOT, named)):
                    findings.append(f"{name}:{number}: names a missing file: {named}")


def main():
    findings = []
    documents = [os.path.join(ROOT, "README.md"), os.path.join(ROOT, "CHANGELOG.md")] + sorted(
        os.path.join(ROOT, "docs", name) for name in os.listdir(os.path.join(ROOT, "docs")) if name.endswith(".md"))
    for document in documents:
        check_markdown(document, findings)
    check_citations(findings)
    for finding in findings:
        print(finding)
    if findings:
        print(f"check-links: {len(findings)} broken references")
        return 1
    print(f"check-links: the links and anchors of {len(documents)} documents and the files they name exist")
    return 0


if __name__ == "__main__":
    sys.exit(main())
