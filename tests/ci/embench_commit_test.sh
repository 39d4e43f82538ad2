#!/usr/bin/env bash
# perf/bench_embench.sh refuses ELFs of another Embench commit than its silicon figures (issue 26,
# class 8): embench-iot master's tarfind has LOCAL_SCALE_FACTOR 46 where 3ef636f has 127. Stub
# ELFs stand in for Embench's (its sources are not in this repository): benchmark() as Embench
# writes it, `return benchmark_body (LSF, GSF);`, compiled with its -O2 -mcpu=cortex-m4 -mthumb.
# argv: BUILD_DIR (its bench must exist: the script checks that first).
set -euo pipefail
build=$1
here=$(cd "$(dirname "$0")" && pwd)
script=$here/../../perf/bench_embench.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
command -v arm-none-eabi-gcc >/dev/null || fail "arm-none-eabi-gcc not found (scripts/setup.sh installs it)"

stub() { # DIR NAME LSF GSF
  mkdir -p "$1"
  printf 'int benchmark_body(int lsf, int gsf);\nint benchmark(void) { return benchmark_body(%s, %s); }\n' "$3" "$4" >"$tmp/s.c"
  arm-none-eabi-gcc -O2 -mcpu=cortex-m4 -mthumb -c "$tmp/s.c" -o "$1/$2.elf"
}

stub1() { # DIR NAME N: xgboost's benchmark() passes one argument, LSF * GSF folded by the compiler
  mkdir -p "$1"
  printf 'int benchmark_body(int rpt);\nint benchmark(void) { return benchmark_body(%s); }\n' "$3" >"$tmp/s.c"
  arm-none-eabi-gcc -O2 -mcpu=cortex-m4 -mthumb -c "$tmp/s.c" -o "$1/$2.elf"
}

# master's tarfind: refused before anything is measured, one line, exit 1.
stub "$tmp/master" tarfind 46 16
stub "$tmp/master" crc32 170 16
set +e
EMBENCH_ELF_DIR=$tmp/master bash "$script" "$build" >"$tmp/m.out" 2>"$tmp/m.err"; rc=$?
set -e
[[ $rc -eq 1 ]] || fail "master's tarfind: exit $rc, expected 1"
[[ $(cat "$tmp/m.err") == "bench_embench: $tmp/master/tarfind.elf has LOCAL_SCALE_FACTOR 46 and global scale factor 16, where embench-iot 3ef636f (whose silicon times this compares with) has 127 and 16: build the ELFs from commit 3ef636f with gsf=16" ]] ||
  fail "master's tarfind: stderr $(cat "$tmp/m.err")"
[[ ! -s "$tmp/m.out" ]] || fail "master's tarfind: figures printed: $(cat "$tmp/m.out")"

# Another global scale factor: refused the same way.
stub "$tmp/gsf" crc32 170 1
set +e
EMBENCH_ELF_DIR=$tmp/gsf bash "$script" "$build" >/dev/null 2>"$tmp/g.err"; rc=$?
set -e
[[ $rc -eq 1 ]] && grep -q "crc32.elf has LOCAL_SCALE_FACTOR 170 and global scale factor 1," "$tmp/g.err" ||
  fail "gsf 1: exit $rc: $(cat "$tmp/g.err")"

# xgboost built with global scale factor 1 (its one argument 1 * 1): refused as the others are.
stub1 "$tmp/xg" xgboost 1
set +e
EMBENCH_ELF_DIR=$tmp/xg bash "$script" "$build" >/dev/null 2>"$tmp/x.err"; rc=$?
set -e
[[ $rc -eq 1 ]] && grep -q "xgboost.elf has LOCAL_SCALE_FACTOR - and global scale factor 1," "$tmp/x.err" ||
  fail "xgboost gsf 1: exit $rc: $(cat "$tmp/x.err")"

# 3ef636f's factors pass the check (the stubs then fail to run, with bench's own message: not the
# check's), and xgboost's folded 1 is accepted.
stub "$tmp/ok" tarfind 127 16
stub "$tmp/ok" crc32 170 16
stub1 "$tmp/ok" xgboost 16
set +e
EMBENCH_ELF_DIR=$tmp/ok bash "$script" "$build" >/dev/null 2>"$tmp/ok.err"
set -e
! grep -q "LOCAL_SCALE_FACTOR\|cannot read the scale factors" "$tmp/ok.err" || fail "3ef636f's factors refused: $(head -3 "$tmp/ok.err")"
grep -q "no ELF for aha-mont64" "$tmp/ok.err" || fail "3ef636f's factors: the passes did not run: $(head -3 "$tmp/ok.err")"
echo ok
