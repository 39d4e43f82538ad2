#!/bin/sh
# layers.host_cycles: scripts/check_layers.py --host-cycles refuses what it exists for, planted in
# a copy of the tree (layers.check runs it on the real tree and the build's layer libraries):
#  - an include cycle between two units of host/ (transport/rsp_io.c including rsp_packet.h,
#    whose rsp_packet.c includes rsp_io.h);
#  - a call cycle between two objects of a layer library (a.c calls b.c, b.c calls a.c), in
#    libbench_fake.a as host/CMakeLists.txt names its libraries.
# Usage: layers_cycles.sh SOURCE_DIR C_COMPILER
set -eu
src=$1
cc=$2

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/scripts"
cp "$src/scripts/check_layers.py" "$tmp/scripts/"
cp -r "$src/sim" "$src/host" "$tmp/"

refused() { # WHAT EXPECTED_LINE [OBJDIR]
	if python3 "$tmp/scripts/check_layers.py" --host-cycles ${3:-} 2>"$tmp/err" >/dev/null; then
		echo "FAIL: $1 passed"
		exit 1
	fi
	if ! grep -qF "$2" "$tmp/err"; then
		echo "FAIL: $1 is not named ($2); got:"
		cat "$tmp/err"
		exit 1
	fi
}

python3 "$tmp/scripts/check_layers.py" --host-cycles >/dev/null

printf '#include "transport/rsp_packet.h"\n' >>"$tmp/host/transport/rsp_io.c"
refused "an include cycle between transport/rsp_io and transport/rsp_packet" \
	'host: include cycle: transport/rsp_io <-> transport/rsp_packet'
cp "$src/host/transport/rsp_io.c" "$tmp/host/transport/rsp_io.c"

mkdir -p "$tmp/obj"
printf 'int b(int);\nint a(int x) { return x ? b(x - 1) : 0; }\n' >"$tmp/a.c"
printf 'int a(int);\nint b(int x) { return x ? a(x - 1) : 1; }\n' >"$tmp/b.c"
"$cc" -c "$tmp/a.c" -o "$tmp/obj/a.c.o"
"$cc" -c "$tmp/b.c" -o "$tmp/obj/b.c.o"
(cd "$tmp/obj" && ar qc libbench_fake.a a.c.o b.c.o && rm a.c.o b.c.o)
refused "a call cycle between fake/a.c and fake/b.c" \
	'host: call cycle: fake/a <-> fake/b: fake/a -> fake/b (b), fake/b -> fake/a (a)' "$tmp/obj"
echo "layers_cycles: ok"
