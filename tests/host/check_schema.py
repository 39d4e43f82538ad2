#!/usr/bin/env python3
"""Validates a bench JSON report against docs/report-schema.json with a real JSON Schema validator
(python3-jsonschema, Debian's package, draft 2020-12: every keyword the schema uses is honoured,
maxItems included). Extra rules the schema cannot say: n == the samples counted (all, or those not
flagged interrupted unless context.keep_interrupted), every wrapped or interrupted index in range,
min <= median <= max, and min/max equal to the counted samples', and every unit `cycles` or
`instructions`, the only ones `bench run` writes (the schema allows any unit: `bench compare` reads
times from other tools; --compare-input checks such a report).
Usage: check_schema.py SCHEMA REPORT [--expect-status ok|incomplete|error] [--compare-input]
       check_schema.py --self-test SCHEMA REPORT   (REPORT valid; mutations of it must be rejected)"""
import copy
import json
import sys

try:
    import jsonschema
except ImportError:  # not a skip: the check is part of the suite (scripts/setup.sh installs it)
    print("check_schema: python3-jsonschema is missing: install it with `apt-get install python3-jsonschema` "
          "(scripts/setup.sh lists it)", file=sys.stderr)
    sys.exit(1)


def validator(schema):
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)  # the schema itself is valid for its $schema draft
    return cls(schema)


def errors_of(v, report, any_unit=False):
    errors = []
    for e in sorted(v.iter_errors(report), key=lambda e: list(e.absolute_path)):
        path = "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in e.absolute_path)
        errors.append(f"{path}: {e.message} ({e.validator})")
    keep = report.get("context", {}).get("keep_interrupted", False) if isinstance(report, dict) else False
    for i, r in enumerate(report.get("results", []) if isinstance(report, dict) else []):
        if not isinstance(r, dict) or not isinstance(r.get("samples"), list):
            continue
        if not any_unit and r.get("unit") not in ("cycles", "instructions"):
            errors.append(f"$.results[{i}].unit: {r.get('unit')!r}: bench run writes cycles or instructions")
        samples, bad = r["samples"], r.get("interrupted", [])
        numbers = [r.get(k) for k in ("min", "median", "max")] + samples + r.get("wrapped", []) + bad
        if not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in numbers + [r.get("n", 0)]):
            continue  # a type error, already reported by the schema
        # The statistics cover the samples not flagged interrupted, unless context.keep_interrupted.
        counted = samples if keep else [x for k, x in enumerate(samples) if k not in set(bad)]
        if r.get("n") != len(counted):
            errors.append(f"$.results[{i}]: n {r.get('n')} != {len(counted)} counted samples")
        if any(w >= len(samples) for w in r.get("wrapped", [])) or any(w >= len(samples) for w in bad):
            errors.append(f"$.results[{i}]: a wrapped or interrupted index is out of range")
        if r.get("n"):
            if not r["min"] <= r["median"] <= r["max"]:
                errors.append(f"$.results[{i}]: min <= median <= max does not hold")
            if min(counted) != r["min"] or max(counted) != r["max"]:
                errors.append(f"$.results[{i}]: min/max disagree with the samples")
    return errors


def self_test(v, report):
    """The validator must reject what the old hand-written subset let through (maxItems: one warning
    more than the schema allows) and the plain mistakes; each mutation names the keyword that must
    catch it."""
    most = v.schema["properties"]["warnings"]["maxItems"]

    def too_many_warnings(r):
        r["warnings"] = ["w"] * (most + 1)
    def extra(r):
        r["context"]["colour"] = "blue"
    def missing(r):
        del r["context"]["firmware_sha256"]
    def status(r):
        r["status"] = "fine"
    def sample_type(r):
        r["results"][0]["samples"][0] = "14"
    def version(r):
        r["schema_version"] = 2
    def unit(r):
        r["results"][0]["unit"] = "ns"
    cases = [(too_many_warnings, "maxItems"), (extra, "additionalProperties"), (missing, "required"),
             (status, "enum"), (sample_type, "type"), (version, "const"), (unit, "unit")]
    bad = errors_of(v, report)
    for e in bad:
        print(f"self-test: the unmutated report is invalid: {e}", file=sys.stderr)
    failed = bool(bad)
    for mutate, keyword in cases:
        r = copy.deepcopy(report)
        mutate(r)
        got = errors_of(v, r)
        if not any(f"({keyword})" in e or f".{keyword}:" in e for e in got):
            print(f"self-test: {mutate.__name__}: expected a {keyword} error, got {got}", file=sys.stderr)
            failed = True
    print(f"self-test: {len(cases)} mutations, {'FAILED' if failed else 'each rejected by its keyword'}")
    return 1 if failed else 0


def main():
    args = [a for a in sys.argv[1:] if a not in ("--self-test", "--compare-input")]
    schema = json.load(open(args[0]))
    report = json.load(open(args[1]))
    v = validator(schema)
    if "--self-test" in sys.argv:
        return self_test(v, report)
    errors = errors_of(v, report, any_unit="--compare-input" in sys.argv)
    if "--expect-status" in args:
        want = args[args.index("--expect-status") + 1]
        if report.get("status") != want:
            errors.append(f"$.status: {report.get('status')!r}, expected {want!r}")
    for e in errors:
        print(f"schema: {args[1]}: {e}", file=sys.stderr)
    if not errors:
        print(f"schema: {args[1]}: ok")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
