"""The sections, in the order they run; each module has run(context) -> its JSON-able result.
`memory` is not in the default list: it takes BENCH_MEMORY_SECONDS per allocator."""
from . import autocost, bytes_, memory, preflight, process, render, serve, startup, validate, weight, worker

SECTIONS = {
    "startup": startup, "render": render, "bytes": bytes_, "weight": weight, "autocost": autocost, "validate": validate,
    "preflight": preflight, "process": process, "serve": serve, "worker": worker, "memory": memory,
}
DEFAULT = ["startup", "render", "bytes", "weight", "autocost", "validate", "preflight", "process", "serve", "worker"]
# Names that stand for several sections: `peers` is every section that times a peer beside the tool.
GROUPS = {"peers": ["render", "bytes", "validate", "process"], "all": DEFAULT}


def resolve(names):
    """The section names asked for (groups expanded, order kept, each once); ValueError naming an
    unknown one."""
    resolved = []
    for name in names:
        for section in GROUPS.get(name, [name]):
            if section not in SECTIONS:
                raise ValueError("no section '%s' (have: %s; groups: %s)"
                                 % (section, " ".join(SECTIONS), " ".join(GROUPS)))
            if section not in resolved:
                resolved.append(section)
    return resolved
