# Sourced by the shell tests: bench_skip WHY exits 77 (ctest's SKIP_RETURN_CODE: shown as skipped)
# when something the test needs was not built, but 1 (failed) under CI=true or BENCH_STRICT=1, so
# CI never goes green on a suite that built nothing (issue 10; tests/lib/bench_skip.h for cmocka).
bench_skip() {
  if [[ "${CI:-}" == true || "${BENCH_STRICT:-0}" == 1 ]]; then
    echo "FAIL: $* (a skip fails under CI=true or BENCH_STRICT=1)"
    exit 1
  fi
  echo "SKIP: $*"
  exit 77
}
