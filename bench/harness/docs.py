"""Blocks of a markdown document between markers, rewritten; everything else (the prose) kept.

    <!-- bench:NAME -->
    ...generated...
    <!-- /bench:NAME -->
Pure: text in, text out."""
import re

MARKER = re.compile(r"<!-- bench:([a-z]+) -->\n(.*?)<!-- /bench:\1 -->", re.S)


class DocsError(ValueError):
    """A marker without its end, or a block asked for that the document has no markers for."""


def demote(markdown):
    """Every heading one level down ("## x" -> "### x"): the report's sections sit under a
    heading of the document."""
    return "\n".join("#" + line if re.match(r"#+ ", line) else line for line in markdown.split("\n"))


def names(text):
    return [match.group(1) for match in MARKER.finditer(text)]


def replace_blocks(text, blocks, required=()):
    """text with each marked block whose name is in blocks rewritten to blocks[name]; blocks the
    document marks but the results lack stay as they were. DocsError when a name of `required` has
    no markers, or an opening marker has no end."""
    opened = re.findall(r"<!-- bench:([a-z]+) -->", text)
    closed = re.findall(r"<!-- /bench:([a-z]+) -->", text)
    if sorted(opened) != sorted(closed):
        raise DocsError("unbalanced bench markers: opened %s, closed %s" % (opened, closed))
    missing = [name for name in required if name not in opened]
    if missing:
        raise DocsError("no <!-- bench:NAME --> markers for: " + ", ".join(missing))

    def rewrite(match):
        name = match.group(1)
        if name not in blocks:
            return match.group(0)
        return "<!-- bench:%s -->\n%s\n<!-- /bench:%s -->" % (name, blocks[name].strip("\n"), name)

    return MARKER.sub(rewrite, text)
