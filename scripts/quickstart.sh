#!/usr/bin/env bash
# The main job on a fresh machine: set-up, build, and measure the example firmware on the virtual board.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh build
exec build/bench run build/examples/sim-stm32f4/fut-hardfp.elf --arg input=0:1000:100 --repeat 5 "$@"
