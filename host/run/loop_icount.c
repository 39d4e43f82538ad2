/* --icount: instructions between markers from QEMU, a figure of its own beside the cycles (which
 * QEMU does not have). QEMU runs with -icount shift=0,rr=record (host/session/qemu_proc.c): record/
 * replay counts every executed instruction, and the HMP command `info replay` prints it as
 * "Recording execution 'FILE': instruction count = N" (QEMU replay/replay-debugging.c
 * hmp_info_replay). At a breakpoint halt the instruction there has not run, so END - BEGIN counts
 * what ran from the BEGIN halt's address through the last instruction before END.
 *
 * One definition on every core (docs/gdb.md): the instructions executed after the BEGIN marker and
 * before the END marker, the marker instructions themselves not counted. A Cortex-M BKPT marker
 * never runs (the loop moves the PC past it), so END - BEGIN is that figure already (nops.elf's nop1:
 * 1). A TriCore DEBUG16 marker runs as a no-op when resumed from its breakpoint (markers_are_nops)
 * and QEMU counts it: one instruction is taken off (the 1000-pass test loop: 2000, not 2001). With
 * --start/--stop there is no marker instruction: the instruction at the start label is code under
 * test and counted on both cores. These are instructions, never cycles: the result is
 * "<pair> [icount]" in unit "instructions". */
#include "run/loop_icount.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/str.h"

int loop_icount_read(struct loop *c, uint64_t *count)
{
	char out[256];
	const char *at;
	char *end;
	int rc = backend_monitor(c->bk, "info replay", out, sizeof(out), c->err);

	if (rc)
		return rc;
	at = strstr(out, "instruction count = ");
	if (!at)
		return bench_fail(c->err, BENCH_E_PROTOCOL,
		                  "QEMU did not report an instruction count (\"info replay\" said \"%.80s\"): --icount "
		                  "needs QEMU with record/replay",
		                  out);
	*count = strtoull(at + strlen("instruction count = "), &end, 10);
	if (end == at + strlen("instruction count = "))
		return bench_fail(c->err, BENCH_E_PROTOCOL, "QEMU's instruction count is not a number (\"%.80s\")", at);
	return 0;
}

int loop_icount_sample(struct loop *c, const char *name, uint64_t begin, uint64_t end)
{
	char label[BENCH_NAME_MAX];
	struct bench_result *res;

	if (c->cur_warm)
		return 0;
	str_fmt_cut(label, sizeof(label), "%.*s [icount]", BENCH_NAME_MAX - 10, name);
	res = results_get(c->rep, label, c->cur_args, c->n_cur_args);
	if (!res)
		return bench_fail(c->err, BENCH_E_NOMEM, "out of memory storing instruction counts");
	memcpy(res->unit, "instructions", sizeof("instructions")); /* unit[16] */
	/* the BEGIN marker's DEBUG16, executed as a no-op: not part of the code under test */
	uint64_t marker = c->mode == LOOP_MODE_BP_MARKERS && c->cfg->markers_are_nops ? 1 : 0;

	if (end < begin + marker)
		return bench_fail(c->err, BENCH_E_TARGET,
		                  "QEMU's instruction count went back between BEGIN and END of %s (%" PRIu64
		                  " -> %" PRIu64 "): the machine was reset inside the pair",
		                  name, begin, end);
	if (results_add_sample(res, (int64_t)(end - begin - marker), 0))
		return bench_fail(c->err, BENCH_E_NOMEM, "out of memory storing instruction counts");
	return 0;
}
