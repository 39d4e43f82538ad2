#!/usr/bin/env bash
# The main job on a fresh machine: set-up, build, then the barebench result on the virtual board
# (examples/fut.c: an int times pi in single precision). With the FPU (fut-hardfp) fut() takes the
# same cycles for every input; in soft float (fut-softfp) the libgcc routines' time depends on it.
# Usage: bash scripts/quickstart.sh [more `bench run` flags, given to both runs]
#        BENCH_BUILD_DIR=DIR bash scripts/quickstart.sh   measures with the build in DIR: no set-up,
#                                                         no build (tests/e2e case quickstart)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BENCH_BUILD_DIR:-}
if [[ -z "$build" ]]; then
  bash scripts/setup.sh
  bash scripts/build.sh build
  build=build
fi
# Zero, small, negative, and values beyond float's 24-bit mantissa: the soft-float routines take
# different paths for them.
inputs=0,1,3,-7,1000,65535,16777217,123456789,-2000000001
for fw in fut-hardfp fut-softfp; do
  echo
  echo "\$ $build/bench run $build/examples/sim-stm32f4/$fw.elf --arg input=$inputs --repeat 3${*:+ $*}"
  "$build/bench" run "$build/examples/sim-stm32f4/$fw.elf" --arg "input=$inputs" --repeat 3 "$@"
done
