#!/usr/bin/env python3
"""Validates a bench JSON report against docs/report-schema.json.

Implements the JSON Schema keywords that schema uses (type, const, enum, required, properties,
additionalProperties, items, minimum, minLength, pattern) with the standard library only, so the
check runs on a stock Debian python3. Extra rules the schema cannot say: n == len(samples) (less the interrupted ones unless
context.keep_interrupted),
every wrapped index < n, and min <= median <= max.
Usage: check_schema.py SCHEMA REPORT [--expect-status ok|incomplete|error]"""
import json
import re
import sys

TYPES = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool)
    or (isinstance(v, float) and v.is_integer()),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
}


def check(schema, v, path, errors):
    t = schema.get("type")
    if t is not None:
        ts = t if isinstance(t, list) else [t]
        if not any(TYPES[x](v) for x in ts):
            errors.append(f"{path}: {v!r} is not of type {t}")
            return
    if "const" in schema and v != schema["const"]:
        errors.append(f"{path}: {v!r} != {schema['const']!r}")
    if "enum" in schema and v not in schema["enum"]:
        errors.append(f"{path}: {v!r} not in {schema['enum']}")
    if isinstance(v, (int, float)) and not isinstance(v, bool) and "minimum" in schema and v < schema["minimum"]:
        errors.append(f"{path}: {v} < {schema['minimum']}")
    if isinstance(v, str):
        if len(v) < schema.get("minLength", 0):
            errors.append(f"{path}: shorter than {schema['minLength']}")
        if "pattern" in schema and not re.search(schema["pattern"], v):
            errors.append(f"{path}: {v!r} does not match {schema['pattern']}")
    if isinstance(v, dict):
        for k in schema.get("required", []):
            if k not in v:
                errors.append(f"{path}: missing {k}")
        props = schema.get("properties", {})
        extra = schema.get("additionalProperties", True)
        for k, x in v.items():
            if k in props:
                check(props[k], x, f"{path}.{k}", errors)
            elif extra is False:
                errors.append(f"{path}: unexpected field {k}")
            elif isinstance(extra, dict):
                check(extra, x, f"{path}.{k}", errors)
    if isinstance(v, list) and "items" in schema:
        for i, x in enumerate(v):
            check(schema["items"], x, f"{path}[{i}]", errors)


def main():
    schema = json.load(open(sys.argv[1]))
    report = json.load(open(sys.argv[2]))
    errors = []
    check(schema, report, "$", errors)
    keep = report.get("context", {}).get("keep_interrupted", False)
    for i, r in enumerate(report.get("results", [])):
        samples, bad = r.get("samples", []), set(r.get("interrupted", []))
        # The statistics cover the samples not flagged interrupted, unless context.keep_interrupted.
        counted = samples if keep else [x for k, x in enumerate(samples) if k not in bad]
        if r.get("n") != len(counted):
            errors.append(f"$.results[{i}]: n {r.get('n')} != {len(counted)} counted samples")
        if any(w >= len(samples) for w in r.get("wrapped", [])) or any(w >= len(samples) for w in bad):
            errors.append(f"$.results[{i}]: a wrapped or interrupted index is out of range")
        if r.get("n"):
            if not r["min"] <= r["median"] <= r["max"]:
                errors.append(f"$.results[{i}]: min <= median <= max does not hold")
            if min(counted) != r["min"] or max(counted) != r["max"]:
                errors.append(f"$.results[{i}]: min/max disagree with the samples")
    if "--expect-status" in sys.argv:
        want = sys.argv[sys.argv.index("--expect-status") + 1]
        if report.get("status") != want:
            errors.append(f"$.status: {report.get('status')!r}, expected {want!r}")
    for e in errors:
        print(f"schema: {sys.argv[2]}: {e}", file=sys.stderr)
    if not errors:
        print(f"schema: {sys.argv[2]}: ok")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
