#!/bin/sh
# layers.sim_back_edge: scripts/check_layers.py passes on a copy of the tree and refuses it, naming
# file, line and layers, once scs/fpb.c includes chip/stm32f4.h (an scs -> chip back-edge). The
# other guard, sim_<layer>_links in sim/CMakeLists.txt, fails the build itself on such a call.
# Usage: layers_back_edge.sh SOURCE_DIR
set -eu
src=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/scripts"
cp "$src/scripts/check_layers.py" "$tmp/scripts/"
cp -r "$src/sim" "$src/host" "$tmp/"
python3 "$tmp/scripts/check_layers.py" >/dev/null || { echo "FAIL: the unmodified copy does not pass"; exit 1; }
printf '#include "chip/stm32f4.h"\n' >>"$tmp/sim/scs/fpb.c"
if python3 "$tmp/scripts/check_layers.py" >/dev/null 2>"$tmp/err"; then
	echo "FAIL: check_layers.py accepted scs/fpb.c including chip/stm32f4.h"
	exit 1
fi
want='sim/scs/fpb.c:[0-9]*: sim/scs includes "chip/stm32f4.h": sim/chip is not below sim/scs'
if ! grep -q "$want" "$tmp/err"; then
	echo "FAIL: the message does not name the back-edge; got:"
	cat "$tmp/err"
	exit 1
fi
echo "layers_back_edge: ok"
