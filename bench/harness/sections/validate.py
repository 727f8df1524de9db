"""validate: one 2184x270 file checked whole (strict full decode) as a whole process, against
ImageMagick decoding it fully with warnings as errors, for each of BENCH_VALIDATE_INPUTS (the flat
test artwork and the photographic PNG); then BENCH_VALIDATE_FILES copies of the artwork in one run
against as many runs of one file each (the batch cost per file). Every report is read through
schemas/validate-report.schema.json and must say valid."""
import os
import shutil

from ..context import ARTWORK, CONVERT, quote
from ..errors import BenchError


def checked_valid(context, args, what):
    """The reports of `validate --json ARGS`, checked against the schema, each valid."""
    reports = context.schemas.parse_lines("validate-report", context.run([context.binary] + args, what).stdout, what)
    for report in reports:
        if not report["valid"]:
            raise BenchError("%s: %s is not valid: %s" % (what, report["file"], report["errors"]))
    return reports


def run(context):
    singles = []
    for name in context.settings["validate_inputs"]:
        folder = context.folder("validate", name.replace(".", "-"))
        source = os.path.join(folder, "in" + os.path.splitext(name)[1])
        shutil.copy(context.input_path(name), source)
        checked_valid(context, ["validate", "--json", source], "validate " + name)
        magick = quote(CONVERT, "-regard-warnings", source, "null:")
        context.shell(magick, "validate: ImageMagick on " + name)
        rows = [("creative-tool", quote(context.binary, "validate", "--json", source))]
        rows += context.system_row("validate", "--json", source)
        rows.append(("ImageMagick (convert -regard-warnings FILE null:)", magick))
        singles.append({"input": context.describe_input(name),
                        "comparison": context.compare("validate-" + name.replace(".", "-"), rows)})

    count = context.settings["validate_files"]
    folder = context.folder("validate", "batch")
    files = []
    for index in range(1, count + 1):
        files.append(os.path.join(folder, "f%d.png" % index))
        shutil.copy(ARTWORK, files[-1])
    reports = checked_valid(context, ["validate", "--json"] + files, "validate of %d files" % count)
    if len(reports) != count:
        raise BenchError("validate of %d files printed %d reports" % (count, len(reports)))
    batch = quote(context.binary, "validate", "--json", *files) + " >/dev/null"
    single = 'for f in %s; do %s validate --json "$f" >/dev/null; done' % (quote(*files), quote(context.binary))
    rows = [("creative-tool, one run of %d" % count, batch), ("creative-tool, %d runs of 1" % count, single)]
    runs = min(5, context.settings["runs"])
    return {"singles": singles, "batch": {"files": count, "comparison": context.compare("validate-batch", rows, runs)}}
