#!/usr/bin/env bash
# The whole test suite: set-up, build, ctest; then the same suite under ASan+UBSan.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh build
ctest --test-dir build --output-on-failure -j"$(nproc)" --timeout 300
if [[ "${BENCH_SKIP_ASAN:-0}" != 1 ]]; then
  bash scripts/build.sh build-asan -DBENCH_SANITIZE=ON
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --test-dir build-asan --output-on-failure -j"$(nproc)" --timeout 300 -LE no-asan
fi
# A short fuzz run (about 20 s per libFuzzer target, tests/fuzz and tests/ci) with clang.
if [[ "${BENCH_SKIP_FUZZ:-0}" != 1 ]] && command -v clang >/dev/null; then
  CC=clang cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBENCH_FUZZ=ON -DBENCH_FIRMWARE=OFF >/dev/null
  cmake --build build-fuzz -j"$(nproc)" --target fuzz_targets >/dev/null
  ctest --test-dir build-fuzz --output-on-failure -L fuzz --timeout 300
fi
