"""preflight: what the pre-flight checks add to `validate` of the accepted 2184x270 PNG: the same
run with and without them (`--no-preflight`), side by side. Wall clock and CPU (user + system,
which a busy machine disturbs less); the budget is 15% of validate."""
import os
import shutil

from ..context import ARTWORK, quote
from .validate import checked_valid


def run(context):
    source = os.path.join(context.folder("preflight"), "in.png")
    shutil.copy(ARTWORK, source)
    checked_valid(context, ["validate", "--json", source], "preflight: validate")
    checked_valid(context, ["validate", "--json", "--no-preflight", source], "preflight: validate --no-preflight")
    rows = [("validate", quote(context.binary, "validate", "--json", source)),
            ("validate --no-preflight", quote(context.binary, "validate", "--json", "--no-preflight", source))]
    return {"budget_percent": 15, "comparison": context.compare("preflight", rows)}
