/* The scripted backend and loop rig of the marker loop's unit tests (loop_rig.h). */
#include "loop_rig.h"

#include <setjmp.h>
#include <stdarg.h>
#include <string.h>

#include <cmocka.h>

#include "base/le.h"
#include "bench_abi.h"

static struct script *S(struct backend *bk)
{
	return bk->priv;
}

static int s_resume_sample(struct backend *bk, unsigned timeout_ms, uint32_t addr, struct backend_halt_info *out,
                           uint32_t *sample, struct bench_error *err)
{
	struct script *s = S(bk);
	const struct step *st;

	(void)timeout_ms;
	assert_int_equal(addr, 0xE0001004u); /* DWT_CYCCNT, from the counter table */
	if (s->next >= s->n)
		return bench_fail(err, BENCH_E_TIMEOUT, "script ran out");
	st = &s->steps[s->next++];
	if (st->kind == STEP_TIMEOUT)
		return bench_fail(err, BENCH_E_TIMEOUT, "still running");
	if (st->kind == STEP_LOST)
		return bench_fail(err, BENCH_E_CONNECT, "connection to OpenOCD lost (scripted)");
	s->fw_resets += st->reset;
	out->reason = BK_HALT_BKPT_INSN;
	out->pc = st->pc;
	*sample = st->count;
	return 0;
}

int s_wait_halt(struct backend *bk, unsigned timeout_ms, struct backend_halt_info *out, struct bench_error *err)
{
	uint32_t ignored;

	return s_resume_sample(bk, timeout_ms, 0xE0001004u, out, &ignored, err);
}

int s_read_mem(struct backend *bk, uint32_t addr, void *buf, size_t len, struct bench_error *err)
{
	struct script *s = S(bk);

	(void)err;
	memset(buf, 0, len);
	if (addr >= RAM_BASE && addr + len <= RAM_BASE + RAM_SIZE)
		memcpy(buf, s->ram + (addr - RAM_BASE), len);
	else if (addr == 0xE0001000u && len == 4)
		le_put32(buf, s->dwt_ctrl);
	else if (addr == 0xE0001000u && len == 16) { /* CTRL, CYCCNT, CPICNT, EXCCNT (loop_check.c) */
		le_put32(buf, s->dwt_ctrl);
		le_put32((uint8_t *)buf + 12, s->exccnt[s->dwt_reads++ % 4]);
	} else if (addr == 0xE000EDFCu && len == 4)
		le_put32(buf, s->demcr);
	return 0;
}

int s_write_mem(struct backend *bk, uint32_t addr, const void *buf, size_t len, struct bench_error *err)
{
	struct script *s = S(bk);

	(void)err;
	if (addr >= RAM_BASE && addr + len <= RAM_BASE + RAM_SIZE)
		memcpy(s->ram + (addr - RAM_BASE), buf, len);
	s->in_writes += addr == IN_ADDR;
	return 0;
}

int s_read_reg(struct backend *bk, enum backend_reg reg, uint32_t *v, struct bench_error *err)
{
	(void)bk;
	(void)err;
	*v = reg == BK_REG_PC ? A_NOT_A_MARKER : 0; /* xPSR 0: thread mode, no fault */
	return 0;
}

int s_reset(struct backend *bk, enum backend_reset mode, struct bench_error *err)
{
	(void)mode;
	(void)err;
	S(bk)->resets++;
	return 0;
}

int s_halt(struct backend *bk, struct bench_error *err)
{
	(void)bk;
	(void)err;
	return 0;
}

static const struct backend_ops scripted_ops = {
    .name = "scripted",
    .halt = s_halt,
    .wait_halt = s_wait_halt,
    .read_mem = s_read_mem,
    .write_mem = s_write_mem,
    .read_reg = s_read_reg,
    .reset = s_reset,
    .resume_sample = s_resume_sample,
};

static bool h_cancelled(void *ctx)
{
	struct script *s = ctx;

	return s->cancel_after && ++s->cancel_calls >= s->cancel_after;
}

static int h_children(void *ctx, struct bench_error *err)
{
	struct script *s = ctx;

	return s->children_dead
	           ? bench_fail(err, BENCH_E_CONNECT, "the virtual board (bench-sim) stopped mid-run (scripted)")
	           : 0;
}

int h_wide(void *ctx, uint64_t *cycles, uint64_t *exceptions, struct bench_error *err)
{
	struct script *s = ctx;

	(void)err;
	*exceptions = s->wide_exc[s->wide_calls % 4];
	*cycles = s->wide[s->wide_calls++ % 4];
	return 0;
}

/* bench-sim's whole `stats` answer: the wide clock by call, and the reset count. */
int h_stats(void *ctx, uint64_t *cycles, uint64_t *exceptions, uint64_t *resets, struct bench_error *err)
{
	struct script *s = ctx;

	(void)err;
	*cycles = s->stats_from_count ? 5000u + (s->next ? s->steps[s->next - 1].count : 0u)
	                              : s->stats_wide[s->stats_calls % 8];
	*exceptions = s->stats_exc[s->stats_calls++ % 8];
	*resets = s->resets + s->fw_resets;
	return 0;
}

/* The board's reset count (bench-sim's `stats` resets=): bench's own resets and the firmware's. */
int h_resets(void *ctx, uint64_t *count, struct bench_error *err)
{
	struct script *s = ctx;

	(void)err;
	*count = s->resets + s->fw_resets;
	return 0;
}

static struct marker fw_markers[] = {
    {A_CAL_BEGIN, MARKER_CAL_BEGIN, 0, "cal"},
    {A_CAL_END, MARKER_CAL_END, 0, "cal"},
    {A_SYNC, MARKER_SYNC, 0, "sync"},
    {A_BEGIN, MARKER_BEGIN, 1, "fut"},
    {A_END, MARKER_END, 1, "fut"},
    {A_OUTER_BEGIN, MARKER_BEGIN, 2, "outer"},
    {A_OUTER_END, MARKER_END, 2, "outer"},
    {A_DONE, MARKER_DONE, 0, "done"},
};

void rig_init(struct rig *r, const struct step *steps, size_t n, bool sync)
{
	memset(r, 0, sizeof(*r));
	r->s.steps = steps;
	r->s.n = n;
	r->s.dwt_ctrl = 1;     /* CYCCNTENA */
	r->s.demcr = 1u << 24; /* TRCENA */
	le_put32(r->s.ram + (CTL_ADDR - RAM_BASE) + BENCH_CTL_OFF_MAGIC, BENCH_CTL_MAGIC);
	r->o.repeat = 1;
	r->o.timeout_ms = 30;
	r->o.no_regions = true;
	r->elf.markers.v = fw_markers;
	r->elf.markers.n = sizeof(fw_markers) / sizeof(fw_markers[0]);
	r->cfg.o = &r->o;
	r->cfg.elf = &r->elf;
	r->cfg.mode = LOOP_MODE_MARKERS;
	r->cfg.has_sync = sync;
	r->cfg.has_ctl = true;
	r->cfg.ctl_addr = CTL_ADDR;
	r->cfg.counter = counters_find("DWT_CYCCNT");
	r->cfg.counter_addr = 0xE0001004u;
	r->cfg.preloaded = true;
	r->hooks = (struct loop_hooks){.ctx = &r->s, .cancelled = h_cancelled, .children_alive = h_children};
	r->bk = (struct backend){.ops = &scripted_ops, .caps = BK_CAP_HALT_ON_BKPT | BK_CAP_CYCCNT, .priv = &r->s};
	results_init(&r->rep);
}

/* One input, `--arg input=V`, a 4-byte variable at IN_ADDR. */
void rig_one_input(struct rig *r, int64_t v)
{
	r->sweep[0] = v;
	strcpy(r->o.sweeps[0].name, "input");
	r->o.sweeps[0].values = r->sweep;
	r->o.sweeps[0].n = 1;
	r->o.n_sweeps = 1;
	r->cfg.input_addr[0] = IN_ADDR;
	r->cfg.input_size[0] = 4;
}

int rig_run(struct rig *r)
{
	return loop_run(&r->loop, &r->cfg, &r->hooks, &r->bk, &r->rep, NULL, &r->err);
}

const struct bench_result *result(const struct rig *r, const char *name, size_t i)
{
	size_t seen = 0;

	for (size_t k = 0; k < r->rep.n_results; k++)
		if (!strcmp(r->rep.results[k].name, name) && seen++ == i)
			return &r->rep.results[k];
	fail_msg("no result %s #%zu", name, i);
	return NULL;
}
