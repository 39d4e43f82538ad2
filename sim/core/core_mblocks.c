/* The memory-block rule decided from the registers at a block's entry (core_mblocks.h). */
#include "core/core_internal.h"
#include "core/core_mblocks.h"
#include "timing/cycles_operands.h"

#include <stdlib.h>
#include <string.h>

static const int mblk_ucreg[15] = {UC_ARM_REG_R0,  UC_ARM_REG_R1,  UC_ARM_REG_R2,  UC_ARM_REG_R3, UC_ARM_REG_R4,
                                   UC_ARM_REG_R5,  UC_ARM_REG_R6,  UC_ARM_REG_R7,  UC_ARM_REG_R8, UC_ARM_REG_R9,
                                   UC_ARM_REG_R10, UC_ARM_REG_R11, UC_ARM_REG_R12, UC_ARM_REG_SP, UC_ARM_REG_LR};

/* One uc_reg_read_batch's ids and destinations in c->mb_v for the registers in mask (and xPSR
 * with flags). */
static struct mblk_reads *compile_reads(struct sim_core *c, uint16_t mask, bool flags)
{
	struct mblk_reads *r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	for (unsigned m = mask; m; m &= m - 1u) {
		unsigned reg = (unsigned)__builtin_ctz(m);
		r->ids[r->n] = mblk_ucreg[reg];
		r->ptrs[r->n++] = &c->mb_v[reg];
	}
	if (flags) {
		r->ids[r->n] = UC_ARM_REG_XPSR;
		r->ptrs[r->n++] = &c->mb_v[MBLK_FLAGS_SLOT];
	}
	return r;
}

/* Work done once rather than at every entry: the register reads, and which pairs can cross at all
 * (a pipelined load whose load before it is no step, its address unknown, never charges). */
int mblk_compile(struct sim_core *c, struct mblk_prog *p)
{
	p->reads = compile_reads(c, p->entry_regs, p->entry_flags);
	p->exit_reads = compile_reads(c, p->exit_regs, false);
	if (!p->reads || !p->exit_reads)
		return -1;
	p->ua_only = true;
	for (unsigned k = 0; k < p->n_steps; k++) {
		const struct mblk_step *s = &p->steps[k];
		if (s->kind != MBLK_LOAD || s->ua < 0 || s->cond || s->lazy || s->pair >= 0)
			p->ua_only = false;
	}
	int last_idx = -2;
	struct mblk_step *last = NULL;
	for (unsigned k = 0; k < p->n_steps; k++) {
		struct mblk_step *s = &p->steps[k];
		if (s->kind != MBLK_LOAD)
			continue;
		if (last_idx != (int)s->idx - 1)
			s->pair = -1;
		if (s->pair >= 0) /* it and the load before need their memory blocks */
			s->need_blk = last->need_blk = 1;
		last_idx = s->idx;
		last = s;
	}
	return 0;
}

unsigned mblk_block_of(const struct sim_core *c, uint32_t addr)
{
	for (unsigned k = 0; k < c->soc.n_mem_blocks; k++)
		if (addr - c->soc.mem_blocks[k].base < c->soc.mem_blocks[k].size)
			return k + 1u;
	return 0;
}

/* An MBLK_SET's result. */
static uint32_t operate(const struct mblk_step *s, const uint32_t *v)
{
	uint32_t op2 = (v[s->rm] << s->lshift) + (s->op == MBLK_ADD ? 0u : (uint32_t)s->imm);
	switch (s->op) {
	case MBLK_RSB:
		return op2 - v[s->rn];
	case MBLK_AND:
		return v[s->rn] & op2;
	case MBLK_ORR:
		return v[s->rn] | op2;
	case MBLK_EOR:
		return v[s->rn] ^ op2;
	case MBLK_BIC:
		return v[s->rn] & ~op2;
	default: /* MBLK_ADD: the immediate already carries the sign (second_operand) */
		return v[s->rn] + (s->sign < 0 ? 0u - op2 : op2) + (uint32_t)s->imm;
	}
}

/* NZCV (bits 31..28) of a - b (CMP) or a + b (CMN): Armv7-M ARM A2.2.1 AddWithCarry. */
static uint32_t compare_flags(uint32_t a, uint32_t b, bool sub)
{
	uint32_t r = sub ? a - b : a + b;
	bool c = sub ? a >= b : r < a;
	bool v = sub ? ((a ^ b) & (a ^ r)) >> 31 : (~(a ^ b) & (a ^ r)) >> 31;
	return (r & 0x80000000u) | (r == 0 ? 1u << 30 : 0u) | (c ? 1u << 29 : 0u) | (v ? 1u << 28 : 0u);
}

/* Does capstone condition cc (ARM_CC_EQ..ARM_CC_LE) hold for NZCV (Armv7-M ARM A7.3, table
 * A7-1)? */
static bool holds(unsigned cc, uint32_t nzcv)
{
	bool n = nzcv >> 31 & 1u, z = nzcv >> 30 & 1u, c = nzcv >> 29 & 1u, v = nzcv >> 28 & 1u;
	switch (cc) {
	case ARM_CC_EQ:
		return z;
	case ARM_CC_NE:
		return !z;
	case ARM_CC_HS:
		return c;
	case ARM_CC_LO:
		return !c;
	case ARM_CC_MI:
		return n;
	case ARM_CC_PL:
		return !n;
	case ARM_CC_VS:
		return v;
	case ARM_CC_VC:
		return !v;
	case ARM_CC_HI:
		return c && !z;
	case ARM_CC_LS:
		return !c || z;
	case ARM_CC_GE:
		return n == v;
	case ARM_CC_LT:
		return n != v;
	case ARM_CC_GT:
		return !z && n == v;
	case ARM_CC_LE:
		return z || n != v;
	default:
		return true;
	}
}

/* Reads the registers r names into c->mb_v; false when unicorn refuses. */
static inline __attribute__((always_inline)) bool read_regs(struct sim_core *c, const struct mblk_reads *r)
{
	return !r->n || uc_reg_read_batch(c->uc, (int *)r->ids, (void **)r->ptrs, (int)r->n) == UC_ERR_OK;
}

static uint32_t address(const struct mblk_step *s, const uint32_t *v)
{
	uint32_t x = v[s->rm] << s->lshift;
	return v[s->rn] + (s->sign < 0 ? (uint32_t)-x : x) + (uint32_t)s->imm;
}

/* An access the unaligned rule decides (TRM 3.3.2): its extra cycles into p->ua_extra. */
static void note_unaligned(struct sim_core *c, struct mblk_prog *p, const struct mblk_step *s, uint32_t ea)
{
	unsigned extra = cyc_unaligned_extra(s->size, ea);
	if (!extra || p->ua_extra[s->ua])
		return; /* aligned, or counted already (mblk_exit may run twice) */
	p->ua_extra[s->ua] = (uint8_t)extra;
	p->ua_dirty = true;
	c->mb_cycles += extra;
	c->ua_cycles += extra;
}

/* A lazy step (mblk_step) found unaligned: from now on b's code hook decides it, the entry no
 * longer does (the caller translates b again before it runs: blk_hooks_missing). */
static void make_hooked(struct core_blk *b, struct mblk_step *s)
{
	struct mblk_prog *p = &b->mb;
	s->ua = -1;
	s->lazy = 0;
	for (unsigned k = 0; k < p->n_ua_hook; k++)
		if (p->ua_hook[k] == s->idx)
			return;
	p->ua_hook[p->n_ua_hook++] = s->idx;
	b->hooked_ua = false;
}

void mblk_decide(struct sim_core *c, struct core_blk *b)
{
	struct mblk_prog *p = &b->mb;
	/* The program's registers (MBLK_NONE reads 0) and, in MBLK_FLAGS_SLOT, APSR.NZCV in bits
	 * 31..28 as xPSR holds them. */
	uint32_t *v = c->mb_v;
	c->mb_for = b;
	c->mb_mask = 0;
	c->mb_cycles = c->ua_cycles = 0;
	if (__builtin_expect(p->ua_dirty, 0)) { /* the last run's unaligned accesses */
		memset(p->ua_extra, 0, p->n_ua);
		p->ua_dirty = false;
	}
	if (!p->n_steps || !read_regs(c, p->reads))
		return;
	if (p->ua_only) { /* accesses only, unconditional: most blocks */
		for (unsigned k = 0; k < p->n_steps; k++) {
			const struct mblk_step *s = &p->steps[k];
			uint32_t x = address(s, v);
			if (__builtin_expect(x & (s->size - 1u), 0))
				note_unaligned(c, p, s, x);
		}
		return;
	}
	uint32_t nzcv = v[MBLK_FLAGS_SLOT];
	unsigned last_blk = 0;
	uint32_t mask = 0;
	for (unsigned k = 0; k < p->n_steps; k++) {
		struct mblk_step *s = &p->steps[k];
		if (s->kind == MBLK_SET) {
			if (!s->cond || holds(s->cond, nzcv))
				v[s->rd] = operate(s, v);
			continue;
		}
		if (s->kind == MBLK_FLAGS) {
			nzcv = compare_flags(v[s->rn], (v[s->rm] << s->lshift) + (uint32_t)s->imm, s->sign < 0);
			continue;
		}
		uint32_t x = address(s, v);
		if (__builtin_expect(s->ua >= 0 && (x & (s->size - 1u)), 0)) {
			if (s->lazy)
				make_hooked(b, s);
			else if (!s->cond || holds(s->cond, nzcv))
				note_unaligned(c, p, s, x);
		}
		if (!s->need_blk)
			continue;
		unsigned blk = mblk_block_of(c, x);
		/* compile() left pair set only where the load before is the previous step */
		if (s->pair >= 0 && blk && last_blk && blk != last_blk) {
			mask |= 1u << s->pair;
			c->mb_cycles++;
		}
		last_blk = blk;
	}
	c->mb_mask = mask;
}

void mblk_exit(struct sim_core *c, struct core_blk *b, unsigned upto)
{
	struct mblk_prog *p = &b->mb;
	const uint32_t *v = c->mb_v;
	if (c->mb_for != b || !read_regs(c, p->exit_reads))
		return;
	for (unsigned k = 0; k < p->n_exit; k++) {
		const struct mblk_step *s = &p->exit_steps[k];
		uint32_t x = address(s, v);
		if (s->adj_at != MBLK_NO_ADJ && upto <= s->adj_at) /* stopped before that ADD ran */
			x += (uint32_t)s->imm_pre - (uint32_t)s->imm;
		if (s->idx < upto && (x & (s->size - 1u)))
			note_unaligned(c, p, s, x);
	}
}

uint32_t mblk_ua_before(const struct sim_core *c, const struct core_blk *b, unsigned i)
{
	uint32_t n = 0;
	for (unsigned k = 0; c->ua_cycles && k < b->mb.n_ua; k++)
		if (b->mb.ua_idx[k] < i)
			n += b->mb.ua_extra[k];
	return n;
}

uint32_t mblk_extra_before(const struct sim_core *c, const struct core_blk *b, unsigned i)
{
	if (c->mb_for != b)
		return 0;
	uint32_t n = mblk_ua_before(c, b, i);
	for (unsigned k = 0; c->mb_mask && k < b->mb.n_pairs; k++)
		n += (c->mb_mask >> k & 1u) && b->mb.pair_idx[k] < i;
	return n;
}
