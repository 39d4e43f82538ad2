#!/usr/bin/env bash
# End-to-end on the virtual board through stock OpenOCD (issue 6's Must-shows):
#  - a real pair of reports of one firmware (sled.elf: 50 NOPs, then 55): compare exits 1 with the
#    exact +5 cycles / +10.00% row, 0 the other way round and against itself;
#  - fut-hardfp vs fut-softfp: refused as different firmware (2), compared when allowed;
#  - a farm of two virtual boards run in parallel, one combined report;
#  - a firmware whose every sample is interrupted: no gate passes on it (issue 26);
#  - --json /dev/stdout and >(cmd), a firmware path that is not UTF-8: valid outputs (issue 26).
# argv: BENCH BUILD_DIR. Exit 77 (skipped) while bench-sim is not built; 1 under CI=true (tests/lib/skip.sh).
set -euo pipefail
bench=$1
build=$2
here=$(cd "$(dirname "$0")" && pwd)
fw=$build/tests/firmware/ci
ex=$build/examples/sim-stm32f4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export TMPDIR=$tmp # the logs a failed run keeps go with the test's own files
fail() { echo "FAIL: $*"; exit 1; }
. "$here/../lib/skip.sh"
[[ -x $build/sim/bench-sim || -x $build/bench-sim || -n "${BENCH_SIM:-}" ]] || bench_skip "bench-sim not built"

# jq-free JSON checks: python3 reads the report and prints what the test compares.
field() { python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }
run() { # name, then bench run arguments
  local name=$1; shift
  "$bench" run "$@" --quiet --no-progress --json "$tmp/$name.json" >"$tmp/$name.out" 2>"$tmp/$name.err" ||
    fail "bench run $name: exit $?: $(cat "$tmp/$name.err")"
}

run base "$fw/base/sled.elf" --repeat 3
run new "$fw/new/sled.elf" --repeat 3
[[ $(field "$tmp/base.json" "[r['samples'] for r in r['results']]") == "[[50, 50, 50]]" ]] ||
  fail "base sled: $(field "$tmp/base.json" "r['results']")"
[[ $(field "$tmp/new.json" "[r['samples'] for r in r['results']]") == "[[55, 55, 55]]" ]] ||
  fail "new sled: $(field "$tmp/new.json" "r['results']")"

set +e
"$bench" compare "$tmp/base.json" "$tmp/new.json" >"$tmp/cmp.out" 2>"$tmp/cmp.err"; rc=$?
set -e
[[ $rc -eq 1 ]] || fail "compare base new: exit $rc, expected 1"
grep -qx 'sled    50.0  55.0    +5.0   +10.00%              REGRESSED' "$tmp/cmp.out" || fail "compare row: $(cat "$tmp/cmp.out")"
[[ $(cat "$tmp/cmp.err") == "bench: 1 regression beyond 1%" ]] || fail "compare stderr: $(cat "$tmp/cmp.err")"
"$bench" compare "$tmp/new.json" "$tmp/base.json" >"$tmp/cmp2.out" || fail "compare new base: exit $?, expected 0"
grep -q 'improved$' "$tmp/cmp2.out" || fail "compare new base: $(cat "$tmp/cmp2.out")"
"$bench" compare "$tmp/base.json" "$tmp/base.json" >/dev/null || fail "compare base base: exit $?, expected 0"
"$bench" compare "$tmp/base.json" "$tmp/new.json" --threshold 10% >/dev/null || fail "10% is within --threshold 10%"

# --max-cycles on bench run: the JUnit case fails above the budget and the run exits 1; at the budget, 0.
set +e
"$bench" run "$fw/base/sled.elf" --repeat 2 --no-progress --format junit --max-cycles sled=49 >"$tmp/j.xml" 2>"$tmp/j.err"; rc=$?
set -e
[[ $rc -eq 1 ]] || fail "--max-cycles sled=49: exit $rc, expected 1: $(cat "$tmp/j.err")"
grep -q '<failure type="max-cycles" message="max 50 cycles &gt; limit 49"/>' "$tmp/j.xml" || fail "junit: $(cat "$tmp/j.xml")"
"$bench" run "$fw/base/sled.elf" --repeat 2 --quiet --no-progress --max-cycles sled=50 || fail "--max-cycles sled=50: exit $?"

# No gate passes on nothing (issue 26): pendsv/sled.elf pends PendSV inside every stretch, so
# every sample is interrupted and none counts. The budget fails (exit 1) with the reason, the JUnit
# case fails, the JSON result's error says why, and compare does not call the pair "same".
set +e
"$bench" run "$fw/pendsv/sled.elf" --repeat 3 --no-progress --format junit --max-cycles sled=1000 \
  --json "$tmp/irq.json" >"$tmp/irq.xml" 2>"$tmp/irq.err"; rc=$?
set -e
[[ $rc -eq 1 ]] || fail "every sample interrupted, --max-cycles sled=1000: exit $rc, expected 1: $(cat "$tmp/irq.err")"
why='no sample counts: all 3 took an exception inside the stretch ("interrupted") and are left out; --mask-irqs keeps interrupts out, --keep-interrupted counts them'
grep -qxF "bench: 1 result with no sample to check against --max-cycles (sled: $why)" "$tmp/irq.err" ||
  fail "--max-cycles stderr: $(cat "$tmp/irq.err")"
grep -qF '<failure type="max-cycles" message="no sample to check against limit 1000: no sample counts: all 3' "$tmp/irq.xml" ||
  fail "junit: $(cat "$tmp/irq.xml")"
[[ $(field "$tmp/irq.json" "[(x['n'], x['interrupted'], x['error']) for x in r['results']]") == "[(0, [0, 1, 2], '$why')]" ]] ||
  fail "interrupted JSON: $(field "$tmp/irq.json" "r['results']")"
# Without a gate, too: nothing counts is exit 5 with the reason, status "incomplete", the report kept.
set +e
"$bench" run "$fw/pendsv/sled.elf" --repeat 3 --quiet --no-progress --json "$tmp/irqn.json" 2>"$tmp/irqn.err"; rc=$?
set -e
[[ $rc -eq 5 ]] || fail "every sample interrupted, no gate: exit $rc, expected 5: $(cat "$tmp/irqn.err")"
[[ $(cat "$tmp/irqn.err") == "bench: sled: $why" ]] || fail "no gate, stderr: $(cat "$tmp/irqn.err")"
[[ $(field "$tmp/irqn.json" "(r['status'], r['status_detail'], r['results'][0]['interrupted'])") == "('incomplete', 'target', [0, 1, 2])" ]] ||
  fail "no gate, JSON: $(field "$tmp/irqn.json" "(r['status'], r['error'])")"
# Such a report is incomplete: compare refuses it (exit 2) rather than call two empty sides "same"
# (the UNMEASURED verdict of a complete report is tests/ci/test_compare.c's).
set +e
"$bench" compare "$tmp/irq.json" "$tmp/irq.json" >"$tmp/irqc.out" 2>"$tmp/irqc.err"; rc=$?
set -e
[[ $rc -eq 2 ]] || fail "compare of two empty sides: exit $rc, expected 2: $(cat "$tmp/irqc.err")"
grep -qF 'is a run that did not finish (status incomplete: sled: no sample counts: all 3' "$tmp/irqc.err" ||
  fail "compare empty sides: $(cat "$tmp/irqc.err")"

# Outputs (issue 26, class 7). --json /dev/stdout is --json -: stdout is that one JSON document,
# whether it is a pipe or a file; a shell's >(cmd) (/dev/fd/63, a link to a pipe) is written through.
"$bench" run "$fw/base/sled.elf" --repeat 2 --no-progress --json /dev/stdout >"$tmp/so.json" 2>"$tmp/so.err" ||
  fail "--json /dev/stdout into a file: exit $?: $(cat "$tmp/so.err")"
[[ $(field "$tmp/so.json" "r['results'][0]['samples']") == "[50, 50]" ]] || fail "--json /dev/stdout: $(head -c 300 "$tmp/so.json")"
"$bench" run "$fw/base/sled.elf" --repeat 2 --no-progress --json /dev/stdout 2>"$tmp/sp.err" | cat >"$tmp/sp.json"
[[ $(field "$tmp/sp.json" "r['results'][0]['samples']") == "[50, 50]" ]] || fail "--json /dev/stdout | cat: $(cat "$tmp/sp.err")"
"$bench" run "$fw/base/sled.elf" --repeat 2 --quiet --no-progress --json >(cat >"$tmp/ps.json") 2>"$tmp/ps.err" ||
  fail "--json >(cat): exit $?: $(cat "$tmp/ps.err")"
wait $! # the process substitution's cat (bash 4.4: $! is its pid)
[[ $(field "$tmp/ps.json" "r['results'][0]['samples']") == "[50, 50]" ]] || fail "--json >(cat): $(cat "$tmp/ps.json")"
# --json naming the work dir's own lock file: refused before the run (a24bc0b renamed the report over
# the lock, 995 bytes of JSON where the pid was).
mkdir "$tmp/wd"
set +e
"$bench" run "$fw/base/sled.elf" --work-dir "$tmp/wd" --quiet --no-progress --json "$tmp/wd/bench.lock" 2>"$tmp/lk.err"; rc=$?
set -e
[[ $rc -eq 2 && ! -e "$tmp/wd/bench.lock" ]] || fail "--json WORKDIR/bench.lock: exit $rc: $(cat "$tmp/lk.err")"
# A firmware path with a byte that is not UTF-8 (0xff) and a control byte (0x1a): the run works and
# the JSON, JUnit XML and HTML stay valid (U+FFFD for the bad byte; \u001a in JSON, a space in XML).
odd=$tmp/$'sl\xff\x1aed.elf'
cp "$fw/base/sled.elf" "$odd"
"$bench" run "$odd" --repeat 2 --no-progress --format junit --json "$tmp/odd.json" >"$tmp/odd.xml" 2>"$tmp/odd.err" ||
  fail "odd firmware name: exit $?: $(cat "$tmp/odd.err")"
"$bench" report "$tmp/odd.json" --html "$tmp/odd.html" || fail "odd firmware name: report --html: exit $?"
python3 - "$tmp/odd.json" "$tmp/odd.xml" "$tmp/odd.html" <<'PY' || fail "odd firmware name: an output is not valid"
import html.parser, json, sys, xml.dom.minidom
r = json.load(open(sys.argv[1], encoding="utf-8"))  # strict UTF-8: a raw 0xff fails here
assert r["context"]["firmware"].endswith("/sl\ufffd\x1aed.elf"), repr(r["context"]["firmware"])
xml.dom.minidom.parse(sys.argv[2])  # expat: a raw 0xff or 0x1a is not well-formed
page = open(sys.argv[3], "rb").read()
text = page.decode("utf-8")
assert "sl\ufffd ed.elf" in text and "\x1a" not in text, "html"
html.parser.HTMLParser().feed(text)
PY

run hard "$ex/fut-hardfp.elf" --arg input=0:1000:250 --repeat 2
run soft "$ex/fut-softfp.elf" --arg input=0:1000:250 --repeat 2
set +e
"$bench" compare "$tmp/hard.json" "$tmp/soft.json" >/dev/null 2>"$tmp/fw.err"; rc=$?
set -e
[[ $rc -eq 2 ]] || fail "hardfp vs softfp: exit $rc, expected 2"
grep -q "measured firmware 'fut-hardfp.elf' but .* measured 'fut-softfp.elf'" "$tmp/fw.err" || fail "$(cat "$tmp/fw.err")"
set +e
"$bench" compare "$tmp/hard.json" "$tmp/soft.json" --allow-different-firmware >"$tmp/hs.out" 2>"$tmp/hs.err"; rc=$?
set -e
[[ $rc -eq 1 ]] || fail "soft-float should be slower than hard-float: exit $rc: $(cat "$tmp/hs.out")"
"$bench" report "$tmp/hard.json" "$tmp/soft.json" --html "$tmp/fut.html" || fail "report --html: exit $?"

# A farm of two virtual boards, in parallel, one report.
"$bench" run --farm "$here/fixtures/farm/two-virtual.farm" "$ex/fut-hardfp.elf" --arg input=0:1000:500 --repeat 2 \
  --quiet --no-progress --json "$tmp/farm.json" 2>"$tmp/farm.err" || fail "farm: exit $?: $(cat "$tmp/farm.err")"
[[ $(field "$tmp/farm.json" "sorted(set(x['name'] for x in r['results']))") == "['sim-a/fut', 'sim-b/fut']" ]] ||
  fail "farm names: $(field "$tmp/farm.json" "[x['name'] for x in r['results']]")"
[[ $(field "$tmp/farm.json" "len(r['results'])") == 6 ]] || fail "farm: expected 2 boards x 3 inputs"
[[ $(field "$tmp/farm.json" "(r['status'], r['context']['board'], r['context']['probe'])") == "('ok', 'farm', 'virtual,virtual')" ]] ||
  fail "farm context: $(field "$tmp/farm.json" "r['context']")"
[[ $(field "$tmp/farm.json" "[x['samples'] for x in r['results'] if x['name']=='sim-a/fut'] == [x['samples'] for x in r['results'] if x['name']=='sim-b/fut']") == True ]] ||
  fail "farm: the two virtual boards disagree"
echo ok
