# Shared by tests/rsp/*.sh and perf/bench_rsp.sh: start bench-sim and stock OpenOCD with both its
# TCL and GDB ports on free 127.0.0.1 ports, and stop both on every exit path (trap).
#   rsp_sim_start BUILD_DIR SOURCE_DIR [ELF]  -> sets TCL_PORT, GDB_PORT, RSP_WORK
# (ELF: programmed into the virtual flash before start, as bench-sim --elf does)
# Every process started here is killed by its pid in rsp_sim_stop.

# The port OpenOCD 0.12 bound for service $2 (tcl, gdb) after `${2}_port 0`, from its log $1
# ("Listening on port N for tcl connections", src/server/server.c add_service()); waits at most $3
# tenths of a second. A port picked here and closed again could be taken by another test first.
rsp_ocd_port() {
  local n
  for _ in $(seq "$3"); do
    n=$(sed -n "s/.*Listening on port \([0-9]*\) for $2 connections\$/\1/p" "$1" 2>/dev/null | head -1)
    [[ -n "$n" ]] && { echo "$n"; return 0; }
    kill -0 "$OCD_PID" 2>/dev/null || return 1
    sleep 0.1
  done
  return 1
}

rsp_sim_stop() {
  local p
  # SIGTERM first; OpenOCD shutting down talks to a board that may be busy, and a running
  # bench-sim may not look at signals at once: SIGKILL after 2 s.
  for p in ${OCD_PID:-} ${SIM_PID:-}; do
    kill "$p" 2>/dev/null || true
  done
  for p in ${OCD_PID:-} ${SIM_PID:-}; do
    for _ in $(seq 20); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$p" 2>/dev/null || true
    wait "$p" 2>/dev/null || true
  done
  OCD_PID= SIM_PID=
  [[ -n "${RSP_WORK:-}" && -d "$RSP_WORK" ]] && rm -rf "$RSP_WORK"
  return 0
}

# Waits until 127.0.0.1:$1 accepts, at most $2 tenths of a second.
rsp_wait_port() {
  for _ in $(seq "$2"); do
    python3 -c "import socket,sys; socket.create_connection(('127.0.0.1',$1),0.2).close()" 2>/dev/null && return 0
    sleep 0.1
  done
  return 1
}

rsp_sim_start() {
  local build=$1 src=$2 jtag preload=() extra=()
  [[ -n "${RSP_OCD_EXTRA:-}" ]] && extra=(-c "$RSP_OCD_EXTRA") # e.g. "debug_level 3" when debugging
  [[ -n "${3:-}" ]] && preload=(--elf "$3")
  RSP_WORK=$(mktemp -d /tmp/bench-rsp-XXXXXX)
  trap rsp_sim_stop EXIT INT TERM
  # Own sessions (setsid): a child that signals its process group must not hit this script.
  # A Unix socket for the JTAG wire: each of the ~265 bitbang round trips per marker halt costs
  # less than over TCP (docs/sim.md).
  # RSP_SIM_WIRE=stlink: the ST-LINK path instead (dapdirect_swd, docs/gdb.md's command lines).
  local wire=(--jtag-socket "$RSP_WORK/jtag.sock") ready=jtag-socket
  [[ "${RSP_SIM_WIRE:-}" == stlink ]] && wire=(--stlink-port 0) ready=stlink-port
  setsid "$build/bench-sim" "${wire[@]}" --quiet "${preload[@]}" >"$RSP_WORK/sim.out" 2>"$RSP_WORK/sim.err" &
  SIM_PID=$!
  for _ in $(seq 50); do
    grep -q "^$ready " "$RSP_WORK/sim.out" && break
    sleep 0.1
  done
  grep -q "^$ready " "$RSP_WORK/sim.out" || { echo "bench-sim did not start: $(cat "$RSP_WORK/sim.err")" >&2; return 1; }
  jtag="set SIM_JTAG_SOCKET $RSP_WORK/jtag.sock"
  [[ $ready == stlink-port ]] && jtag="set SIM_STLINK_PORT $(awk '/^stlink-port /{print $2; exit}' "$RSP_WORK/sim.out")"
  setsid openocd -c "$jtag" -f "$src/boards/sim-stm32f4/openocd.cfg" -c "bindto 127.0.0.1" \
    -c "gdb_port 0" -c "tcl_port 0" -c "telnet_port disabled" "${extra[@]}" >"$RSP_WORK/openocd.log" 2>&1 &
  OCD_PID=$!
  TCL_PORT=$(rsp_ocd_port "$RSP_WORK/openocd.log" tcl 300) && GDB_PORT=$(rsp_ocd_port "$RSP_WORK/openocd.log" gdb 300) &&
    rsp_wait_port "$TCL_PORT" 300 && rsp_wait_port "$GDB_PORT" 300 ||
    { echo "OpenOCD did not start: $(tail -3 "$RSP_WORK/openocd.log")" >&2; return 1; }
}
