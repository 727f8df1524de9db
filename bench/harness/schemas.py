"""The tool's outputs read through the JSON Schemas of schemas/ (draft 2020-12, `jsonschema` from
the project's venv), so a change of their shape stops the benchmark with the schema's own words
instead of a KeyError in a section."""
import json
import os

from jsonschema import Draft202012Validator
from referencing import Registry, Resource

from .errors import BenchError

SCHEMAS = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "schemas")


class Schemas:
    """Every schema of schemas/, with the registry their $refs resolve in."""

    def __init__(self, folder=SCHEMAS):
        resources, schemas = [], {}
        for name in sorted(os.listdir(folder)):
            if name.endswith(".schema.json"):
                with open(os.path.join(folder, name), encoding="utf-8") as handle:
                    schema = json.load(handle)
                resources.append((schema["$id"], Resource.from_contents(schema)))
                schemas[name[:-len(".schema.json")]] = schema
        registry = Registry().with_resources(resources)
        self.validators = {name: Draft202012Validator(schema, registry=registry) for name, schema in schemas.items()}

    def check(self, schema, document, what):
        """document, once it validates against the schema named SCHEMA in schemas/; BenchError naming
        WHAT and the first violation otherwise."""
        validator = self.validators.get(schema)
        if validator is None:
            raise BenchError("no schema %s.schema.json in schemas/" % schema)
        # The deepest error first: "unevaluated properties" at the top is what a nested mismatch leaves.
        errors = sorted(validator.iter_errors(document), key=lambda e: -len(e.absolute_path))
        error = errors[0] if errors else None
        if error is not None:
            where = "/".join(str(part) for part in error.absolute_path) or "(top)"
            raise BenchError("%s does not match schemas/%s.schema.json at %s: %s"
                             % (what, schema, where, error.message[:300]))
        return document

    def parse(self, schema, text, what):
        """The JSON text, checked as `check` does; BenchError when it is not JSON."""
        try:
            document = json.loads(text)
        except ValueError as error:
            raise BenchError("%s is not JSON (%s): %s" % (what, error, text.strip()[:200]))
        return self.check(schema, document, what)

    def parse_lines(self, schema, text, what):
        """Each non-empty line of text as one JSON document, checked."""
        return [self.parse(schema, line, "%s, line %d" % (what, number))
                for number, line in enumerate(text.splitlines(), 1) if line.strip()]
