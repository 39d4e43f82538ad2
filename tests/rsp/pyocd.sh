#!/usr/bin/env bash
# pyOCD without a probe (Debian 12's python3-pyocd 0.13.1: `pyocd-tool`, `pyocd-gdbserver`; newer
# pyOCD spells them `pyocd list` / `pyocd gdbserver`): what docs/gdb.md tells users to run works
# as far as it can here. `list` reports no probes; the gdbserver knows the generic Cortex-M target
# and waits for a probe without opening its port, and bench, pointed at that port, says clearly
# that nothing listens (exit 4) instead of hanging.
#   pyocd.sh BUILD_DIR
set -euo pipefail
build=$1
work=$(mktemp -d /tmp/bench-pyocd-XXXXXX)
PY_PID=
cleanup() {
  if [[ -n "$PY_PID" ]]; then kill "$PY_PID" 2>/dev/null || true; wait "$PY_PID" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT INT TERM
if command -v pyocd-tool >/dev/null; then list=(pyocd-tool list) gdbserver=(pyocd-gdbserver)
elif command -v pyocd >/dev/null; then list=(pyocd list) gdbserver=(pyocd gdbserver)
else echo "pyOCD missing: bash scripts/setup.sh (python3-pyocd)" >&2; exit 1; fi

out=$("${list[@]}" 2>&1)
grep -q "No available debug probes are connected" <<<"$out" || { echo "list said: $out" >&2; exit 1; }
targets=$("${gdbserver[@]}" --list-targets 2>&1)
grep -qx "cortex_m" <<<"$targets" || { echo "no cortex_m target in pyOCD: $targets" >&2; exit 1; }

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
# Its own session: pyOCD signals its whole process group when it stops.
setsid "${gdbserver[@]}" -p "$port" -t cortex_m >"$work/pyocd.log" 2>&1 &
PY_PID=$!
for _ in $(seq 100); do grep -q "Waiting for a debug probe" "$work/pyocd.log" && break; sleep 0.1; done
grep -q "Waiting for a debug probe" "$work/pyocd.log" || { echo "pyOCD said: $(cat "$work/pyocd.log")" >&2; exit 1; }

set +e
"$build/bench" run --gdb "127.0.0.1:$port" "$build/examples/sim-stm32f4/nops.elf" --quiet --no-progress 2>"$work/err"
rc=$?
set -e
[[ $rc -eq 4 ]] || { echo "bench exit $rc, want 4: $(cat "$work/err")" >&2; exit 1; }
grep -q "cannot connect to gdbserver 127.0.0.1:$port: Connection refused" "$work/err" ||
  { echo "bench said: $(cat "$work/err")" >&2; exit 1; }
echo "pyOCD: no probes listed, gdbserver waits for one; bench --gdb: $(cat "$work/err")"
