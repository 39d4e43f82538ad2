#!/bin/sh
# layers.sim_cycles: no include or call cycle between the files of sim/
# (scripts/check_layers.py --sim-cycles on the tree and the build's layer libraries), and the check
# itself refuses the two kinds it exists for, planted in a copy:
#  - an include cycle hidden behind a header with no .c of its own (timing/all.h included by
#    cycles_rules.c, including cycles.h, whose cycles.c includes cycles_rules.h);
#  - a call cycle between two objects of a layer library (a.c calls b.c, b.c calls a.c).
# Usage: layers_cycles.sh SOURCE_DIR SIM_BUILD_DIR C_COMPILER
set -eu
src=$1
objdir=$2
cc=$3
python3 "$src/scripts/check_layers.py" --sim-cycles "$objdir"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/scripts"
cp "$src/scripts/check_layers.py" "$tmp/scripts/"
cp -r "$src/sim" "$src/host" "$tmp/"
printf '#include "timing/cycles.h"\n#include "timing/cycles_rules.h"\n' >"$tmp/sim/timing/all.h"
printf '#include "timing/all.h"\n' >>"$tmp/sim/timing/cycles_rules.c"
if python3 "$tmp/scripts/check_layers.py" --sim-cycles 2>"$tmp/err" >/dev/null; then
	echo "FAIL: an include cycle behind timing/all.h passed"
	exit 1
fi
if ! grep -q 'sim: include cycle: timing/cycles <-> timing/cycles_rules' "$tmp/err"; then
	echo "FAIL: the include cycle is not named; got:"
	cat "$tmp/err"
	exit 1
fi

mkdir -p "$tmp/obj"
printf 'int b(int);\nint a(int x) { return x ? b(x - 1) : 0; }\n' >"$tmp/a.c"
printf 'int a(int);\nint b(int x) { return x ? a(x - 1) : 1; }\n' >"$tmp/b.c"
"$cc" -c "$tmp/a.c" -o "$tmp/obj/a.c.o"
"$cc" -c "$tmp/b.c" -o "$tmp/obj/b.c.o"
(cd "$tmp/obj" && ar qc libsim_fake.a a.c.o b.c.o && rm a.c.o b.c.o)
rm "$tmp/sim/timing/all.h"
cp "$src/sim/timing/cycles_rules.c" "$tmp/sim/timing/cycles_rules.c"
if python3 "$tmp/scripts/check_layers.py" --sim-cycles "$tmp/obj" 2>"$tmp/err" >/dev/null; then
	echo "FAIL: a call cycle between fake/a.c and fake/b.c passed"
	exit 1
fi
if ! grep -q 'sim: call cycle: fake/a <-> fake/b: fake/a -> fake/b (b), fake/b -> fake/a (a)' "$tmp/err"; then
	echo "FAIL: the call cycle is not named; got:"
	cat "$tmp/err"
	exit 1
fi
echo "layers_cycles: ok"
