/* Painting and scanning the stack from the host (run/loop_stack.h). The stack is full descending
 * (Armv7-M ARM B1.5.6): SP points at the last word pushed, so [limit, SP) is free at BEGIN and
 * anything the stretch pushes, exception frames included (B1.5.6 "Exception entry behavior"), lands
 * there. */
#include "run/loop_stack.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/le.h"
#include "firmware/code_size.h"
#include "results/results.h"
#include "transport/backend.h"

static int region(struct loop *c, const char *where, uint32_t sp, uint32_t *len)
{
	uint32_t limit = c->cfg->stack_limit;

	if (sp <= limit)
		return bench_fail(c->err, BENCH_E_USAGE,
		                  "--stack: the stack limit 0x%08" PRIx32 " (%s) is not below the stack pointer "
		                  "0x%08" PRIx32 " at %s: give --stack-limit the lowest address the stack may reach",
		                  limit, c->cfg->stack_limit_from, sp, where);
	*len = (sp - limit) & ~3u;
	if (*len > LOOP_STACK_MAX_BYTES)
		return bench_fail(c->err, BENCH_E_USAGE,
		                  "--stack: the stack limit 0x%08" PRIx32 " (%s) is %" PRIu32 " bytes below the stack "
		                  "pointer 0x%08" PRIx32 " at %s, more than the %u bench paints: give a --stack-limit "
		                  "closer to SP",
		                  limit, c->cfg->stack_limit_from, sp - limit, sp, where, LOOP_STACK_MAX_BYTES);
	return 0;
}

/* The exact method paints nothing: only the limit's place is checked. */
static int region_check(struct loop *c, const char *where, uint32_t sp)
{
	if (sp > c->cfg->stack_limit)
		return 0;
	return bench_fail(c->err, BENCH_E_USAGE,
	                  "--stack: the stack limit 0x%08" PRIx32 " (%s) is not below the stack pointer "
	                  "0x%08" PRIx32 " at %s: give --stack-limit the lowest address the stack may reach",
	                  c->cfg->stack_limit, c->cfg->stack_limit_from, sp, where);
}

static uint8_t *painted(uint32_t len)
{
	uint8_t *buf = malloc(len ? len : 1);

	for (uint32_t i = 0; buf && i < len; i += 4)
		le_put32(buf + i, LOOP_STACK_PATTERN);
	return buf;
}

/* The board took the write without an error but the RAM does not hold the pattern (memory that
 * ignores the debugger's writes, a region the firmware's MPU or a bus master keeps writing). */
static int check_back(struct loop *c, uint32_t len)
{
	uint8_t *back = malloc(len ? len : 1);
	int rc;

	if (!back)
		return bench_fail(c->err, BENCH_E_NOMEM, "out of memory painting the stack: drop --stack");
	rc = backend_read_mem(c->bk, c->cfg->stack_limit, back, len, c->err);
	for (uint32_t i = 0; !rc && i < len; i += 4)
		if (le_get32(back + i) != LOOP_STACK_PATTERN)
			rc = bench_fail(c->err, BENCH_E_TARGET,
			                "--stack: painted the stack from 0x%08" PRIx32 " but 0x%08" PRIx32
			                " reads back 0x%08" PRIx32 ": bench cannot write the board's RAM there; "
			                "give --stack-limit inside writable RAM or drop --stack",
			                c->cfg->stack_limit, c->cfg->stack_limit + i, le_get32(back + i));
	free(back);
	return rc;
}

int loop_stack_paint(struct loop *c, const char *where, uint32_t *sp)
{
	uint32_t len = 0;
	uint8_t *buf;
	int rc;

	if ((rc = backend_read_reg(c->bk, BK_REG_SP, sp, c->err)) || (rc = region(c, where, *sp, &len)))
		return rc;
	if (!(buf = painted(len)))
		return bench_fail(c->err, BENCH_E_NOMEM, "out of memory painting the stack: drop --stack");
	rc = backend_write_mem(c->bk, c->cfg->stack_limit, buf, len, c->err);
	free(buf);
	if (rc && c->err->kind == BENCH_E_TARGET) {
		char why[sizeof(c->err->msg)];
		memcpy(why, c->err->msg, sizeof(why));
		return bench_fail(c->err, BENCH_E_TARGET,
		                  "--stack: cannot paint the stack from 0x%08" PRIx32 " to 0x%08" PRIx32
		                  " (%s): bench cannot write the board's RAM there; give --stack-limit inside "
		                  "writable RAM or drop --stack",
		                  c->cfg->stack_limit, *sp, why);
	}
	if (rc || c->stack_checked)
		return rc;
	c->stack_checked = true;
	return check_back(c, len);
}

int loop_stack_scan(struct loop *c, uint32_t sp, bool exception, struct loop_stack_fig *out)
{
	uint32_t len = (sp - c->cfg->stack_limit) & ~3u, i;
	uint8_t *buf = malloc(len ? len : 1);
	int rc;

	if (!buf)
		return bench_fail(c->err, BENCH_E_NOMEM, "out of memory scanning the stack: drop --stack");
	if ((rc = backend_read_mem(c->bk, c->cfg->stack_limit, buf, len, c->err))) {
		free(buf);
		return rc;
	}
	/* The lowest word the stretch changed: its depth is from there up to SP at BEGIN. A word the
	 * stretch wrote with the pattern's own value reads as unused, as in every painting method. */
	for (i = 0; i < len && le_get32(buf + i) == LOOP_STACK_PATTERN; i += 4)
		;
	free(buf);
	out->flags = exception ? BENCH_STACK_EXCEPTION : 0;
	out->bytes = len - i;
	if (len && i == 0) {
		out->flags |= BENCH_STACK_OVERFLOW; /* the limit word changed: it may have gone further */
		out->bytes = 0;
	}
	return 0;
}

/* A figure from a lowest SP: reaching the limit is a possible overflow, as with paint. */
static void exact_fig(const struct loop *c, uint32_t sp, uint32_t lowest, bool exception, struct loop_stack_fig *out)
{
	out->has_stack = true;
	out->flags = exception ? BENCH_STACK_EXCEPTION : 0;
	out->bytes = lowest < sp ? sp - lowest : 0;
	if (lowest <= c->cfg->stack_limit) {
		out->flags |= BENCH_STACK_OVERFLOW;
		out->bytes = 0;
	}
}

int loop_stack_begin(struct loop *c, const char *where, struct loop_pending *p)
{
	uint32_t msp = 0;
	int rc;

	p->painted = !c->cur_warm && (c->cfg->o->stack || (c->cfg->code_img && c->hooks->measures_record));
	if (!p->painted || !c->cfg->o->stack)
		return 0;
	if (!c->cfg->stack_exact)
		return loop_stack_paint(c, where, &p->sp);
	/* Which stack the stretch runs on: SP is MSP in Handler mode or with CONTROL.SPSEL 0 (Armv7-M
	 * ARM B1.4.1); exceptions always stack on MSP, so with PSP their frames are not in the figure. */
	if ((rc = backend_read_reg(c->bk, BK_REG_SP, &p->sp, c->err)) ||
	    (rc = backend_read_reg(c->bk, BK_REG_MSP, &msp, c->err)))
		return rc;
	p->on_msp = msp == p->sp;
	return region_check(c, where, p->sp);
}

int loop_stack_end(struct loop *c, const struct loop_pending *p, uint32_t from, uint32_t to, bool exception,
                   struct loop_stack_fig *out)
{
	struct loop_record rec = {0};
	int rc;

	memset(out, 0, sizeof(*out));
	if (!p->painted)
		return 0;
	if (c->cfg->o->stack && !c->cfg->stack_exact) {
		out->has_stack = true;
		if ((rc = loop_stack_scan(c, p->sp, exception, out)) || !c->cfg->code_img)
			return rc;
	}
	if ((rc = c->hooks->measures_record(c->hooks->meas_ctx, &rec, c->err)))
		return rc;
	if (c->cfg->o->stack && c->cfg->stack_exact)
		exact_fig(c, p->sp, p->on_msp ? rec.msp_min : rec.psp_min, exception, out);
	if (c->cfg->code_img) {
		out->has_code = true;
		return code_size_executed(c->cfg->code_img, c->cfg->elf, rec.pcs, rec.n_pcs, from, to, &out->code,
		                          c->err);
	}
	return 0;
}
