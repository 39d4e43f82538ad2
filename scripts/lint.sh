#!/usr/bin/env bash
# The written conventions, checked: clang-format (.clang-format) over host/, sim/ and target/, and
# clang-tidy (.clang-tidy) over host/ and sim/ with the compile commands of a configured build.
#   bash scripts/lint.sh [BUILD_DIR] [--format-only | --tidy-only] [--target]
# BUILD_DIR (default build/) must hold compile_commands.json (CMAKE_EXPORT_COMPILE_COMMANDS is on in
# CMakeLists.txt). --target also runs clang-tidy over target/ with the firmware project's
# fw/compile_commands.json: not by default yet, since clang 14 cannot parse the MVE register
# `vfpcc` in target/port/cortex-m/pfp_port_cm.h and target/ casts register addresses to pointers
# (performance-no-int-to-ptr) by design; docs/conventions.md.
# Exit 0 when both pass; 1 with every file clang-format would change (fix: clang-format -i FILE) and
# every clang-tidy finding. scripts/test.sh runs it under CI=true (docs/conventions.md).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
build=build
mode=all
target=0
for a in "$@"; do
  case $a in
  --format-only) mode=format ;;
  --tidy-only) mode=tidy ;;
  --target) target=1 ;;
  -*) echo "lint: unknown option $a: use [BUILD_DIR] [--format-only|--tidy-only] [--target]" >&2; exit 2 ;;
  *) build=$a ;;
  esac
done
fail=0

if [[ $mode != tidy ]]; then
  mapfile -t files < <(git ls-files -- 'host/*.[ch]' 'sim/*.[ch]' 'target/*.[ch]')
  bad=()
  for f in "${files[@]}"; do
    clang-format --dry-run --Werror "$f" >/dev/null 2>&1 || bad+=("$f")
  done
  if ((${#bad[@]})); then
    echo "lint: clang-format: ${#bad[@]} of ${#files[@]} files differ from .clang-format (fix: clang-format -i FILE):"
    printf '  %s\n' "${bad[@]}"
    fail=1
  else
    echo "lint: clang-format: ${#files[@]} files ok"
  fi
fi

if [[ $mode != format ]]; then
  [[ -f $build/compile_commands.json ]] || {
    echo "lint: no $build/compile_commands.json: configure first (bash scripts/build.sh $build)" >&2
    exit 2
  }
  jobs=$(nproc)
  log=$(mktemp)
  trap 'rm -f "$log"' EXIT
  # run-clang-tidy takes each source file once (a file compiled for several boards is checked once).
  # -quiet drops the "N warnings generated" chatter; WarningsAsErrors in .clang-tidy sets the status.
  rc=0
  run-clang-tidy -p "$build" -j "$jobs" -quiet "^$root/(host|sim)/" >"$log" 2>&1 || rc=1
  if ((target)) && [[ -f $build/fw/compile_commands.json ]]; then
    run-clang-tidy -p "$build/fw" -j "$jobs" -quiet "^$root/target/" >>"$log" 2>&1 || rc=1
  elif ((target)); then
    echo "lint: no $build/fw/compile_commands.json (BENCH_FIRMWARE=OFF?): target/ not checked" >&2
    rc=1
  fi
  sed -i 's/\x1b\[[0-9;]*m//g' "$log" # run-clang-tidy colours its output
  findings=$(grep -cE '(warning|error): .*\[[A-Za-z0-9.,_-]+\]$' "$log" || true)
  if ((rc)) || ((findings)); then
    grep -E '(warning|error): ' "$log" | sort -u
    echo "lint: clang-tidy: $findings findings (checks: .clang-tidy)"
    fail=1
  else
    echo "lint: clang-tidy: host/ sim/$( ((target)) && echo ' target/') clean"
  fi
fi
exit $fail
