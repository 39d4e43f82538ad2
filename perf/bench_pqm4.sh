#!/usr/bin/env bash
# The cycle model against a second silicon suite (docs/cycle-model.md "Against silicon"): pqm4's
# ML-KEM speed and hashing tests, built with pqm4's own instructions for PLATFORM=stm32f4discovery
# (libopencm3 clock set-up at 24 MHz, flash at 0 wait states, USART2, RNG), run unmodified on the
# virtual board (`bench-sim --standalone --until-uart '#'`: pqm4's host scripts read its output up
# to its `#` end mark, mupq/platforms.py), against the cycle counts pqm4 publishes in
# benchmarks.md, measured on an STM32F4-Discovery.
#   pqm4_<scheme>_<impl>_<op>        modelled/silicon (benchmarks.md's AVG of 10 executions);
#                                    target 0.99..1.01 for m4fspeed/m4fstack, 0.97..1.03 for clean
#   pqm4_<scheme>_<impl>_<op>_hash   the share of the operation's cycles spent hashing (Keccak),
#                                    modelled % beside benchmarks.md's (in percentage points)
#   pqm4_within_1pct                 how many m4fspeed/m4fstack operations are within 1 % (of 12)
#   pqm4_clean_within_3pct           how many ML-KEM-768 clean operations are within 3 % (of 3)
# This repository holds neither pqm4's sources nor a way to build them (docs/cycle-model.md
# "Against silicon" names the commit and the command): build the ELFs with pqm4's own
# instructions and point PQM4_ELF_DIR at pqm4's elf/ folder. Without it the benchmark says how
# on stderr and prints nothing else.
# PQM4_SIM_OPTS: more bench-sim options for every run (e.g. --unaligned).
# Usage: PQM4_ELF_DIR=DIR bash perf/bench_pqm4.sh BUILD_DIR
set -euo pipefail
build=${1:?usage: bench_pqm4.sh BUILD_DIR}
dir=${PQM4_ELF_DIR:-}
commit=cc2c1b992b602d285bd15991a566d5f17b34c1fa
if [[ -z "$dir" ]]; then
  cat >&2 <<EOF
bench_pqm4: not run: set PQM4_ELF_DIR to pqm4's elf/ folder, built with pqm4's own instructions:
  git clone --recursive https://github.com/mupq/pqm4.git && cd pqm4 && git checkout $commit
  git submodule update --init --recursive   # libopencm3 1f3abd4, mupq ddcccedb
  make -j2 PLATFORM=stm32f4discovery \\
    \$(for s in crypto_kem_ml-kem-512_m4fspeed crypto_kem_ml-kem-512_m4fstack crypto_kem_ml-kem-768_m4fspeed \\
        crypto_kem_ml-kem-768_m4fstack mupq_pqclean_crypto_kem_ml-kem-768_clean; do
        echo elf/\${s}_speed.elf elf/\${s}_hashing.elf; done)
  PQM4_ELF_DIR=\$PWD/elf bash perf/bench_pqm4.sh BUILD_DIR   (docs/cycle-model.md "Against silicon")
EOF
  exit 0
fi
sim=$build/bench-sim
if [[ ! -x "$sim" ]]; then
  echo "bench_pqm4: $sim missing: build first (bash scripts/build.sh)" >&2
  exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# benchmarks.md at pqm4 $commit: "Speed Evaluation", "Key Encapsulation Schemes", AVG / MIN / MAX
# of 10 executions in cycles for key generation, encapsulation, decapsulation; then "Hashing
# Evaluation", the share of each in % (hash cycles over cycles, from the _hashing builds).
# name             ELF stem (elf/<stem>_speed.elf)              line  keypair (avg min max)    encaps                      decaps                      hash line  hash %
silicon="ml-kem-512_m4fspeed crypto_kem_ml-kem-512_m4fspeed 16 392423 392211 392614 390881 390671 391073 428167 427955 428357 306 75.5 73.5 67.1
ml-kem-512_m4fstack crypto_kem_ml-kem-512_m4fstack 17 392224 391772 392541 392864 392407 393181 430202 429745 430519 307 75.6 73.2 66.9
ml-kem-768_m4fspeed crypto_kem_ml-kem-768_m4fspeed 19 642096 639116 651103 658754 655785 667769 707827 704858 716842 309 74.5 74.4 69.2
ml-kem-768_m4fstack crypto_kem_ml-kem-768_m4fstack 20 644195 640433 652374 664654 660893 672834 714194 710433 722374 310 74.4 73.9 68.7
ml-kem-768_clean mupq_pqclean_crypto_kem_ml-kem-768_clean 18 988722 985880 998135 1138225 1135419 1147634 1387984 1385144 1397397 308 48.5 43.2 35.4"

# Runs ELF $1 to pqm4's end mark; its UART lines (without the `uart: ` prefix) into $2.
run_elf() {
  local elf=$1 out=$2 status=0
  if [[ ! -f "$elf" ]]; then
    echo "bench_pqm4: no $elf: build it in pqm4 (see PQM4_ELF_DIR above)" >&2
    return 1
  fi
  # 2e9 cycles: ML-KEM-768 clean's speed test takes about 4e6.
  # shellcheck disable=SC2086 # PQM4_SIM_OPTS: options split at spaces
  "$sim" --elf "$elf" --standalone --until-uart '#' --max-cycles 2000000000 ${PQM4_SIM_OPTS:-} >"$tmp/raw" 2>"$tmp/err" || status=$?
  if [[ $status -ne 0 ]] || ! grep -q '^uart: #$' "$tmp/raw"; then
    echo "bench_pqm4: $elf did not reach pqm4's end mark (bench-sim exit $status): $(tail -n1 "$tmp/raw")" >&2
    return 1
  fi
  sed -n 's/^uart: //p' "$tmp/raw" >"$out"
}

# The count printed after the line "$2" in file $1 (send_unsignedll prints the label, then the
# number on its own line).
count_after() {
  awk -v label="$2" 'found { print; exit } $0 == label { found = 1 }' "$1"
}

status=0
within1=0
n1=0
within3=0
n3=0
while read -r name stem line k kmin kmax e emin emax d dmin dmax hline hk he hd; do
  impl=${name#*_}
  if ! run_elf "$dir/${stem}_speed.elf" "$tmp/speed"; then
    status=1
    continue
  fi
  hashed=1
  run_elf "$dir/${stem}_hashing.elf" "$tmp/hash" || { hashed=0; status=1; }
  for op in keypair encaps decaps; do
    case $op in
      keypair) avg=$k lo=$kmin hi=$kmax pct=$hk ;;
      encaps) avg=$e lo=$emin hi=$emax pct=$he ;;
      decaps) avg=$d lo=$dmin hi=$dmax pct=$hd ;;
    esac
    cyc=$(count_after "$tmp/speed" "$op cycles:")
    if [[ -z "$cyc" ]]; then
      echo "bench_pqm4: no \"$op cycles:\" in ${stem}_speed.elf's output" >&2
      status=1
      continue
    fi
    ratio=$(python3 -c "print(f'{$cyc / $avg:.4f}')")
    if [[ $impl == clean ]]; then tol=300 target=0.97..1.03; else tol=100 target=0.99..1.01; fi
    inrange=$( ((cyc >= lo && cyc <= hi)) && echo yes || echo no)
    echo "figure: pqm4_${name}_$op value=$ratio unit=modelled/silicon baseline=$avg ratio=$ratio target=$target ($cyc cycles; benchmarks.md line $line at pqm4 ${commit:0:7}: AVG $avg, MIN..MAX $lo..$hi, inside: $inrange)"
    ok=$(python3 -c "print(1 if abs(round($cyc / $avg * 10000) - 10000) <= $tol else 0)")
    if [[ $impl == clean ]]; then
      n3=$((n3 + 1)) within3=$((within3 + ok))
    else
      n1=$((n1 + 1)) within1=$((within1 + ok))
    fi
    if ((hashed)); then
      hc=$(count_after "$tmp/hash" "$op cycles:")
      hh=$(count_after "$tmp/hash" "$op hash cycles:")
      if [[ -n "$hc" && -n "$hh" ]]; then
        share=$(python3 -c "print(f'{100 * $hh / $hc:.1f}')")
        echo "figure: pqm4_${name}_${op}_hash value=$share unit=% baseline=$pct ratio=$(python3 -c "print(f'{$share / $pct:.3f}')") target=$pct+-1.0 (hash $hh of $hc cycles in ${stem}_hashing.elf; benchmarks.md line $hline)"
      else
        echo "bench_pqm4: no \"$op hash cycles:\" in ${stem}_hashing.elf's output" >&2
        status=1
      fi
    fi
  done
done <<<"$silicon"
if ((n1 > 0)); then
  echo "figure: pqm4_within_1pct value=$within1 unit=operations baseline=$n1 ratio=$(python3 -c "print(f'{$within1 / $n1:.3f}')") target=$n1 (ML-KEM-512/768 m4fspeed and m4fstack, each within 0.99..1.01 on the printed ratio)"
fi
if ((n3 > 0)); then
  echo "figure: pqm4_clean_within_3pct value=$within3 unit=operations baseline=$n3 ratio=$(python3 -c "print(f'{$within3 / $n3:.3f}')") target=$n3 (ML-KEM-768 clean, each within 0.97..1.03)"
fi
exit $status
