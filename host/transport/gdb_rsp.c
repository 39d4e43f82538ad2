/* The GDB remote serial protocol backend (GDB manual appendix E): session set-up, stop replies,
 * breakpoints, run control and reset behind struct backend_ops. Monitor commands are in
 * gdb_rsp_monitor.c (below this file: it never calls back), registers in gdb_rsp_regs.c (below it
 * too), memory and ELF download in gdb_rsp_load.c, target descriptions in gdb_rsp_tdesc.c, the
 * packet exchange under them all in gdb_rsp_xchg.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "transport/gdb_rsp_priv.h"
#include "base/le.h"
#include "base/clock.h"

/* Signals in stop replies (GDB's target signal numbers, include/gdb/signals.def). */
enum { SIG_INT = 2, SIG_ILL = 4, SIG_TRAP = 5, SIG_EMT = 7, SIG_BUS = 10, SIG_SEGV = 11 };

static struct rsp_priv *priv(struct backend *bk)
{
	return bk->priv;
}

/* ---- stop replies (E.3 "Stop Reply Packets") ---- */

static bool all_hex(const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strchr("0123456789abcdefABCDEF", p[i]))
			return false;
	return n > 0;
}

static bool is_planted(struct rsp_priv *s, uint32_t addr)
{
	for (size_t i = 0; i < s->n_breaks; i++)
		if (s->breaks[i].addr == addr)
			return true;
	return false;
}

/* T AA n1:r1;n2:r2;... : collect the PC if the server sent it and the stop kind keywords. */
int rsp_parse_stop(struct rsp_priv *s, struct backend_halt_info *info, struct bench_error *err)
{
	const char *r = rsp_reply(s);
	unsigned sig = 0;
	bool hw_sw = false, watch = false;

	if (r[0] == 'W' || r[0] == 'X') {
		s->running = false;
		info->reason = BK_HALT_EXITED;
		info->pc = 0;
		return 0;
	}
	if ((r[0] != 'T' && r[0] != 'S') || !all_hex(r + 1, 2))
		return bench_fail(err, BENCH_E_PROTOCOL, "unexpected stop reply from %s: \"%.40s\"", s->link.io.peer,
		                  r);
	sig = (unsigned)strtoul((char[]){r[1], r[2], 0}, NULL, 16);
	s->running = false;
	s->pc_valid = false;
	for (const char *p = r + 3; r[0] == 'T' && *p;) {
		const char *colon = strchr(p, ':'), *semi = strchr(p, ';');
		size_t klen;

		if (!colon || (semi && semi < colon))
			break;
		klen = (size_t)(colon - p);
		if (all_hex(p, klen) && (int)strtol(p, NULL, 16) == s->tdesc.map[BK_REG_PC] && semi &&
		    semi - colon - 1 == 8) {
			uint8_t b[4];

			if (rsp_hex_decode(colon + 1, b, 4) == 0) {
				s->pc = le_get32(b);
				s->pc_valid = true;
			}
		} else if ((klen == 7 && (!strncmp(p, "swbreak", 7) || !strncmp(p, "hwbreak", 7)))) {
			hw_sw = true;
		} else if ((klen == 5 && !strncmp(p, "watch", 5)) || (klen == 6 && !strncmp(p + 1, "watch", 5))) {
			watch = true;
		}
		if (!semi)
			break;
		p = semi + 1;
	}
	if (!s->pc_valid) {
		int rc = rsp_read_pc(s, &s->pc, err);

		if (rc < 0)
			return rc;
	}
	info->pc = s->pc;
	if (sig == SIG_INT)
		info->reason = BK_HALT_REQUEST;
	else if (sig == SIG_SEGV || sig == SIG_BUS || sig == SIG_ILL || sig == SIG_EMT)
		info->reason = BK_HALT_FAULT;
	else if (sig != SIG_TRAP)
		info->reason = BK_HALT_OTHER;
	else if (watch)
		info->reason = BK_HALT_WATCHPOINT;
	else
		return rsp_classify_trap(s, hw_sw, info, err);
	return 0;
}

int rsp_classify_trap(struct rsp_priv *s, bool hw_sw, struct backend_halt_info *info, struct bench_error *err)
{
	bool bkpt = false;
	int rc;

	if (!s->pc_valid && (rc = rsp_read_pc(s, &s->pc, err)) < 0)
		return rc;
	info->pc = s->pc;
	if (hw_sw || is_planted(s, s->pc)) {
		info->reason = BK_HALT_BREAKPOINT;
		return 0;
	}
	rc = rsp_is_bkpt(s, s->pc, &bkpt, err);
	if (rc < 0)
		return rc;
	info->reason = bkpt ? BK_HALT_BKPT_INSN : BK_HALT_OTHER;
	return 0;
}

/* ---- run control ---- */

static int wait_stop(struct rsp_priv *s, uint64_t deadline, struct backend_halt_info *info, struct bench_error *err)
{
	for (;;) {
		int rc = rsp_link_recv(&s->link, deadline, err);

		if (rc < 0)
			return rc;
		if (rsp_is_console(s))
			continue; /* output while the target runs */
		return rsp_parse_stop(s, info, err);
	}
}

static int op_wait_halt(struct backend *bk, unsigned timeout_ms, struct backend_halt_info *out, struct bench_error *err)
{
	struct rsp_priv *s = priv(bk);
	int rc;

	if (!s->running) {
		uint32_t pc;

		rc = s->pc_valid ? 0 : rsp_read_pc(s, &pc, err);
		if (rc < 0)
			return rc;
		out->reason = BK_HALT_REQUEST;
		out->pc = s->pc;
		return 0;
	}
	if (s->mon_run) {
		rc = rsp_mon_wait(s, timeout_ms, err);
		return rc < 0 ? rc : rsp_classify_trap(s, false, out, err);
	}
	rc = wait_stop(s, clock_now_ms() + timeout_ms, out, err);
	if (rc < 0 && err->kind == BENCH_E_TIMEOUT)
		return bench_fail(err, BENCH_E_TIMEOUT, "target did not halt within %u ms (gdbserver %s)", timeout_ms,
		                  s->link.io.peer);
	return rc;
}

int rsp_op_halt(struct backend *bk, struct bench_error *err)
{
	struct rsp_priv *s = priv(bk);
	struct backend_halt_info info;
	int rc;

	if (!s->running)
		return 0;
	if (s->mon_run)
		return rsp_mon_halt(s, err);
	/* E.8 "Interrupts": a bare 0x03 byte; the server answers with a stop reply. */
	rc = rsp_link_send_byte(&s->link, 0x03, err);
	if (rc < 0)
		return rc;
	rc = wait_stop(s, clock_now_ms() + s->link.timeout_ms, &info, err);
	if (rc < 0 && err->kind == BENCH_E_TIMEOUT)
		return bench_fail(err, BENCH_E_TARGET,
		                  "target did not stop on an interrupt within %u ms (gdbserver %s)", s->link.timeout_ms,
		                  s->link.io.peer);
	return rc;
}

static int send_break(struct rsp_priv *s, char insert, char type, uint32_t addr, struct bench_error *err)
{
	/* Z/z type,addr,kind: kind 2 is a 16-bit Thumb breakpoint (E.2, ARM breakpoint kinds); a TriCore
	 * server takes the same (QEMU ignores kind; the shortest TriCore instruction is 16 bits). */
	return rsp_command(s, err, "%c%c,%x,2", insert, type, (unsigned)addr);
}

/* One instruction with `s` (or vCont;s), waiting for its stop reply. */
static int step_one(struct rsp_priv *s, struct bench_error *err)
{
	struct backend_halt_info info;
	int rc = rsp_link_send(&s->link, s->has_vcont ? "vCont;s" : "s", s->has_vcont ? 7 : 1, err);

	if (rc < 0)
		return rc;
	s->running = true;
	return wait_stop(s, clock_now_ms() + s->link.timeout_ms, &info, err);
}

/* Gets the halted target ready to run from its PC: a planted breakpoint there is lifted over one
 * instruction, a BKPT there is stepped over where the server does not do it itself. */
static int prepare_resume(struct backend *bk, struct bench_error *err)
{
	struct rsp_priv *s = priv(bk);
	uint32_t pc = 0;
	bool bkpt = false, planted;
	char type = '1';
	int rc;

	rc = s->pc_valid ? (pc = s->pc, 0) : rsp_read_pc(s, &pc, err);
	if (rc < 0)
		return rc;
	planted = is_planted(s, pc);
	rc = rsp_is_bkpt(s, pc, &bkpt, err);
	if (rc < 0)
		return rc;
	/* A breakpoint at the PC would fire again at once (servers resume with handle_breakpoints
	 * off, like OpenOCD's gdb_server.c): lift it over one instruction as GDB itself does. */
	if (planted) {
		for (size_t i = 0; i < s->n_breaks; i++)
			if (s->breaks[i].addr == pc)
				type = s->breaks[i].type;
		rc = send_break(s, 'z', type, pc, err);
		if (rc < 0)
			return rc;
	}
	if (bkpt && !s->flavour->continue_skips_bkpt) {
		rc = rsp_op_write_reg(bk, BK_REG_PC, pc + 2, err); /* BKPT is 16 bits (A7.7.17) */
	} else if (planted) {
		rc = step_one(s, err);
	}
	if (rc < 0)
		return rc;
	if (planted) {
		rc = send_break(s, 'Z', type, pc, err);
		if (rc < 0)
			return rc;
		if (strcmp(rsp_reply(s), "OK"))
			return bench_fail(err, BENCH_E_TARGET,
			                  "gdbserver %s refused to re-plant the breakpoint at 0x%08x", s->link.io.peer,
			                  (unsigned)pc);
	}
	return 0;
}

int rsp_op_resume(struct backend *bk, struct bench_error *err)
{
	struct rsp_priv *s = priv(bk);
	int rc;

	if (s->running)
		return 0;
	rc = prepare_resume(bk, err);
	if (rc < 0)
		return rc;
	if (s->flavour->run_cmd)
		return rsp_mon_resume(s, err);
	rc = rsp_link_send(&s->link, s->has_vcont ? "vCont;c" : "c", s->has_vcont ? 7 : 1, err);
	if (rc < 0)
		return rc;
	s->running = true;
	s->pc_valid = false;
	return 0;
}

int rsp_op_reset(struct backend *bk, enum backend_reset mode, struct bench_error *err)
{
	struct rsp_priv *s = bk->priv;
	const struct rsp_flavour *f = s->flavour;
	const char *cmd = mode == BK_RESET_RUN ? f->reset_run : mode == BK_RESET_INIT ? f->reset_init : f->reset_halt;
	char out[512];
	int rc;

	if (s->running) {
		rc = rsp_op_halt(bk, err);
		if (rc < 0)
			return rc;
	}
	rc = rsp_monitor(s, cmd ? cmd : f->reset_halt, out, sizeof(out), err);
	s->pc_valid = false;
	if (rc == 0 && f->reset_keeps_pc)
		rc = rsp_write_pc(s, s->attach_pc, err);
	if (rc < 0)
		return rc;
	/* Reset-and-run is reset-halt then continue everywhere: a server sends a stop reply only for a
	 * run the client started (OpenOCD's `reset run` would leave the next halt unreported). */
	if (mode == BK_RESET_RUN && !cmd)
		return rsp_op_resume(bk, err);
	return 0;
}

/* backend_ops.resume_sample: resume, wait for the halt, read the PC and one word. Where run
 * control goes through monitor commands, resume and wait are one command ("resume; wait_halt"). */
static int op_resume_sample(struct backend *bk, unsigned timeout_ms, uint32_t sample_addr,
                            struct backend_halt_info *out, uint32_t *sample, struct bench_error *err)
{
	struct rsp_priv *s = priv(bk);
	uint8_t b[4];
	int rc;

	if (s->running)
		return bench_fail(err, BENCH_E_TARGET, "resume while the target runs: halt it first");
	rc = prepare_resume(bk, err);
	if (rc == 0 && s->flavour->run_cmd) {
		rc = rsp_mon_resume_wait(s, timeout_ms, err);
		if (rc == 0)
			rc = rsp_classify_trap(s, false, out, err);
	} else if (rc == 0) {
		rc = rsp_op_resume(bk, err);
		if (rc == 0)
			rc = op_wait_halt(bk, timeout_ms, out, err);
	}
	if (rc == 0)
		rc = rsp_read_mem(s, sample_addr, b, 4, err);
	if (rc == 0)
		*sample = le_get32(b);
	return rc;
}

static int op_set_break(struct backend *bk, uint32_t addr, struct bench_error *err)
{
	struct rsp_priv *s = priv(bk);
	char type = s->z1_state >= 0 ? '1' : '0';
	int rc;

	addr &= ~1u;
	if (is_planted(s, addr))
		return 0;
	if (s->n_breaks >= RSP_MAX_BREAKS)
		return bench_fail(err, BENCH_E_UNSUPPORTED, "more than %d breakpoints", RSP_MAX_BREAKS);
	/* Hardware first: firmware in flash cannot take a software BKPT (OpenOCD cortex_m_set_breakpoint). */
	rc = send_break(s, 'Z', type, addr, err);
	if (rc == 0 && type == '1' && s->link.parser.len == 0) {
		s->z1_state = -1;
		type = '0';
		rc = send_break(s, 'Z', type, addr, err);
	}
	if (rc < 0)
		return rc;
	if (strcmp(rsp_reply(s), "OK"))
		return bench_fail(err, BENCH_E_TARGET, "gdbserver %s refused a breakpoint at 0x%08x (\"%.20s\")%s",
		                  s->link.io.peer, (unsigned)addr, rsp_reply(s),
		                  type == '1' ? ": out of hardware breakpoints (FPB comparators)?" : "");
	if (type == '1')
		s->z1_state = 1;
	s->breaks[s->n_breaks++] = (struct rsp_break){.addr = addr, .type = type};
	return 0;
}

static int op_clear_break(struct backend *bk, uint32_t addr, struct bench_error *err)
{
	struct rsp_priv *s = priv(bk);

	addr &= ~1u;
	for (size_t i = 0; i < s->n_breaks; i++) {
		int rc;

		if (s->breaks[i].addr != addr)
			continue;
		rc = send_break(s, 'z', s->breaks[i].type, addr, err);
		if (rc < 0)
			return rc;
		s->breaks[i] = s->breaks[--s->n_breaks];
		if (strcmp(rsp_reply(s), "OK"))
			return bench_fail(err, BENCH_E_TARGET,
			                  "gdbserver %s refused to remove the breakpoint at 0x%08x", s->link.io.peer,
			                  (unsigned)addr);
		return 0;
	}
	return 0;
}

static int op_version(struct backend *bk, char *out, size_t outlen, struct bench_error *err)
{
	(void)err;
	(void)snprintf(out, outlen, "%s", priv(bk)->version);
	return 0;
}

static void op_close(struct backend *bk)
{
	struct rsp_priv *s = priv(bk);
	struct bench_error ignored;

	if (!s)
		return;
	/* Leave the target as found: remove our breakpoints, then detach (D) so the server keeps
	 * running for its next client. Errors are moot here: the connection is going away. */
	if (s->link.io.fd >= 0 && !(s->running && rsp_op_halt(bk, &ignored) < 0)) {
		while (s->n_breaks > 0 && op_clear_break(bk, s->breaks[0].addr, &ignored) == 0)
			;
		if (rsp_link_send(&s->link, "D", 1, &ignored) == 0 &&
		    rsp_link_recv(&s->link, clock_now_ms() + 500, &ignored) < 0)
			s->n_breaks = 0; /* no "OK" to the detach: nothing left to do but close */
	}
	rsp_link_free(&s->link);
	free(s);
	bk->priv = NULL;
}

const struct backend_ops rsp_backend_ops = {
    .name = "gdb-rsp",
    .close = op_close,
    .halt = rsp_op_halt,
    .resume = rsp_op_resume,
    .wait_halt = op_wait_halt,
    .read_mem = rsp_op_read_mem,
    .write_mem = rsp_op_write_mem,
    .read_reg = rsp_op_read_reg,
    .write_reg = rsp_op_write_reg,
    .reset = rsp_op_reset,
    .load = rsp_op_load,
    .set_break = op_set_break,
    .clear_break = op_clear_break,
    .monitor = rsp_op_monitor,
    .version = op_version,
    .resume_sample = op_resume_sample,
};
