#!/usr/bin/env bash
# The whole test suite: set-up, build, ctest; a Release build; then the same suite under ASan+UBSan.
# Warnings are errors here (BENCH_WERROR), not in a plain `cmake` build (a packager's compiler may
# warn differently). Under CI=true (or BENCH_STRICT=1) a test that would skip because something was
# not built fails instead (tests/CMakeLists.txt), and scripts/lint.sh runs.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
strict=OFF
[[ "${CI:-}" == true || "${BENCH_STRICT:-0}" == 1 ]] && strict=ON
bash scripts/build.sh build -DBENCH_WERROR=ON -DBENCH_STRICT=$strict
ctest --test-dir build --output-on-failure -j"$(nproc)" --timeout 300
# A packager's build type (-O3: GCC sees more paths, e.g. -Wmaybe-uninitialized), warnings as
# errors; built, not run again (the suite above ran the same sources at -O2).
bash scripts/build.sh build-release -DCMAKE_BUILD_TYPE=Release -DBENCH_WERROR=ON -DBENCH_FIRMWARE=OFF
if [[ $strict == ON ]]; then
  bash scripts/lint.sh build
fi
if [[ "${BENCH_SKIP_ASAN:-0}" != 1 ]]; then
  bash scripts/build.sh build-asan -DBENCH_SANITIZE=ON -DBENCH_WERROR=ON -DBENCH_STRICT=$strict
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --test-dir build-asan --output-on-failure -j"$(nproc)" --timeout 300 -LE no-asan
fi
# A short fuzz run (about 20 s per libFuzzer target, tests/fuzz and tests/ci) with clang.
if [[ "${BENCH_SKIP_FUZZ:-0}" != 1 ]] && command -v clang >/dev/null; then
  CC=clang cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBENCH_FUZZ=ON -DBENCH_FIRMWARE=OFF \
    -DBENCH_WERROR=ON >/dev/null
  cmake --build build-fuzz -j"$(nproc)" --target fuzz_targets >/dev/null
  ctest --test-dir build-fuzz --output-on-failure -L fuzz --timeout 300
fi
