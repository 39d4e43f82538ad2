/* See loop_check.h. Registers: DWT_CTRL, DWT_CYCCNT, DWT_CPICNT, DWT_EXCCNT are consecutive words
 * at 0xE0001000 (Armv7-M ARM C1.8.7-C1.8.9), read in one 16-byte access; DEMCR at 0xE000EDFC
 * (C1.6.5). DWT_EXCCNT counts the cycles of exception entry and return, 8 bits wide, while
 * DWT_CTRL.EXCEVTENA is set: any change between BEGIN and END means the stretch took an exception
 * (it misses one only when the overhead is a multiple of 256 cycles). The virtual board counts
 * exceptions exactly on its control port, read with the wide clock. */
#include "run/loop_check.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/clock.h"
#include "base/le.h"
#include "base/str.h"
#include "run/run_fault.h"

#define CHECK_DWT_CTRL           0xE0001000u
#define CHECK_DWT_CTRL_CYCCNTENA 0x1u
#define CHECK_DWT_CTRL_EXCEVTENA (1u << 18) /* C1.8.7 */
#define CHECK_DEMCR_TRCENA       (1u << 24) /* C1.6.5 */

/* The DWT words at CTRL: ctrl, cyccnt, cpicnt, exccnt. */
static int read_dwt(struct loop *c, uint32_t w[4])
{
	uint8_t raw[16];
	int rc = backend_read_mem(c->bk, CHECK_DWT_CTRL, raw, sizeof(raw), c->err);

	for (int i = 0; !rc && i < 4; i++)
		w[i] = le_get32(raw + 4 * i);
	return rc;
}

static bool cortex_m(const struct loop *c)
{
	return c->cfg->counter && c->cfg->counter->core == COUNTER_CORTEX_M;
}

/* OpenOCD keeps its own copy of DHCSR and writes it back at every resume, so a C_MASKINTS written
 * to memory would be lost: its `cortex_m maskisr on` sets the bit while halted and keeps it for
 * the run (OpenOCD 0.12 src/target/cortex_m.c cortex_m_set_maskints_for_run). A monitor command,
 * so the GDB backend reaches an OpenOCD gdbserver too. Its handler always answers "cortex_m
 * interrupt mask MODE" (handle_cortex_m_mask_interrupts_command): that answer, not the absence of
 * an error, says the mode is set; a server that does not know the command (QEMU's gdbstub answers
 * "unknown command: 'cortex_m'" as plain output) has masked nothing. MODE is written into out. */
static int mask_mode(const char *reply, char *out, size_t len)
{
	static const char *const modes[] = {"auto", "off", "on", "steponly"};
	const char *p = strstr(reply, "interrupt mask ");

	if (!p)
		return -1;
	p += strlen("interrupt mask ");
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		size_t n = strlen(modes[i]);
		if (!strncmp(p, modes[i], n) && (p[n] == '\0' || p[n] == '\n' || p[n] == '\r' || p[n] == ' '))
			return str_copy(out, len, modes[i]);
	}
	return -1;
}

/* s on one line: newlines become spaces, trailing ones go (a monitor command's output ends in one). */
static const char *one_line(char *s)
{
	size_t n;

	for (char *p = s; *p; p++)
		if (*p == '\n' || *p == '\r')
			*p = ' ';
	for (n = strlen(s); n && s[n - 1] == ' ';)
		s[--n] = '\0';
	return s;
}

/* Sends `cortex_m maskisr ARG` and checks the mode it answers. A refusal or an answer that names no
 * mode is BENCH_E_UNSUPPORTED; an interruption, a timeout or a lost link stays what it is. The
 * refusal's text is copied out of c->err before c->err is written again. */
static int maskisr(struct loop *c, const char *arg, char *mode, size_t len)
{
	char cmd[48], out[160], why[200];
	int rc;

	str_fmt_cut(cmd, sizeof(cmd), "cortex_m maskisr%s%s", arg[0] ? " " : "", arg);
	rc = backend_monitor(c->bk, cmd, out, sizeof(out), c->err);
	if (rc && c->err->kind != BENCH_E_TARGET && c->err->kind != BENCH_E_UNSUPPORTED)
		return rc;
	if (rc)
		str_fmt_cut(why, sizeof(why), "%s", c->err->msg);
	else if (mask_mode(out, mode, len))
		str_fmt_cut(why, sizeof(why), "it answered \"%s\"", one_line(out));
	else
		return 0;
	return bench_fail(c->err, BENCH_E_UNSUPPORTED,
	                  "--mask-irqs needs OpenOCD's `cortex_m maskisr` (DHCSR.C_MASKINTS), which this debug "
	                  "server does not take (%s): drop --mask-irqs or measure through OpenOCD",
	                  why);
}

/* --mask-irqs at BEGIN (on) and END (back to the mode bench found). The first time, the mode is
 * asked before anything changes; c->masked is set before `on` is sent, so a signal or a lost link
 * while it is in flight still puts the mode back (loop_check_restore). */
static int set_mask(struct loop *c, bool on)
{
	char mode[16];
	int rc;

	if (on) {
		if (!c->mask_orig[0] && (rc = maskisr(c, "", c->mask_orig, sizeof(c->mask_orig))))
			return rc;
		c->masked = true;
		if ((rc = maskisr(c, "on", mode, sizeof(mode))))
			return rc;
		if (strcmp(mode, "on"))
			return bench_fail(c->err, BENCH_E_UNSUPPORTED,
			                  "--mask-irqs: the debug server kept interrupt masking at %s after `cortex_m "
			                  "maskisr on`: drop --mask-irqs or measure through OpenOCD 0.12 or later",
			                  mode);
		return 0;
	}
	if ((rc = maskisr(c, c->mask_orig, mode, sizeof(mode))))
		return rc;
	c->masked = false;
	return 0;
}

void loop_check_will_set_dwt(struct loop *c, uint32_t now, uint32_t bits)
{
	if (!c->dwt_saved)
		c->dwt_ctrl_orig = now;
	c->dwt_saved = true;
	c->dwt_ctrl_set |= bits & ~c->dwt_ctrl_orig;
}

void loop_check_will_set_demcr(struct loop *c, uint32_t now, uint32_t bits)
{
	uint32_t before = c->demcr_saved ? c->demcr_orig : now;

	c->demcr_set |= bits & ~before;
}

int loop_check_begin(struct loop *c, struct loop_pending *p)
{
	uint32_t w[4];
	int rc;

	p->exccnt_valid = false;
	if (c->cfg->o->mask_irqs && !c->cfg->cm_debug_regs)
		return bench_fail(
		    c->err, BENCH_E_UNSUPPORTED,
		    "--mask-irqs sets a Cortex-M's DHCSR.C_MASKINTS; a TriCore has none: drop --mask-irqs");
	if (c->cfg->o->mask_irqs && (rc = set_mask(c, true)))
		return rc;
	if (!cortex_m(c))
		return 0;
	if (!c->hooks->wide_clock) {
		if ((rc = read_dwt(c, w)))
			return rc;
		if (!(w[0] & CHECK_DWT_CTRL_EXCEVTENA)) {
			loop_check_will_set_dwt(c, w[0], CHECK_DWT_CTRL_EXCEVTENA);
			if ((rc = backend_write_u32(c->bk, CHECK_DWT_CTRL, w[0] | CHECK_DWT_CTRL_EXCEVTENA, c->err)))
				return rc;
		}
		p->exccnt = (uint8_t)w[3];
		p->exccnt_valid = true;
	}
	return 0;
}

/* DEMCR.TRCENA powers the DWT and DWT_CTRL.CYCCNTENA runs CYCCNT (C1.8.7): both must be set. w[] is
 * the DWT block, w[3] DWT_EXCCNT. */
static int counter_enabled(struct loop *c, const struct marker *m, uint32_t w[4])
{
	uint32_t demcr;
	int rc;

	if ((rc = read_dwt(c, w)) || (rc = backend_read_u32(c->bk, RUN_REG_DEMCR, &demcr, c->err)))
		return rc;
	if (!(demcr & CHECK_DEMCR_TRCENA))
		return bench_fail(c->err, BENCH_E_TARGET,
		                  "the cycle counter was switched off during the run (DEMCR.TRCENA = 0 at END %s): the "
		                  "samples are not cycles; leave DEMCR to bench",
		                  m->name);
	if (!(w[0] & CHECK_DWT_CTRL_CYCCNTENA))
		return bench_fail(
		    c->err, BENCH_E_TARGET,
		    "the cycle counter was switched off during the run (DWT_CTRL.CYCCNTENA = 0 at END %s): "
		    "the samples are not cycles; leave DWT_CTRL to bench",
		    m->name);
	return 0;
}

int loop_check_end(struct loop *c, const struct marker *m, const struct loop_pending *p, uint32_t cnt, uint64_t wide,
                   uint64_t wide_exc, uint8_t *flags)
{
	uint32_t w[4], delta;
	int rc;

	if (c->masked && (rc = set_mask(c, false)))
		return rc;
	if (!cortex_m(c))
		return 0;
	delta = counters_delta(c->cfg->counter, p->count, cnt);
	if (c->hooks->wide_clock) {
		/* The virtual board's 64-bit clock ran wide - p->wide cycles: CYCCNT must have moved by
		 * the same modulo 2^32, or the firmware wrote, rewound or paused it. This catches all that
		 * the enable bits would, and more, without two more reads per sample; they are read only to
		 * name what happened. */
		if ((uint32_t)(wide - p->wide) != delta) {
			if ((rc = counter_enabled(c, m, w)))
				return rc;
			return bench_fail(
			    c->err, BENCH_E_TARGET,
			    "the cycle counter was written or stopped between BEGIN and END %s (DWT_CYCCNT "
			    "moved %" PRIu32 " cycles, the core ran %" PRIu64 "): the sample is not cycles; "
			    "leave DWT_CYCCNT to bench",
			    m->name, delta, wide - p->wide);
		}
		if (wide_exc != p->wide_exc)
			*flags |= BENCH_SAMPLE_INTERRUPTED;
	} else {
		/* Checked at every END, not only at DONE: a counter switched off and on again between two
		 * DONEs is caught when it is off at an END. */
		if ((rc = counter_enabled(c, m, w)))
			return rc;
		if (p->exccnt_valid && (uint8_t)w[3] != p->exccnt)
			*flags |= BENCH_SAMPLE_INTERRUPTED;
	}
	if ((*flags & BENCH_SAMPLE_INTERRUPTED) && !c->cur_warm) /* the warning counts recorded samples */
		c->interrupted++;
	return 0;
}

/* "BEGIN fut", or "none yet" before the first marker. */
static const char *last_text(const struct loop *c, char *buf, size_t len)
{
	if (!c->last_marker)
		return "none yet";
	return str_fmt_cut(buf, len, "%s %s", markers_kind_name(c->last_marker->kind), c->last_marker->name);
}

/* "at input=10" (the inputs of the iteration that did not finish), or where the run was. */
static const char *where_text(const struct loop *c, char *buf, size_t len)
{
	size_t used = 0;

	if (!c->sync_high)
		return "before its first SYNC";
	if (!c->n_cur_args)
		return "in its SYNC loop";
	buf[0] = '\0';
	for (size_t i = 0; i < c->n_cur_args && used + 1 < len; i++) {
		(void)str_append(buf, len, "%s%s%s=%" PRId64, i ? ", " : "", i ? "" : "at ", c->cur_args[i].name,
		                 c->cur_args[i].value);
		used = strlen(buf);
	}
	return buf;
}

/* The target restarted between stretches with a SYNC loop: its start-up code set the inputs back,
 * so the next SYNC writes them again. Restarted after a SYNC but before that iteration's END: it
 * measured nothing, so the next SYNC runs the same iteration again and every input still gets
 * --repeat samples. LOOP_MAX_RESTARTS_IN_ROW restarts without an END between them end the run: a
 * watchdog that fires before one input's END would otherwise have that input written again for
 * ever, and --timeout never fires while markers keep coming (issue 26). */
int loop_check_restarted(struct loop *c)
{
	char where[160];

	c->restarts++;
	c->rewrite_inputs = true;
	if (c->sync_count > 0 && !c->ended_since_sync && !c->stopping)
		c->sync_count--;
	if (++c->restarts_in_row < LOOP_MAX_RESTARTS_IN_ROW)
		return 0;
	return bench_fail(c->err, BENCH_E_TARGET,
	                  "the target restarted %zu times in a row without finishing a stretch, %s (a watchdog, "
	                  "AIRCR.SYSRESETREQ, a lockup reset): the report keeps the %zu samples measured so far; "
	                  "find what resets the core there",
	                  c->restarts_in_row, where_text(c, where, sizeof(where)), c->samples_taken);
}

int loop_check_progress(struct loop *c)
{
	char last[96], where[160];

	if (++c->idle_halts < LOOP_MAX_IDLE_HALTS)
		return 0;
	return bench_fail(c->err, BENCH_E_TARGET,
	                  "the target reached %zu markers in a row without finishing a stretch or taking the next "
	                  "input (the last: %s, %s): the report keeps the %zu samples measured so far; check the "
	                  "firmware's marker loop (it must end when bench_sync() returns 0)",
	                  c->idle_halts, last_text(c, last, sizeof(last)), where_text(c, where, sizeof(where)),
	                  c->samples_taken);
}

int loop_board_stats(struct loop *c)
{
	int rc;

	if (!c->hooks->board_stats || c->stats_fresh)
		return 0;
	if ((rc = c->hooks->board_stats(c->hooks->ctx, &c->stats_cycles, &c->stats_exc, &c->stats_resets, c->err)))
		return rc;
	c->stats_fresh = true;
	return 0;
}

int loop_reset_count(struct loop *c, uint64_t *n)
{
	int rc;

	if (c->hooks->board_stats) {
		if ((rc = loop_board_stats(c)))
			return rc;
		*n = c->stats_resets;
		return 0;
	}
	return c->hooks->resets ? c->hooks->resets(c->hooks->ctx, n, c->err) : 0;
}

/* At every halt: a reset since the last one that bench did not ask for (loop_hooks.resets or
 * board_stats; bench's own reset halts set the baseline in loop_run). The firmware does not need
 * bench_init() for this: a core reset is seen whatever its cause (AIRCR.SYSRESETREQ, NRST, a
 * watchdog). */
int loop_check_reset(struct loop *c)
{
	char last[96];
	uint64_t n;
	int rc;

	if (!c->hooks->board_stats && !c->hooks->resets)
		return 0;
	if ((rc = loop_reset_count(c, &n)))
		return rc;
	if (n == c->reset_count)
		return 0;
	c->reset_count = n;
	if (c->mode == LOOP_MODE_SYMBOLS)
		return bench_fail(
		    c->err, BENCH_E_TARGET,
		    "the target was reset by something other than bench %s --start %s%s%s (AIRCR.SYSRESETREQ, "
		    "a watchdog, NRST): find what resets the core",
		    c->sym_open ? "between" : "before reaching", c->cfg->o->start_sym,
		    c->sym_open ? " and --stop " : "", c->sym_open ? c->cfg->o->stop_sym : "");
	for (size_t i = 0; i < LOOP_MAX_PENDING; i++)
		if (c->pend[i].valid)
			return bench_fail(
			    c->err, BENCH_E_TARGET,
			    "the target was reset inside the measured stretch (after marker %s) by something "
			    "other than bench (AIRCR.SYSRESETREQ, a watchdog, NRST): find what resets the core",
			    last_text(c, last, sizeof(last)));
	if (!c->cfg->has_sync)
		return bench_fail(
		    c->err, BENCH_E_TARGET,
		    "the target was reset between markers (after marker %s) by something other than bench "
		    "(AIRCR.SYSRESETREQ, a watchdog, NRST), and without a SYNC loop bench cannot tell what it "
		    "ran: find what resets the core",
		    last_text(c, last, sizeof(last)));
	/* A new boot: its calibration (bench_init) is not a second restart. */
	c->boots = 0;
	return loop_check_restarted(c);
}

void loop_wraps(uint32_t delta, unsigned bits, uint64_t hz, uint64_t lo_ms, uint64_t hi_ms, int64_t *kmin,
                int64_t *kmax)
{
	/* In 1/1000 cycles' units of ms * Hz, kept in long double: 10^4 s at 10 GHz is 10^17, past a
	 * double's exact integers but not past its accuracy, which the 2 % tolerance dwarfs. */
	long double span = (long double)(1ull << bits), d = (long double)delta;
	long double most = (long double)hi_ms * (long double)hz * (1.0L + LOOP_CLOCK_TOLERANCE) / 1000.0L;
	long double least = (long double)lo_ms * (long double)hz * (1.0L - LOOP_CLOCK_TOLERANCE) / 1000.0L;

	if (most < d) {
		*kmin = *kmax = -1;
		return;
	}
	*kmax = (int64_t)floorl((most - d) / span);
	*kmin = least > d ? (int64_t)ceill((least - d) / span) : 0;
}

int loop_check_host_clock(struct loop *c, const char *name, uint32_t delta, uint64_t begin_ms, uint64_t ran_min_ms,
                          uint8_t *flags)
{
	uint64_t hz = c->rep->context.core_clock_hz, hi_ms = clock_now_ms() - begin_ms + 1;
	int64_t kmin, kmax;

	/* Only without a 64-bit clock (silicon, an attached OpenOCD): the virtual board runs faster or
	 * slower than real time and its own clock says for certain (loop.c wide_wrapped). */
	if (c->hooks->wide_clock || !hz || !c->cfg->counter)
		return 0;
	loop_wraps(delta, c->cfg->counter->bits, hz, ran_min_ms, hi_ms, &kmin, &kmax);
	if (kmax < 0)
		return bench_fail(c->err, BENCH_E_TARGET,
		                  "the cycle counter moved %" PRIu32 " cycles between BEGIN and END %s, more than the "
		                  "%.6g MHz core can run in the %" PRIu64 " ms the host saw between the two halts: it "
		                  "was written, or the core clock is not %" PRIu64 " Hz; leave DWT_CYCCNT to bench, or "
		                  "give the clock with --clock-hz",
		                  delta, name, (double)hz / 1e6, hi_ms, hz);
	if (kmax == 0)
		return 0;
	*flags |= BENCH_SAMPLE_WRAPPED;
	if (c->cur_warm) /* not recorded: no warning either */
		return 0;
	if (!c->wrapped++) {
		if (kmin == kmax)
			str_fmt_cut(c->wrap_note, sizeof(c->wrap_note),
			            "%s: the host's clock says it wrapped %" PRId64 " time%s (%" PRIu64 " to %" PRIu64
			            " ms between the halts at %" PRIu64 " Hz): %" PRIu32 " + %" PRId64 " x 2^%u cycles",
			            name, kmax, kmax == 1 ? "" : "s", ran_min_ms, hi_ms, hz, delta, kmax,
			            c->cfg->counter->bits);
		else if (kmin < kmax)
			str_fmt_cut(c->wrap_note, sizeof(c->wrap_note),
			            "%s: %" PRIu64 " ms between the halts at %" PRIu64 " Hz, room for up to %" PRId64
			            " wrap%s, too little running time seen to say how many",
			            name, hi_ms, hz, kmax, kmax == 1 ? "" : "s");
		else /* the core ran longer than any count fits: the counter stood still part of it */
			str_fmt_cut(c->wrap_note, sizeof(c->wrap_note),
			            "%s: the core ran at least %" PRIu64 " ms at %" PRIu64 " Hz, longer than %" PRIu32
			            " cycles and any whole number of wraps allow: the counter stopped for part of it "
			            "(deep sleep stops the core clock)",
			            name, ran_min_ms, hz, delta);
	}
	return 0;
}

int loop_check_clock(struct loop *c)
{
	uint32_t hz;
	int rc;

	if (c->clock_read || !c->cfg->sysclk_addr)
		return 0;
	c->clock_read = true;
	if ((rc = backend_read_u32(c->bk, c->cfg->sysclk_addr, &hz, c->err)))
		return rc;
	/* A value no core runs at is an uninitialised variable, not a clock: keep the other source. */
	if (hz < 1000u)
		return 0;
	c->rep->context.core_clock_hz = hz;
	str_fmt_cut(c->rep->context.clock_source, sizeof(c->rep->context.clock_source), "firmware");
	return 0;
}

void loop_check_save(struct loop *c)
{
	struct bench_error e;

	c->demcr_saved = cortex_m(c) && backend_read_u32(c->bk, RUN_REG_DEMCR, &c->demcr_orig, &e) == 0;
}

static bool link_lost(const struct bench_error *e)
{
	return e->kind == BENCH_E_CONNECT || e->kind == BENCH_E_PROTOCOL;
}

/* loop_check_restore's undo list; each step is dropped from it once done (or refused for good), so
 * a second go after a reconnect redoes only what is left. Returns -1 when the link went. */
static int undo(struct loop *c, struct bench_error *e)
{
	char mode[16];
	uint32_t now;
	bool halted = false;

	if (c->masked) {
		/* OpenOCD takes `cortex_m maskisr` only from a halted target ("target must be stopped"). */
		if (maskisr(c, c->mask_orig, mode, sizeof(mode)) && !link_lost(e) && !halted) {
			halted = backend_halt(c->bk, e) == 0;
			(void)maskisr(c, c->mask_orig, mode, sizeof(mode));
		}
		if (link_lost(e))
			return -1;
		c->masked = false;
	}
	while (c->n_planted) {
		uint32_t addr = c->planted[c->n_planted - 1];
		/* OpenOCD removes a breakpoint only from a halted target (cortex_m_remove_breakpoint). */
		if (backend_clear_break(c->bk, addr, e) && !link_lost(e) && !halted) {
			halted = backend_halt(c->bk, e) == 0;
			(void)backend_clear_break(c->bk, addr, e);
		}
		if (link_lost(e))
			return -1;
		c->n_planted--;
	}
	/* DWT_CTRL's bits before DEMCR's: DEMCR.TRCENA powers the DWT (Armv7-M ARM C1.6.5). */
	if (c->dwt_ctrl_set) {
		if (!backend_read_u32(c->bk, CHECK_DWT_CTRL, &now, e))
			(void)backend_write_u32(c->bk, CHECK_DWT_CTRL, now & ~c->dwt_ctrl_set, e);
		if (link_lost(e))
			return -1;
		c->dwt_ctrl_set = 0;
	}
	/* The vector catches bench set (run_fault_catch) are DEMCR bits an attached debugger had off. */
	if (c->demcr_saved) {
		if (!backend_read_u32(c->bk, RUN_REG_DEMCR, &now, e))
			(void)backend_write_u32(
			    c->bk, RUN_REG_DEMCR,
			    (now & ~(RUN_DEMCR_VC_FAULTS | c->demcr_set)) | (c->demcr_orig & RUN_DEMCR_VC_FAULTS), e);
		if (link_lost(e))
			return -1;
		c->demcr_saved = false;
	}
	return 0;
}

void loop_check_restore(struct loop *c)
{
	struct bench_error e, *run_err = c->err;
	struct bench_cancel cancel = c->bk->cancel;

	/* Also after Ctrl-C: the run's cancel test would refuse every command, so it is off for these
	 * few; the run's own error is kept (c->err points elsewhere meanwhile). */
	backend_set_cancel(c->bk, (struct bench_cancel){0});
	c->err = &e;
	bench_error_clear(&e);
	/* A link that is gone, or a command whose answer never came (it may come any time, or never):
	 * a fresh connection to the same server, where the backend can make one. */
	if (link_lost(run_err) && backend_reconnect(c->bk, &e))
		bench_error_clear(&e);
	if (undo(c, &e) && !backend_reconnect(c->bk, &e))
		(void)undo(c, &e);
	c->err = run_err;
	backend_set_cancel(c->bk, cancel);
}
