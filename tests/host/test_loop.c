/* The marker loop (run/loop.c) against a scripted backend, as pyOCD tests its core logic with a mock
 * core: each test lists the halts the "target" makes (PC of a marker site and the counter there),
 * and checks what the loop measured, wrote and reported. The same loop runs against stock OpenOCD on
 * bench-sim in tests/e2e and tests/faults; this test covers the paths a real peer makes hard to hit
 * on purpose (a lost link between two halts, Ctrl-C in a wait, a child that died). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "base/le.h"
#include "bench_abi.h"
#include "firmware/counters.h"
#include "run/loop.h"

/* Marker sites of the scripted firmware (Thumb addresses, 2-byte BKPTs). */
enum {
	A_CAL_BEGIN = 0x08000100,
	A_CAL_END = 0x08000102,
	A_SYNC = 0x08000200,
	A_BEGIN = 0x08000300,
	A_END = 0x08000302,
	A_OUTER_BEGIN = 0x08000400,
	A_OUTER_END = 0x08000402,
	A_DONE = 0x08000500,
	A_NOT_A_MARKER = 0x08000999,
};
#define RAM_BASE 0x20000000u
#define RAM_SIZE 0x100u
#define CTL_ADDR (RAM_BASE + 0x10u)
#define IN_ADDR  (RAM_BASE + 0x40u)

/* What the scripted target does next when resumed. */
enum step_kind { STEP_HALT, STEP_TIMEOUT, STEP_LOST };
struct step {
	enum step_kind kind;
	uint32_t pc, count;
	bool reset; /* the firmware reset the core (SYSRESETREQ) before this halt */
};

struct script {
	const struct step *steps;
	size_t n, next;
	uint8_t ram[RAM_SIZE];
	uint32_t dwt_ctrl;
	unsigned resets, cancel_after, cancel_calls, wide_calls;
	bool children_dead;
	uint64_t wide[4];
	uint64_t wide_exc[4]; /* the wide clock's exception count, per call like wide[] */
	uint32_t demcr;       /* DEMCR as read (rig_init: TRCENA set) */
	uint8_t exccnt[4];    /* DWT_EXCCNT at successive DWT block reads */
	unsigned dwt_reads;
	unsigned in_writes;   /* writes to the input at IN_ADDR */
	unsigned fw_resets;   /* resets the firmware made (step.reset), on top of bench's own */
	unsigned stats_calls; /* board_stats answers, one a halt (stats_wide[], stats_exc[] by call) */
	uint64_t stats_wide[8], stats_exc[8];
	bool stats_from_count; /* board_stats's clock: the count of the step that halted, plus 5000 */
};

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

static int s_wait_halt(struct backend *bk, unsigned timeout_ms, struct backend_halt_info *out, struct bench_error *err)
{
	uint32_t ignored;

	return s_resume_sample(bk, timeout_ms, 0xE0001004u, out, &ignored, err);
}

static int s_read_mem(struct backend *bk, uint32_t addr, void *buf, size_t len, struct bench_error *err)
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

static int s_write_mem(struct backend *bk, uint32_t addr, const void *buf, size_t len, struct bench_error *err)
{
	struct script *s = S(bk);

	(void)err;
	if (addr >= RAM_BASE && addr + len <= RAM_BASE + RAM_SIZE)
		memcpy(s->ram + (addr - RAM_BASE), buf, len);
	s->in_writes += addr == IN_ADDR;
	return 0;
}

static int s_read_reg(struct backend *bk, enum backend_reg reg, uint32_t *v, struct bench_error *err)
{
	(void)bk;
	(void)err;
	*v = reg == BK_REG_PC ? A_NOT_A_MARKER : 0; /* xPSR 0: thread mode, no fault */
	return 0;
}

static int s_reset(struct backend *bk, enum backend_reset mode, struct bench_error *err)
{
	(void)mode;
	(void)err;
	S(bk)->resets++;
	return 0;
}

static int s_halt(struct backend *bk, struct bench_error *err)
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

static int h_wide(void *ctx, uint64_t *cycles, uint64_t *exceptions, struct bench_error *err)
{
	struct script *s = ctx;

	(void)err;
	*exceptions = s->wide_exc[s->wide_calls % 4];
	*cycles = s->wide[s->wide_calls++ % 4];
	return 0;
}

/* bench-sim's whole `stats` answer: the wide clock by call, and the reset count. */
static int h_stats(void *ctx, uint64_t *cycles, uint64_t *exceptions, uint64_t *resets, struct bench_error *err)
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
static int h_resets(void *ctx, uint64_t *count, struct bench_error *err)
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

/* One run of the loop over a script. */
struct rig {
	struct script s;
	struct loop_opts o;
	struct elf_file elf;
	struct loop_config cfg;
	struct loop_hooks hooks;
	struct backend bk;
	struct bench_report rep;
	struct bench_error err;
	struct loop loop;
	int64_t sweep[2];
};

static void rig_init(struct rig *r, const struct step *steps, size_t n, bool sync)
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
static void rig_one_input(struct rig *r, int64_t v)
{
	r->sweep[0] = v;
	strcpy(r->o.sweeps[0].name, "input");
	r->o.sweeps[0].values = r->sweep;
	r->o.sweeps[0].n = 1;
	r->o.n_sweeps = 1;
	r->cfg.input_addr[0] = IN_ADDR;
	r->cfg.input_size[0] = 4;
}

static int rig_run(struct rig *r)
{
	return loop_run(&r->loop, &r->cfg, &r->hooks, &r->bk, &r->rep, NULL, &r->err);
}

#define HALT(pc, n)                                                                                                    \
	{                                                                                                              \
		STEP_HALT, (pc), (n), false                                                                            \
	}
/* A halt the core reaches after the firmware reset it (no bench_init(): no calibration shows it). */
#define HALT_AFTER_RESET(pc, n)                                                                                        \
	{                                                                                                              \
		STEP_HALT, (pc), (n), true                                                                             \
	}

static const struct bench_result *result(const struct rig *r, const char *name, size_t i)
{
	size_t seen = 0;

	for (size_t k = 0; k < r->rep.n_results; k++)
		if (!strcmp(r->rep.results[k].name, name) && seen++ == i)
			return &r->rep.results[k];
	fail_msg("no result %s #%zu", name, i);
	return NULL;
}

/* CAL_BEGIN/CAL_END give the overhead, subtracted from the BEGIN/END difference. */
static void test_calibration(void **state)
{
	static const struct step steps[] = {HALT(A_CAL_BEGIN, 100), HALT(A_CAL_END, 103), HALT(A_BEGIN, 1000),
	                                    HALT(A_END, 1050), HALT(A_DONE, 1100)};
	struct rig r;

	(void)state;
	rig_init(&r, steps, 5, false);
	assert_int_equal(rig_run(&r), 0);
	assert_int_equal(r.loop.overhead, 3);
	assert_int_equal(r.rep.context.overhead_cycles, 3);
	assert_int_equal(r.rep.n_results, 1);
	assert_int_equal(result(&r, "fut", 0)->n_samples, 1);
	assert_int_equal(result(&r, "fut", 0)->samples[0], 47);
	assert_int_equal(r.s.resets, 1);
	results_free(&r.rep);
}

/* The counter wraps between BEGIN and END: the 32-bit difference is still right. */
static void test_wrap_safe_difference(void **state)
{
	static const struct step steps[] = {HALT(A_CAL_BEGIN, 0), HALT(A_CAL_END, 0), HALT(A_BEGIN, 0xFFFFFFF0u),
	                                    HALT(A_END, 0x10), HALT(A_DONE, 0x20)};
	struct rig r;

	(void)state;
	rig_init(&r, steps, 5, false);
	assert_int_equal(rig_run(&r), 0);
	assert_int_equal(result(&r, "fut", 0)->samples[0], 0x20);
	assert_int_equal(result(&r, "fut", 0)->sample_flags[0], 0);
	results_free(&r.rep);
}

/* SYNC halts write each input and bench_ctl (stop, iteration); the last one stops the loop. */
static void test_sync_writes_inputs(void **state)
{
	static const struct step steps[] = {
	    HALT(A_CAL_BEGIN, 0), HALT(A_CAL_END, 2), HALT(A_SYNC, 10), HALT(A_BEGIN, 20), HALT(A_END, 35),
	    HALT(A_SYNC, 40),     HALT(A_BEGIN, 50),  HALT(A_END, 80),  HALT(A_SYNC, 90),  HALT(A_DONE, 95)};
	struct rig r;

	(void)state;
	rig_init(&r, steps, 10, true);
	r.sweep[0] = 5;
	r.sweep[1] = -7;
	strcpy(r.o.sweeps[0].name, "input");
	r.o.sweeps[0].values = r.sweep;
	r.o.sweeps[0].n = 2;
	r.o.n_sweeps = 1;
	r.cfg.input_addr[0] = IN_ADDR;
	r.cfg.input_size[0] = 4;
	assert_int_equal(rig_run(&r), 0);
	assert_int_equal(r.rep.n_results, 2);
	assert_int_equal(r.rep.results[0].args[0].value, 5);
	assert_int_equal(r.rep.results[0].samples[0], 13);
	assert_int_equal(r.rep.results[1].args[0].value, -7);
	assert_int_equal(r.rep.results[1].samples[0], 28);
	/* The last input written, and the stop request with the iteration count. */
	assert_int_equal((int32_t)le_get32(r.s.ram + (IN_ADDR - RAM_BASE)), -7);
	assert_int_equal(le_get32(r.s.ram + (CTL_ADDR - RAM_BASE) + BENCH_CTL_OFF_STOP), 1);
	assert_int_equal(le_get32(r.s.ram + (CTL_ADDR - RAM_BASE) + BENCH_CTL_OFF_ITERATION), 2);
	results_free(&r.rep);
}

/* A pair inside a pair: each END closes its own BEGIN (by id), not the last one. */
static void test_nested_pairs(void **state)
{
	static const struct step steps[] = {HALT(A_CAL_BEGIN, 0), HALT(A_CAL_END, 0), HALT(A_OUTER_BEGIN, 100),
	                                    HALT(A_BEGIN, 110),   HALT(A_END, 150),   HALT(A_OUTER_END, 200),
	                                    HALT(A_DONE, 300)};
	struct rig r;

	(void)state;
	rig_init(&r, steps, 7, false);
	assert_int_equal(rig_run(&r), 0);
	assert_int_equal(result(&r, "fut", 0)->samples[0], 40);
	assert_int_equal(result(&r, "outer", 0)->samples[0], 100);
	results_free(&r.rep);
}

/* END without its BEGIN is the firmware's mistake, said as such. */
static void test_end_without_begin(void **state)
{
	static const struct step steps[] = {HALT(A_CAL_BEGIN, 0), HALT(A_CAL_END, 0), HALT(A_END, 10)};
	struct rig r;

	(void)state;
	rig_init(&r, steps, 3, false);
	assert_int_equal(rig_run(&r), -(int)BENCH_E_TARGET);
	assert_non_null(strstr(r.err.msg, "marker END fut (id 1) reached without its BEGIN"));
	results_free(&r.rep);
}

/* A halt at no marker: the target stopped where it should not have. */
static void test_unexpected_halt(void **state)
{
	static const struct step steps[] = {HALT(A_CAL_BEGIN, 0), HALT(A_NOT_A_MARKER, 5)};
	struct rig r;

	(void)state;
	rig_init(&r, steps, 2, false);
	assert_int_equal(rig_run(&r), -(int)BENCH_E_TARGET);
	assert_non_null(
	    strstr(r.err.msg, "the target halted at 0x08000998, which is no marker (after marker CAL_BEGIN cal)"));
	results_free(&r.rep);
}

/* The target never reaches the next marker: a timeout after --timeout, saying where it is. */
static void test_timeout(void **state)
{
	static const struct step steps[] = {HALT(A_CAL_BEGIN, 0),        {STEP_TIMEOUT, 0, 0, false},
	                                    {STEP_TIMEOUT, 0, 0, false}, {STEP_TIMEOUT, 0, 0, false},
	                                    {STEP_TIMEOUT, 0, 0, false}, {STEP_TIMEOUT, 0, 0, false},
	                                    {STEP_TIMEOUT, 0, 0, false}, {STEP_TIMEOUT, 0, 0, false}};
	struct rig r;

	(void)state;
	rig_init(&r, steps, 8, false);
	assert_int_equal(rig_run(&r), -(int)BENCH_E_TIMEOUT);
	assert_non_null(strstr(r.err.msg, "did not reach the next marker within 30 ms (it is at 0x08000999"));
	results_free(&r.rep);
}

/* The link to the debug server breaks between two halts: the samples taken stay in the report. */
static void test_lost_link(void **state)
{
	static const struct step steps[] = {
	    HALT(A_CAL_BEGIN, 0), HALT(A_CAL_END, 0), HALT(A_BEGIN, 10), HALT(A_END, 20), {STEP_LOST, 0, 0, false}};
	struct rig r;

	(void)state;
	rig_init(&r, steps, 5, false);
	assert_int_equal(rig_run(&r), -(int)BENCH_E_CONNECT);
	assert_int_equal(r.loop.samples_taken, 1);
	assert_int_equal(result(&r, "fut", 0)->samples[0], 10);
	results_free(&r.rep);
}

/* Ctrl-C while the target runs: interrupted, with the count of samples kept. */
static void test_interrupt(void **state)
{
	static const struct step steps[] = {HALT(A_CAL_BEGIN, 0),        HALT(A_CAL_END, 0),
	                                    HALT(A_BEGIN, 10),           HALT(A_END, 20),
	                                    {STEP_TIMEOUT, 0, 0, false}, {STEP_TIMEOUT, 0, 0, false}};
	struct rig r;

	(void)state;
	rig_init(&r, steps, 6, false);
	r.o.timeout_ms = 10000;
	r.s.cancel_after = 6; /* asked before each of 5 halts, then in the first wait slice */
	assert_int_equal(rig_run(&r), -(int)BENCH_E_INTERRUPTED);
	assert_string_equal(r.err.msg, "interrupted: stopped the run; the report keeps the 1 samples measured so far");
	results_free(&r.rep);
}

/* A child process (bench-sim) died while the target ran: noticed in the next wait slice. */
static void test_child_died(void **state)
{
	static const struct step steps[] = {
	    HALT(A_CAL_BEGIN, 0), {STEP_TIMEOUT, 0, 0, false}, {STEP_TIMEOUT, 0, 0, false}};
	struct rig r;

	(void)state;
	rig_init(&r, steps, 3, false);
	r.o.timeout_ms = 10000;
	r.s.children_dead = true;
	assert_int_equal(rig_run(&r), -(int)BENCH_E_CONNECT);
	assert_string_equal(r.err.msg, "the virtual board (bench-sim) stopped mid-run (scripted): the report keeps the "
	                               "0 samples measured so far");
	results_free(&r.rep);
}

/* A wide clock (the virtual board's 64-bit count) flags a stretch of 2^32 cycles or more. */
static void test_wide_clock_flags_wrap(void **state)
{
	static const struct step steps[] = {HALT(A_CAL_BEGIN, 0), HALT(A_CAL_END, 0), HALT(A_BEGIN, 10),
	                                    HALT(A_END, 20), HALT(A_DONE, 30)};
	struct rig r;

	(void)state;
	rig_init(&r, steps, 5, false);
	r.hooks.wide_clock = h_wide;
	r.s.wide[0] = 1000;
	r.s.wide[1] = 1000 + (1ull << 32) + 10;
	assert_int_equal(rig_run(&r), 0);
	assert_int_equal(result(&r, "fut", 0)->samples[0], 10);
	assert_int_equal(result(&r, "fut", 0)->sample_flags[0], BENCH_SAMPLE_WRAPPED);
	results_free(&r.rep);
}

/* The virtual board's hooks as run.c sets them: one `stats` answer (h_stats) a halt. */
static void with_board_stats(struct rig *r, bool from_count)
{
	r->hooks.wide_clock = h_wide; /* present, as run.c sets it, but not asked */
	r->hooks.resets = h_resets;
	r->hooks.board_stats = h_stats;
	r->s.stats_from_count = from_count;
}

/* One board_stats answer a halt serves the reset check and the wide clock at BEGIN and END: bench's
 * reset halt, then CAL_BEGIN, CAL_END, BEGIN, END, DONE are six answers (eight without the cache),
 * the clock's 2^32 + 10 between BEGIN and END still flags the sample as wrapped, and an exception
 * counted between them as interrupted. */
static void test_board_stats_once_a_halt(void **state)
{
	static const struct step steps[] = {HALT(A_CAL_BEGIN, 0), HALT(A_CAL_END, 0), HALT(A_BEGIN, 10),
	                                    HALT(A_END, 20), HALT(A_DONE, 30)};
	struct rig r;

	(void)state;
	rig_init(&r, steps, 5, false);
	with_board_stats(&r, false);
	r.s.stats_wide[3] = 1000;                     /* BEGIN */
	r.s.stats_wide[4] = 1000 + (1ull << 32) + 10; /* END */
	r.s.stats_exc[4] = 1;
	r.s.stats_exc[5] = 1;
	assert_int_equal(rig_run(&r), 0);
	assert_int_equal(r.s.stats_calls, 6);
	assert_int_equal(r.s.wide_calls, 0);
	assert_int_equal(result(&r, "fut", 0)->samples[0], 10);
	assert_int_equal(result(&r, "fut", 0)->sample_flags[0], BENCH_SAMPLE_WRAPPED | BENCH_SAMPLE_INTERRUPTED);
	results_free(&r.rep);
}

/* board_stats's reset count: a firmware reset between stretches is seen (inputs written again) and
 * bench's own reset at each pass of a run without SYNC is the new baseline, not a reset it did not
 * make: the answer taken before a reset is never used after it. */
static void test_board_stats_resets(void **state)
{
	static const struct step steps[] = {
	    HALT(A_SYNC, 0),   HALT(A_BEGIN, 10), HALT(A_END, 30),  HALT_AFTER_RESET(A_SYNC, 5),
	    HALT(A_BEGIN, 15), HALT(A_END, 40),   HALT(A_SYNC, 50), HALT(A_DONE, 60)};
	static const struct step passes[] = {HALT(A_BEGIN, 10), HALT(A_END, 30), HALT(A_DONE, 40),
	                                     HALT(A_BEGIN, 10), HALT(A_END, 35), HALT(A_DONE, 45)};
	struct rig r;

	(void)state;
	rig_init(&r, steps, 8, true);
	with_board_stats(&r, true);
	r.o.repeat = 2;
	rig_one_input(&r, 9);
	assert_int_equal(rig_run(&r), 0);
	assert_int_equal(r.loop.restarts, 1);
	assert_int_equal(r.s.in_writes, 2);
	assert_int_equal(result(&r, "fut", 0)->samples[1], 25);
	results_free(&r.rep);

	rig_init(&r, passes, 6, false); /* no SYNC: a reset halt before each pass */
	with_board_stats(&r, true);
	r.o.repeat = 2;
	assert_int_equal(rig_run(&r), 0);
	assert_int_equal(r.s.resets, 2);
	assert_int_equal(result(&r, "fut", 0)->samples[1], 25);
	results_free(&r.rep);
}

/* Firmware that switched the counter off (DWT_CTRL.CYCCNTENA = 0) gets no samples passed as cycles. */
static void test_counter_switched_off(void **state)
{
	static const struct step steps[] = {HALT(A_CAL_BEGIN, 0), HALT(A_CAL_END, 0), HALT(A_BEGIN, 10),
	                                    HALT(A_END, 10), HALT(A_DONE, 10)};
	struct rig r;

	(void)state;
	rig_init(&r, steps, 5, false);
	r.s.dwt_ctrl = 0;
	assert_int_equal(rig_run(&r), -(int)BENCH_E_TARGET);
	assert_non_null(strstr(r.err.msg, "DWT_CTRL.CYCCNTENA = 0"));
	results_free(&r.rep);
}

/* counter none: the markers are still run through, no cycles recorded. */
static void test_no_counter(void **state)
{
	static const struct step steps[] = {HALT(A_CAL_BEGIN, 0), HALT(A_CAL_END, 0), HALT(A_BEGIN, 0), HALT(A_END, 0),
	                                    HALT(A_DONE, 0)};
	struct rig r;

	(void)state;
	rig_init(&r, steps, 5, false);
	r.cfg.counter = NULL;
	r.bk.caps = BK_CAP_HALT_ON_BKPT;
	r.bk.ops = &(struct backend_ops){.name = "scripted",
	                                 .halt = s_halt,
	                                 .wait_halt = s_wait_halt,
	                                 .read_mem = s_read_mem,
	                                 .write_mem = s_write_mem,
	                                 .read_reg = s_read_reg,
	                                 .reset = s_reset,
	                                 .resume = s_halt};
	assert_int_equal(rig_run(&r), 0);
	assert_int_equal(result(&r, "fut", 0)->n_samples, 0);
	assert_non_null(strstr(result(&r, "fut", 0)->error, "counter: none"));
	results_free(&r.rep);
}

/* Issue 13: DWT_EXCCNT moved between BEGIN and END (no wide clock): the sample is flagged
 * interrupted and left out of the statistics. */
static void test_exccnt_flags_interrupted(void **state)
{
	static const struct step steps[] = {HALT(A_CAL_BEGIN, 0), HALT(A_CAL_END, 0), HALT(A_BEGIN, 10),
	                                    HALT(A_END, 20), HALT(A_DONE, 30)};
	struct rig r;

	(void)state;
	rig_init(&r, steps, 5, false);
	r.s.exccnt[0] = 250; /* at BEGIN */
	r.s.exccnt[1] = 6;   /* at END: 12 cycles of exception overhead later, wrapped at 8 bits */
	assert_int_equal(rig_run(&r), 0);
	results_finish(&r.rep);
	assert_int_equal(result(&r, "fut", 0)->samples[0], 10);
	assert_int_equal(result(&r, "fut", 0)->sample_flags[0], BENCH_SAMPLE_INTERRUPTED);
	assert_int_equal(result(&r, "fut", 0)->stats.n, 0);
	assert_int_equal(r.loop.interrupted, 1);
	results_free(&r.rep);
}

/* With the virtual board's clock, its exception count says it; an unchanged count does not flag. */
static void test_wide_exceptions_flag(void **state)
{
	static const struct step steps[] = {HALT(A_CAL_BEGIN, 0), HALT(A_CAL_END, 0), HALT(A_BEGIN, 10),
	                                    HALT(A_END, 20),      HALT(A_BEGIN, 30),  HALT(A_END, 40),
	                                    HALT(A_DONE, 50)};
	struct rig r;

	(void)state;
	rig_init(&r, steps, 7, false);
	r.hooks.wide_clock = h_wide;
	r.s.wide[0] = 100, r.s.wide[1] = 110, r.s.wide[2] = 120, r.s.wide[3] = 130;
	r.s.wide_exc[0] = 7, r.s.wide_exc[1] = 8, r.s.wide_exc[2] = 8, r.s.wide_exc[3] = 8;
	assert_int_equal(rig_run(&r), 0);
	assert_int_equal(result(&r, "fut", 0)->sample_flags[0], BENCH_SAMPLE_INTERRUPTED);
	assert_int_equal(result(&r, "fut", 0)->sample_flags[1], 0);
	results_free(&r.rep);
}

/* The counter moved 10 while the core ran 50 cycles: written or paused inside the stretch. */
static void test_counter_written(void **state)
{
	static const struct step steps[] = {HALT(A_CAL_BEGIN, 0), HALT(A_CAL_END, 0), HALT(A_BEGIN, 10),
	                                    HALT(A_END, 20), HALT(A_DONE, 30)};
	struct rig r;

	(void)state;
	rig_init(&r, steps, 5, false);
	r.hooks.wide_clock = h_wide;
	r.s.wide[0] = 1000, r.s.wide[1] = 1050;
	assert_int_equal(rig_run(&r), -(int)BENCH_E_TARGET);
	assert_string_equal(r.err.msg,
	                    "the cycle counter was written or stopped between BEGIN and END fut (DWT_CYCCNT "
	                    "moved 10 cycles, the core ran 50): the sample is not cycles; leave DWT_CYCCNT to "
	                    "bench");
	assert_int_equal(r.loop.samples_taken, 0);
	results_free(&r.rep);
}

/* DEMCR.TRCENA cleared: the DWT is off, checked at the END, not only at DONE. */
static void test_trcena_off_at_end(void **state)
{
	static const struct step steps[] = {HALT(A_CAL_BEGIN, 0), HALT(A_CAL_END, 0), HALT(A_BEGIN, 10),
	                                    HALT(A_END, 20), HALT(A_DONE, 30)};
	struct rig r;

	(void)state;
	rig_init(&r, steps, 5, false);
	r.s.demcr = 0;
	assert_int_equal(rig_run(&r), -(int)BENCH_E_TARGET);
	assert_non_null(strstr(r.err.msg, "(DEMCR.TRCENA = 0 at END fut)"));
	results_free(&r.rep);
}

/* A second calibration in a pass (the core restarted between stretches and its start-up code
 * zeroed the input): the next SYNC writes the input again although it is no new input. */
static void test_restart_rewrites_inputs(void **state)
{
	static const struct step steps[] = {HALT(A_CAL_BEGIN, 0), HALT(A_CAL_END, 2), HALT(A_SYNC, 10),
	                                    HALT(A_BEGIN, 20),    HALT(A_END, 35),    HALT(A_CAL_BEGIN, 0),
	                                    HALT(A_CAL_END, 2),   HALT(A_SYNC, 10),   HALT(A_BEGIN, 20),
	                                    HALT(A_END, 35),      HALT(A_SYNC, 40),   HALT(A_DONE, 95)};
	struct rig r;

	(void)state;
	rig_init(&r, steps, 12, true);
	r.o.repeat = 2;
	rig_one_input(&r, 5);
	assert_int_equal(rig_run(&r), 0);
	assert_int_equal(r.loop.restarts, 1);
	assert_int_equal(r.s.in_writes, 2); /* the first SYNC, and again after the restart */
	assert_int_equal((int32_t)le_get32(r.s.ram + (IN_ADDR - RAM_BASE)), 5);
	assert_int_equal(result(&r, "fut", 0)->n_samples, 2);
	results_free(&r.rep);
}

/* A restart after a SYNC and before its END: that iteration measured nothing, so the next SYNC runs
 * it again; the input keeps its --repeat samples and the run still ends with stop = 1. */
static void test_restart_before_end_repeats_iteration(void **state)
{
	static const struct step steps[] = {
	    HALT(A_CAL_BEGIN, 0), HALT(A_CAL_END, 2), HALT(A_SYNC, 10), HALT(A_CAL_BEGIN, 0), HALT(A_CAL_END, 2),
	    HALT(A_SYNC, 10),     HALT(A_BEGIN, 20),  HALT(A_END, 35),  HALT(A_SYNC, 40),     HALT(A_DONE, 95)};
	struct rig r;

	(void)state;
	rig_init(&r, steps, 10, true);
	rig_one_input(&r, 5);
	assert_int_equal(rig_run(&r), 0);
	assert_int_equal(r.loop.restarts, 1);
	assert_int_equal(result(&r, "fut", 0)->n_samples, 1);
	assert_int_equal(le_get32(r.s.ram + (CTL_ADDR - RAM_BASE) + BENCH_CTL_OFF_STOP), 1);
	results_free(&r.rep);
}

/* Firmware without bench_init() resets itself between two stretches: the board's reset count shows
 * it at the next halt (bench's own reset halts are the baseline, not counted); the inputs are
 * written again and each iteration keeps its sample. */
static void test_reset_count_rewrites_inputs(void **state)
{
	static const struct step steps[] = {
	    HALT(A_SYNC, 0),   HALT(A_BEGIN, 10), HALT(A_END, 30),  HALT_AFTER_RESET(A_SYNC, 5),
	    HALT(A_BEGIN, 15), HALT(A_END, 40),   HALT(A_SYNC, 50), HALT(A_DONE, 60)};
	struct rig r;

	(void)state;
	rig_init(&r, steps, 8, true);
	r.hooks.resets = h_resets;
	r.o.repeat = 2;
	rig_one_input(&r, 9);
	assert_int_equal(rig_run(&r), 0);
	assert_int_equal(r.s.resets, 1);      /* bench's one reset halt */
	assert_int_equal(r.loop.restarts, 1); /* the firmware's, seen once */
	assert_int_equal(r.s.in_writes, 2);   /* the first SYNC, and again after the reset */
	assert_int_equal(result(&r, "fut", 0)->n_samples, 2);
	assert_int_equal(result(&r, "fut", 0)->samples[0], 20);
	assert_int_equal(result(&r, "fut", 0)->samples[1], 25);
	results_free(&r.rep);
}

/* A reset while a pair is open fails the run (exit 5) naming the reset; the earlier sample stays. */
static void test_reset_count_inside_stretch_fails(void **state)
{
	static const struct step steps[] = {HALT(A_SYNC, 0),  HALT(A_BEGIN, 10), HALT(A_END, 30),
	                                    HALT(A_SYNC, 35), HALT(A_BEGIN, 40), HALT_AFTER_RESET(A_SYNC, 5)};
	struct rig r;

	(void)state;
	rig_init(&r, steps, 6, true);
	r.hooks.resets = h_resets;
	r.o.repeat = 3;
	assert_int_equal(rig_run(&r), -(int)BENCH_E_TARGET);
	assert_string_equal(r.err.msg, "the target was reset inside the measured stretch (after marker BEGIN fut) by "
	                               "something other than bench (AIRCR.SYSRESETREQ, a watchdog, NRST): find what "
	                               "resets the core");
	assert_int_equal(result(&r, "fut", 0)->n_samples, 1);
	assert_int_equal(result(&r, "fut", 0)->samples[0], 20);
	results_free(&r.rep);
}

/* Without a SYNC loop bench cannot write inputs again: a reset between markers fails the run. */
static void test_reset_count_without_sync_fails(void **state)
{
	static const struct step steps[] = {HALT(A_BEGIN, 10), HALT(A_END, 30), HALT_AFTER_RESET(A_BEGIN, 5)};
	struct rig r;

	(void)state;
	rig_init(&r, steps, 3, false);
	r.hooks.resets = h_resets;
	assert_int_equal(rig_run(&r), -(int)BENCH_E_TARGET);
	assert_non_null(strstr(r.err.msg, "the target was reset between markers (after marker END fut)"));
	assert_int_equal(result(&r, "fut", 0)->samples[0], 20);
	results_free(&r.rep);
}

/* A firmware that ignores bench_ctl.stop and keeps calling bench_sync(): after the one sample, 1000
 * marker halts in a row with no END and no new input end the run (exit 5) instead of going on for
 * ever (--timeout never fires while markers keep coming; issue 26). */
static void test_no_progress_ends(void **state)
{
	static struct step steps[1100];
	struct rig r;

	(void)state;
	steps[0] = (struct step)HALT(A_CAL_BEGIN, 0);
	steps[1] = (struct step)HALT(A_CAL_END, 3);
	steps[2] = (struct step)HALT(A_SYNC, 10);
	steps[3] = (struct step)HALT(A_BEGIN, 100);
	steps[4] = (struct step)HALT(A_END, 150);
	for (size_t i = 5; i < 1100; i++)
		steps[i] = (struct step)HALT(A_SYNC, 200);
	rig_init(&r, steps, 1100, true);
	assert_int_equal(rig_run(&r), -(int)BENCH_E_TARGET);
	assert_string_equal(r.err.msg,
	                    "the target reached 1000 markers in a row without finishing a stretch or taking the next "
	                    "input (the last: SYNC sync, in its SYNC loop): the report keeps the 1 samples measured "
	                    "so far; check the firmware's marker loop (it must end when bench_sync() returns 0)");
	assert_int_equal(r.s.next, 1005); /* the END, then the 1000th halt without progress */
	assert_int_equal(result(&r, "fut", 0)->n_samples, 1);
	results_free(&r.rep);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_calibration),
	    cmocka_unit_test(test_wrap_safe_difference),
	    cmocka_unit_test(test_sync_writes_inputs),
	    cmocka_unit_test(test_nested_pairs),
	    cmocka_unit_test(test_end_without_begin),
	    cmocka_unit_test(test_unexpected_halt),
	    cmocka_unit_test(test_timeout),
	    cmocka_unit_test(test_lost_link),
	    cmocka_unit_test(test_interrupt),
	    cmocka_unit_test(test_child_died),
	    cmocka_unit_test(test_wide_clock_flags_wrap),
	    cmocka_unit_test(test_board_stats_once_a_halt),
	    cmocka_unit_test(test_board_stats_resets),
	    cmocka_unit_test(test_counter_switched_off),
	    cmocka_unit_test(test_no_counter),
	    cmocka_unit_test(test_exccnt_flags_interrupted),
	    cmocka_unit_test(test_wide_exceptions_flag),
	    cmocka_unit_test(test_counter_written),
	    cmocka_unit_test(test_trcena_off_at_end),
	    cmocka_unit_test(test_restart_rewrites_inputs),
	    cmocka_unit_test(test_restart_before_end_repeats_iteration),
	    cmocka_unit_test(test_reset_count_rewrites_inputs),
	    cmocka_unit_test(test_reset_count_inside_stretch_fails),
	    cmocka_unit_test(test_reset_count_without_sync_fails),
	    cmocka_unit_test(test_no_progress_ends),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
