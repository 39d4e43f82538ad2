/* The GDB RSP backend's registers (GDB manual E.4 "Packets" p/P, g/G): by the target
 * description's numbers (gdb_rsp_tdesc.c), through p/P or, where a server lacks them, through the
 * whole g/G block. gdb_rsp.c reads and writes the PC through here for its stop replies and resets;
 * nothing here calls back into gdb_rsp.c. */
#include <stdlib.h>
#include <string.h>

#include "transport/gdb_rsp_priv.h"
#include "base/le.h"

static struct rsp_priv *priv(struct backend *bk)
{
	return bk->priv;
}

/* ---- registers: p/P by the description's numbers, g/G where a server lacks p (E.4) ---- */

static int g_offset(struct rsp_priv *s, int regnum, size_t *off, unsigned *bytes)
{
	size_t o = 0;
	bool found = false;

	*bytes = 0;

	for (size_t i = 0; i < s->tdesc.n_regs; i++) {
		/* whole bytes per register, also for OpenOCD's 1/2/8-bit primask, control, basepri */
		if (s->tdesc.regs[i].regnum < regnum)
			o += (s->tdesc.regs[i].bitsize + 7) / 8;
		if (s->tdesc.regs[i].regnum == regnum) {
			*bytes = (s->tdesc.regs[i].bitsize + 7) / 8;
			found = true;
		}
	}
	*off = o;
	return found ? 0 : -1;
}

static int reg_regnum(struct rsp_priv *s, enum backend_reg reg, struct bench_error *err)
{
	if ((unsigned)reg > BK_REG_PSP || s->tdesc.map[reg] < 0)
		return bench_fail(err, BENCH_E_UNSUPPORTED, "gdbserver %s has no register %d in its target description",
		                  s->link.io.peer, (int)reg);
	return s->tdesc.map[reg];
}

/* Register n through the g packet (a server without p/P): fetches g into rsp_reply(s) and finds n's
 * byte offset in it, checking the reply covers n's four bytes. Returns 0 or a negated bench_err. */
static int fetch_g(struct rsp_priv *s, int n, size_t *off, struct bench_error *err)
{
	unsigned bytes;
	int rc;

	if (g_offset(s, n, off, &bytes) < 0 || bytes < 4)
		return bench_fail(err, BENCH_E_PROTOCOL, "register %d is not in gdbserver %s's g packet layout", n,
		                  s->link.io.peer);
	rc = rsp_command(s, err, "g");
	if (rc < 0)
		return rc;
	if (s->link.parser.len < 2 * (*off + 4))
		return bench_fail(err, BENCH_E_PROTOCOL, "short g reply from %s (\"%.20s\")", s->link.io.peer,
		                  rsp_reply(s));
	return 0;
}

static int read_regnum(struct rsp_priv *s, int n, uint32_t *value, struct bench_error *err)
{
	uint8_t b[4];
	size_t off;
	int rc;

	*value = 0;
	if (s->p_state >= 0) {
		rc = rsp_command(s, err, "p%x", (unsigned)n);
		if (rc < 0)
			return rc;
		if (s->link.parser.len >= 8 && rsp_hex_decode(rsp_reply(s), b, 4) == 0) {
			s->p_state = 1;
			*value = le_get32(b);
			return 0;
		}
		if (s->link.parser.len != 0 || s->p_state == 1)
			return bench_fail(err, BENCH_E_TARGET, "gdbserver %s cannot read register %d (\"%.20s\")",
			                  s->link.io.peer, n, rsp_reply(s));
		s->p_state = -1;
	}
	if ((rc = fetch_g(s, n, &off, err)))
		return rc;
	if (rsp_hex_decode(rsp_reply(s) + 2 * off, b, 4) != 0)
		return bench_fail(err, BENCH_E_PROTOCOL, "bad g reply from %s (\"%.20s\")", s->link.io.peer,
		                  rsp_reply(s));
	*value = le_get32(b);
	return 0;
}

static int write_regnum(struct rsp_priv *s, int n, uint32_t v, struct bench_error *err)
{
	uint8_t b[4];
	char hex[9];
	size_t off;
	int rc;

	le_put32(b, v);
	rsp_hex_encode(b, 4, hex);
	if (s->p_state >= 0) {
		rc = rsp_command(s, err, "P%x=%s", (unsigned)n, hex);
		if (rc < 0)
			return rc;
		if (!strcmp(rsp_reply(s), "OK"))
			return 0;
		if (s->link.parser.len != 0)
			return bench_fail(err, BENCH_E_TARGET, "gdbserver %s refused to write register %d (\"%.20s\")",
			                  s->link.io.peer, n, rsp_reply(s));
		s->p_state = -1;
	}
	if ((rc = fetch_g(s, n, &off, err)))
		return rc;
	{
		size_t glen = s->link.parser.len;
		char *pkt = malloc(glen + 2);

		if (!pkt)
			return bench_fail(err, BENCH_E_NOMEM, "out of memory for a G packet");
		pkt[0] = 'G';
		memcpy(pkt + 1, rsp_reply(s), glen);
		memcpy(pkt + 1 + 2 * off, hex, 8);
		/* QEMU's TriCore G stores the A0-A15 slots (16-31) into D0-D15: repeat the D values there. */
		if (s->flavour->g_a_slots_to_d && glen >= 2 * 32 * 4)
			memcpy(pkt + 1 + 2 * 16 * 4, pkt + 1, 2 * 16 * 4);
		rc = rsp_exchange(s, pkt, glen + 1, err);
		free(pkt);
	}
	if (rc < 0)
		return rc;
	if (strcmp(rsp_reply(s), "OK"))
		return bench_fail(err, BENCH_E_TARGET, "gdbserver %s refused G (\"%.20s\")", s->link.io.peer,
		                  rsp_reply(s));
	return 0;
}

int rsp_write_pc(struct rsp_priv *s, uint32_t pc, struct bench_error *err)
{
	int rc = write_regnum(s, s->tdesc.map[BK_REG_PC], pc, err);

	s->pc = pc;
	s->pc_valid = rc == 0;
	return rc;
}

int rsp_read_pc(struct rsp_priv *s, uint32_t *pc, struct bench_error *err)
{
	int rc = read_regnum(s, s->tdesc.map[BK_REG_PC], pc, err);

	if (rc == 0) {
		s->pc = *pc;
		s->pc_valid = true;
	}
	return rc;
}

int rsp_op_read_reg(struct backend *bk, enum backend_reg reg, uint32_t *value, struct bench_error *err)
{
	struct rsp_priv *s = priv(bk);
	int n = reg_regnum(s, reg, err);

	if (s->running)
		return bench_fail(err, BENCH_E_TARGET, "register read while the target runs: halt it first");
	if (n < 0)
		return n;
	if (reg == BK_REG_PC && s->pc_valid) {
		*value = s->pc;
		return 0;
	}
	return reg == BK_REG_PC ? rsp_read_pc(s, value, err) : read_regnum(s, n, value, err);
}

int rsp_op_write_reg(struct backend *bk, enum backend_reg reg, uint32_t value, struct bench_error *err)
{
	struct rsp_priv *s = priv(bk);
	int n = reg_regnum(s, reg, err), rc;

	if (s->running)
		return bench_fail(err, BENCH_E_TARGET, "register write while the target runs: halt it first");
	if (n < 0)
		return n;
	rc = write_regnum(s, n, value, err);
	if (reg == BK_REG_PC) {
		s->pc = value;
		s->pc_valid = rc == 0;
	}
	return rc;
}
