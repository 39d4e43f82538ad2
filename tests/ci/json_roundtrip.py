#!/usr/bin/env python3
"""Round trip of the JSON report: `bench report FIXTURE --format json` (json_read.c, then the json
reporter) must give back every field of the hand-written fixture; floats within 1e-9 relative
(the reporter prints with its own precision, the stats are recomputed from the samples).
argv: BENCH."""
import json
import math
import os
import subprocess
import sys

FIX = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "golden-input.json")


def same(a, b, path, problems):
    if isinstance(a, dict) and isinstance(b, dict):
        for k in a:
            if k not in b:
                problems.append(f"{path}.{k}: missing after the round trip")
            else:
                same(a[k], b[k], f"{path}.{k}", problems)
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            same(x, y, f"{path}[{i}]", problems)
    elif isinstance(a, float) or isinstance(b, float):
        if not (isinstance(a, (int, float)) and isinstance(b, (int, float)) and math.isclose(a, b, rel_tol=1e-9)):
            problems.append(f"{path}: {a!r} became {b!r}")
    elif a != b:
        problems.append(f"{path}: {a!r} became {b!r}")


def main():
    p = subprocess.run([sys.argv[1], "report", FIX, "--format", "json"], capture_output=True, text=True, timeout=60)
    if p.returncode != 0:
        print(f"FAIL: exit {p.returncode}: {p.stderr}")
        return 1
    problems = []
    same(json.load(open(FIX)), json.loads(p.stdout), "$", problems)
    for line in problems:
        print("FAIL " + line)
    print("ok" if not problems else f"{len(problems)} fields differ")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
