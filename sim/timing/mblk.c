/* The memory-block rule's program (mblk.h), built from a block's decoded instructions: pure
 * analysis of capstone's detail and the cycle model's flags, no unicorn, no core. The core runs it
 * at each entry (core/core_mblocks.c). */
#include "timing/mblk.h"
#include "timing/cycles_operands.h"

#include <stdlib.h>
#include <string.h>

/* Register number of a capstone core register: 0..12, 13 SP, 14 LR; -1 for any other (PC too). */
static int reg_num(unsigned capreg)
{
	int r = cyc_core_reg((int)capreg);
	return r == 15 ? -1 : r;
}

static uint16_t reg_bit(unsigned capreg)
{
	int r = reg_num(capreg);
	return r < 0 ? 0 : (uint16_t)(1u << r);
}

/* PUSH, POP, VPUSH, VPOP: a register list moved through SP, which they always write back. */
static bool stack_list(unsigned id)
{
	return id == ARM_INS_PUSH || id == ARM_INS_POP || id == ARM_INS_VPUSH || id == ARM_INS_VPOP;
}

/* The core registers an instruction writes, explicitly or not (write-back bases, LDM lists, SP of
 * PUSH/POP); all of them when capstone cannot tell. mo: its memory operation, or NULL. */
static uint16_t regs_written(csh cs, const cs_insn *in, const struct cyc_memop *mo)
{
	cs_regs rd, wr;
	uint8_t n_rd = 0, n_wr = 0;
	if (cs_regs_access(cs, in, rd, &n_rd, wr, &n_wr) != CS_ERR_OK)
		return 0x7FFFu;
	uint16_t m = 0;
	for (unsigned k = 0; k < n_wr; k++)
		m |= reg_bit(wr[k]);
	/* capstone 4.0.2 leaves SP out of VPUSH/VPOP's writes; a written-back base is added for any
	 * instruction it might leave out the same way. */
	const cs_arm *a = &in->detail->arm;
	if (mo && (a->writeback || stack_list(in->id)))
		m |= reg_bit(mo->base);
	else if (a->writeback && a->op_count && a->operands[0].type == ARM_OP_REG)
		m |= reg_bit(a->operands[0].reg); /* VLDM/VSTM (no memory operation): the base first */
	return m;
}

void mblk_begin(struct mblk_build *bd, struct mblk_prog *prog, const struct cyc_block *cb, bool pairs, bool ua,
                unsigned (*block_of)(const void *ctx, uint32_t addr), const void *ctx)
{
	*bd = (struct mblk_build){.prog = prog, .cb = cb, .block_of = block_of, .ctx = ctx, .pairs = pairs, .ua = ua};
	*prog = (struct mblk_prog){0};
	if (!pairs && !ua) {
		bd->failed = true; /* both rules off, or their hooks apply them */
		return;
	}
	unsigned pipelined = 0;
	for (unsigned i = 0; pairs && i < cb->n_insn; i++)
		pipelined += (cb->dyn[i] & CYC_DYN_PIPELINED) != 0;
	if (!pipelined && !ua) {
		bd->failed = true; /* nothing to decide: no program */
		return;
	}
	bd->pairs = pipelined != 0;
	/* At most an access and a register update per instruction. */
	unsigned n = cb->n_insn ? cb->n_insn : 1u;
	bd->cap = 2u * n;
	prog->steps = calloc(bd->cap, sizeof(*prog->steps));
	prog->pair_idx = calloc(32u, sizeof(*prog->pair_idx));
	prog->ua_idx = calloc(n, sizeof(*prog->ua_idx));
	prog->ua_extra = calloc(n, sizeof(*prog->ua_extra));
	prog->exit_steps = calloc(n, sizeof(*prog->exit_steps));
	prog->ua_hook = calloc(n, sizeof(*prog->ua_hook));
	bd->exit_src = calloc(n, sizeof(*bd->exit_src));
	if (!prog->steps || !prog->pair_idx || !prog->ua_idx || !prog->ua_extra || !prog->exit_steps ||
	    !prog->ua_hook || !bd->exit_src) {
		free(bd->exit_src);
		bd->exit_src = NULL;
		mblk_free(prog);
		bd->failed = true;
		bd->oom = true;
	}
}

unsigned mblk_ua_size(const cs_insn *in, const struct cyc_memop *mo)
{
	switch (in->id) {
	case ARM_INS_LDR:
	case ARM_INS_LDRH:
	case ARM_INS_LDRSH:
	case ARM_INS_STR:
	case ARM_INS_STRH:
	case ARM_INS_LDRT:
	case ARM_INS_LDRHT:
	case ARM_INS_LDRSHT:
	case ARM_INS_STRT:
	case ARM_INS_STRHT:
		break;
	default:
		return 0; /* LDRD, LDM, LDREX, VLDR...: alignment-faulting (A3.2.1); bytes always aligned */
	}
	if (!mo || (mo->span != 2u && mo->span != 4u))
		return 0;
	if (mo->base == ARM_REG_SP && !mo->index && (uint32_t)mo->disp % mo->span == 0)
		return 0;
	if (mo->base == ARM_REG_PC && !mo->index &&
	    cyc_unaligned_extra(mo->span, (((uint32_t)in->address + 4u) & ~3u) + (uint32_t)mo->disp) == 0)
		return 0;
	return mo->span;
}

/* A register operand usable as x << n (no shift, or LSL by an immediate). */
static bool plain_or_lsl(const cs_arm_op *op)
{
	return op->shift.type == ARM_SFT_INVALID || (op->shift.type == ARM_SFT_LSL && op->shift.value < 32u);
}

/* rm (shifted) or an immediate as the second operand of s; false when neither fits. */
static bool second_operand(const cs_arm_op *op, int sign, struct mblk_step *s)
{
	if (op->type == ARM_OP_IMM) {
		/* In uint32_t: `sub r0, r1, #0x80000000` has imm INT_MIN. */
		uint32_t v = (uint32_t)op->imm;
		s->imm = (int32_t)((uint32_t)s->imm + (sign < 0 ? 0u - v : v));
		return true;
	}
	if (op->type != ARM_OP_REG || reg_num(op->reg) < 0 || !plain_or_lsl(op))
		return false;
	s->rm = (uint8_t)reg_num(op->reg);
	s->lshift = (uint8_t)(op->shift.type == ARM_SFT_LSL ? op->shift.value : 0u);
	s->sign = (int8_t)sign;
	return true;
}

/* A single load's address (LDR-class, VLDR) from the block's memory operation: base (PC: the
 * literal's address) + disp, or + index. */
static bool load_address(const cs_insn *in, const struct cyc_memop *mo, struct mblk_step *s)
{
	*s = (struct mblk_step){.kind = MBLK_LOAD, .rn = MBLK_NONE, .rm = MBLK_NONE, .sign = 1};
	if (mo->base == ARM_REG_PC) {
		s->imm = (int32_t)(((uint32_t)in->address + 4u) & ~3u) + mo->disp;
		return !mo->index;
	}
	if (reg_num(mo->base) < 0 || (mo->index && reg_num(mo->index) < 0))
		return false;
	s->rn = (uint8_t)reg_num(mo->base);
	s->imm = mo->disp;
	if (mo->index) {
		s->rm = (uint8_t)reg_num(mo->index);
		s->lshift = mo->lshift;
		s->sign = mo->scale;
	}
	return true;
}

/* The ALU operations the program follows besides MOV: the step's operation and op2's sign. */
static bool alu_op(unsigned id, uint8_t *op, int *sign)
{
	static const struct {
		unsigned id;
		uint8_t op;
		int sign;
	} ops[] = {{ARM_INS_ADD, MBLK_ADD, 1},   {ARM_INS_ADDW, MBLK_ADD, 1}, {ARM_INS_SUB, MBLK_ADD, -1},
	           {ARM_INS_SUBW, MBLK_ADD, -1}, {ARM_INS_RSB, MBLK_RSB, 1},  {ARM_INS_AND, MBLK_AND, 1},
	           {ARM_INS_ORR, MBLK_ORR, 1},   {ARM_INS_EOR, MBLK_EOR, 1},  {ARM_INS_BIC, MBLK_BIC, 1}};
	for (unsigned k = 0; k < sizeof(ops) / sizeof(ops[0]); k++)
		if (ops[k].id == id) {
			*op = ops[k].op;
			*sign = ops[k].sign;
			return true;
		}
	return false;
}

/* A register update the program can follow: MOV and alu_op()'s operations with an immediate or a
 * register shifted left; a write-back base, from the memory operation mo: a single load or store's
 * (pre-indexed: + disp; post-indexed: + the immediate after it), or a list's (PUSH/POP/VPUSH/VPOP,
 * LDM/STM: by the list's size, down or up; not when the list holds the base, UNPREDICTABLE). */
static bool update(const cs_insn *in, const struct cyc_memop *mo, struct mblk_step *s)
{
	const cs_arm *a = &in->detail->arm;
	*s = (struct mblk_step){.kind = MBLK_SET, .rn = MBLK_NONE, .rm = MBLK_NONE, .sign = 1, .pair = -1};
	if (mo) {
		bool list = stack_list(in->id) || in->id == ARM_INS_LDM || in->id == ARM_INS_STM ||
		            in->id == ARM_INS_LDMDB || in->id == ARM_INS_STMDB;
		if (!(a->writeback || stack_list(in->id)) || reg_num(mo->base) < 0 || mo->index)
			return false;
		s->rd = s->rn = (uint8_t)reg_num(mo->base);
		if (!list) {
			const cs_arm_op *last = &a->operands[a->op_count - 1];
			s->imm = last->type == ARM_OP_IMM ? last->imm : mo->disp;
			return true;
		}
		for (unsigned k = stack_list(in->id) ? 0u : 1u; k < a->op_count; k++)
			if (a->operands[k].reg == mo->base)
				return false;
		s->imm = (int32_t)(mo->down ? 0u - mo->span : mo->span);
		return true;
	}
	uint8_t op;
	int sign;
	if (a->op_count < 2 || a->operands[0].type != ARM_OP_REG || reg_num(a->operands[0].reg) < 0)
		return false;
	s->rd = (uint8_t)reg_num(a->operands[0].reg);
	if (in->id == ARM_INS_MOV)
		return a->op_count == 2 && second_operand(&a->operands[1], 1, s);
	if (!alu_op(in->id, &op, &sign))
		return false;
	const cs_arm_op *rn = a->op_count == 2 ? &a->operands[0] : &a->operands[1];
	if (a->op_count > 3 || rn->type != ARM_OP_REG || reg_num(rn->reg) < 0 || rn->shift.type != ARM_SFT_INVALID)
		return false;
	s->op = op;
	s->rn = (uint8_t)reg_num(rn->reg);
	return second_operand(&a->operands[a->op_count - 1], sign, s);
}

/* CMP or CMN with a register and an immediate or a register shifted left: a flags step. */
static bool compare(const cs_insn *in, struct mblk_step *s)
{
	const cs_arm *a = &in->detail->arm;
	*s = (struct mblk_step){.kind = MBLK_FLAGS, .rn = MBLK_NONE, .rm = MBLK_NONE, .sign = 1, .pair = -1};
	if ((in->id != ARM_INS_CMP && in->id != ARM_INS_CMN) || a->op_count != 2 || a->operands[0].type != ARM_OP_REG ||
	    reg_num(a->operands[0].reg) < 0 || a->operands[0].shift.type != ARM_SFT_INVALID)
		return false;
	s->rn = (uint8_t)reg_num(a->operands[0].reg);
	if (!second_operand(&a->operands[1], 1, s))
		return false;
	s->sign = (int8_t)(in->id == ARM_INS_CMP ? -1 : 1);
	return true;
}

/* Instructions that change the condition flags in a way the program does not follow. */
static bool sets_flags(const cs_insn *in)
{
	const cs_arm *a = &in->detail->arm;
	return a->update_flags || in->id == ARM_INS_MSR || in->id == ARM_INS_VMRS || in->id == ARM_INS_TST ||
	       in->id == ARM_INS_TEQ || in->id == ARM_INS_CMP || in->id == ARM_INS_CMN;
}

/* The registers a step reads (MBLK_NONE: none). */
static uint16_t sources(const struct mblk_step *s)
{
	return (uint16_t)((s->rn < MBLK_NONE ? 1u << s->rn : 0u) | (s->rm < MBLK_NONE ? 1u << s->rm : 0u));
}

static bool known(const struct mblk_build *bd, const struct mblk_step *s)
{
	return (sources(s) & bd->unknown) == 0;
}

static void push(struct mblk_build *bd, const struct mblk_step *s)
{
	if (bd->prog->n_steps < bd->cap)
		bd->prog->steps[bd->prog->n_steps++] = *s;
	if (s->kind == MBLK_LOAD)
		bd->last_load = bd->prog->n_steps;
}

/* A literal (a constant address) outside every memory block: in flash, which pairs with any. */
static bool outside_blocks(const struct mblk_build *bd, const struct mblk_step *s)
{
	return s->rn == MBLK_NONE && s->rm == MBLK_NONE && bd->block_of(bd->ctx, (uint32_t)s->imm) == 0;
}

/* Pairs the analysis decides alone, as not crossing blocks, so the entry need not: a literal in
 * flash, or both loads on the same base register, unchanged, with immediate offsets (one block
 * unless the base points within the offsets of a block's end: docs/cycle-model.md). */
static bool same_block(const struct mblk_build *bd, const struct mblk_step *s)
{
	const struct mblk_prog *p = bd->prog;
	if (!bd->last_load || bd->last_load != p->n_steps)
		return false; /* the first load is not the step just before: undecided, or a write-back */
	const struct mblk_step *f = &p->steps[bd->last_load - 1u];
	if (f->idx + 1u != s->idx)
		return false;
	return outside_blocks(bd, f) || outside_blocks(bd, s) ||
	       (f->rn == s->rn && f->rn != MBLK_NONE && f->rm == MBLK_NONE && s->rm == MBLK_NONE);
}

/* An access the entry cannot decide is left to a code hook. */
static void hook_access(struct mblk_build *bd, unsigned i)
{
	struct mblk_prog *p = bd->prog;
	for (unsigned k = 0; k < p->n_ua_hook; k++)
		if (p->ua_hook[k] == i)
			return;
	p->ua_hook[p->n_ua_hook++] = (uint16_t)i;
}

/* An instruction that adds a constant to one register (ADD/SUB rd, rd, #imm, a write-back base):
 * which, and by how much; 0 when it is not one. */
static uint16_t delta_of(const cs_insn *in, const struct cyc_memop *mo, bool cond, int32_t *delta)
{
	struct mblk_step u;
	if (cond || !update(in, mo, &u) || u.op != MBLK_ADD || u.rd >= MBLK_NONE || u.rn != u.rd || u.rm != MBLK_NONE)
		return 0;
	*delta = u.imm;
	return (uint16_t)(1u << u.rd);
}

/* s reads registers that an instruction after it moved by delta (dbit: which): from their values
 * at the exit, its address is delta less per register, shifted as it reads it. */
static void exit_adjust(struct mblk_step *s, uint16_t dbit, int32_t delta)
{
	if (s->rn < MBLK_NONE && (dbit >> s->rn & 1u))
		s->imm = (int32_t)((uint32_t)s->imm - (uint32_t)delta);
	if (s->rm < MBLK_NONE && (dbit >> s->rm & 1u)) {
		uint32_t d = (uint32_t)delta << s->lshift;
		s->imm = (int32_t)((uint32_t)s->imm - (s->sign < 0 ? 0u - d : d));
	}
}

/* The exit steps whose registers instruction i's writes w overwrite can no longer be decided at
 * the exit: hooked; those only moved by a constant (dbit, delta: delta_of) are adjusted, once
 * (adj_at, imm_pre: a block that stops between the access and i is decided without it). */
static void exit_written(struct mblk_build *bd, unsigned i, uint16_t w, uint16_t dbit, int32_t delta)
{
	struct mblk_prog *p = bd->prog;
	unsigned out = 0;
	for (unsigned k = 0; k < p->n_exit; k++) {
		struct mblk_step *s = &p->exit_steps[k];
		if ((bd->exit_src[k] & w & (uint16_t)~dbit) || ((bd->exit_src[k] & dbit) && s->adj_at != MBLK_NO_ADJ)) {
			hook_access(bd, s->idx);
			continue;
		}
		if (bd->exit_src[k] & dbit) {
			s->imm_pre = s->imm;
			s->adj_at = (uint16_t)i;
			exit_adjust(s, dbit, delta);
		}
		bd->exit_src[out] = bd->exit_src[k];
		p->exit_steps[out++] = p->exit_steps[k];
	}
	p->n_exit = (uint16_t)out;
}

/* The unaligned rule's side of an access (mblk_ua_size() bytes): s, its address from the entry
 * when known, becomes a decided step (conditional on flags the program does not know: lazy, see
 * mblk_step); else one decided at the exit if the registers it reads stay as they are to the
 * block's end, or move by constants (checked as the later instructions come: exit_written), else
 * a hook. Returns whether s is to be pushed. w: what the instruction itself writes, dbit and delta
 * its own constant update (a write-back base). */
static bool ua_access(struct mblk_build *bd, struct mblk_step *s, bool addr_ok, bool cond, unsigned i, unsigned size,
                      uint16_t w, uint16_t dbit, int32_t delta)
{
	struct mblk_prog *p = bd->prog;
	/* Numbers are never reused: an exit step hooked later keeps its number, unused. */
	unsigned used = p->n_ua;
	if (!addr_ok) {
		hook_access(bd, i);
		return false;
	}
	s->size = (uint8_t)size;
	s->idx = (uint16_t)i;
	if (known(bd, s)) {
		if (cond && bd->flags == MBLK_FLAGS_UNKNOWN) {
			s->lazy = 1;
			s->cond = 0;
		}
		s->ua = (int16_t)used;
		p->ua_idx[p->n_ua++] = (uint16_t)i;
		return true;
	}
	/* Conditional, or reading a register the instruction itself writes otherwise than by a
	 * constant (a loaded base): its registers at the exit are not those it used. */
	if (cond || (sources(s) & w & (uint16_t)~dbit)) {
		hook_access(bd, i);
		return false;
	}
	if (sources(s) & dbit)
		exit_adjust(s, dbit, delta); /* its own write-back: always run before it is decided */
	s->adj_at = MBLK_NO_ADJ;
	s->ua = (int16_t)used;
	p->ua_idx[p->n_ua++] = (uint16_t)i;
	bd->exit_src[p->n_exit] = sources(s);
	p->exit_steps[p->n_exit++] = *s;
	return false;
}

void mblk_insn(struct mblk_build *bd, csh cs, const cs_insn *in, unsigned i, const struct cyc_memop *mo)
{
	if (bd->failed)
		return;
	if (!in) {
		bd->unknown = 0x7FFFu;
		bd->flags = MBLK_FLAGS_UNKNOWN;
		exit_written(bd, i, 0x7FFFu, 0, 0);
		bd->net_bad = 0x7FFFu;
		return;
	}
	const struct cyc_block *cb = bd->cb;
	const cs_arm *a = &in->detail->arm;
	/* A conditional instruction may not run: what it loads or writes is not known at entry. */
	bool cond = a->cc != ARM_CC_AL && a->cc != ARM_CC_INVALID;
	bool pipelined = bd->pairs && (cb->dyn[i] & CYC_DYN_PIPELINED) != 0;
	bool first = bd->pairs && i + 1u < cb->n_insn && (cb->dyn[i + 1u] & CYC_DYN_PIPELINED);
	unsigned ua_size = bd->ua && mo ? mblk_ua_size(in, mo) : 0u;
	uint16_t w = regs_written(cs, in, mo);
	if (in->id == ARM_INS_PUSH || in->id == ARM_INS_VPUSH)
		w = reg_bit(ARM_REG_SP); /* capstone lists the pushed registers as written */
	/* The exit steps before this instruction: still decidable if it leaves their registers, or
	 * adds a constant to one. */
	int32_t delta = 0;
	uint16_t dbit = delta_of(in, mo, cond, &delta);
	exit_written(bd, i, w, dbit, delta);
	bd->net_bad |= (uint16_t)(w & ~dbit);
	if (dbit)
		bd->net[__builtin_ctz(dbit)] += (uint32_t)delta;
	struct mblk_step s;
	bool addr_ok = mo && load_address(in, mo, &s);
	bool push_it = false;
	if (addr_ok) {
		s.idx = (uint16_t)i;
		s.pair = -1;
		s.ua = -1;
		s.cond = 0;
		s.lazy = 0;
		s.need_blk = 0;
	}
	if (!cond && (pipelined || first) && addr_ok && known(bd, &s)) {
		if (pipelined && bd->prog->n_pairs < 32u && !same_block(bd, &s)) {
			s.pair = (int8_t)bd->prog->n_pairs;
			bd->prog->pair_idx[bd->prog->n_pairs++] = (uint16_t)i;
		}
		push_it = true;
	}
	if (ua_size) {
		if (cond && addr_ok)
			s.cond = (uint8_t)a->cc;
		if (ua_access(bd, &s, addr_ok, cond, i, ua_size, w, dbit, delta))
			push_it = true;
	}
	if (push_it) {
		push(bd, &s);
		if (s.pair >= 0 || s.ua >= 0)
			bd->last_pair = bd->prog->n_steps;
	}
	if (!cond && compare(in, &s)) {
		/* CMP/CMN: the flags an IT block's instructions test (Armv7-M ARM A7.3). */
		if (known(bd, &s)) {
			push(bd, &s);
			bd->flags = MBLK_FLAGS_STEP;
		} else {
			bd->flags = MBLK_FLAGS_UNKNOWN;
		}
		return;
	}
	/* A conditional update needs the flags, and leaves rd as it was when it fails: rd must be
	 * known before too. */
	bool can = !cond || (bd->flags != MBLK_FLAGS_UNKNOWN && in->id != ARM_INS_IT);
	if (can && update(in, mo, &s) && s.rd < MBLK_NONE && known(bd, &s) && !(cond && (bd->unknown >> s.rd & 1u))) {
		/* What a write-back load loads is unknown; its base follows the step. */
		s.cond = cond ? (uint8_t)a->cc : 0u;
		bd->unknown |= (uint16_t)(w & ~(1u << s.rd));
		bd->unknown &= (uint16_t) ~(1u << s.rd);
		push(bd, &s);
	} else {
		bd->unknown |= w;
	}
	if (sets_flags(in))
		bd->flags = MBLK_FLAGS_UNKNOWN;
}

/* Keeps the steps the pairs and the decided accesses need, so the entry runs no more than it
 * must: a pair's two loads, an access the unaligned rule decides, and the register updates and
 * comparisons their addresses and conditions depend on (backwards, from the last step). */
static void prune(struct mblk_prog *p)
{
	uint16_t live = 0;
	bool flags = false; /* a kept conditional step needs the flags before it */
	int want_idx = -1;  /* a pair's first load, at this instruction index */
	unsigned n = p->n_steps, out = n;
	for (unsigned k = n; k-- > 0;) {
		const struct mblk_step *s = &p->steps[k];
		bool keep;
		if (s->kind == MBLK_LOAD) {
			keep = s->pair >= 0 || s->ua >= 0 || (int)s->idx == want_idx;
			want_idx = s->pair >= 0 ? (int)s->idx - 1 : -1;
			if (keep && s->cond)
				flags = true;
			if (keep)
				live |= sources(s);
		} else if (s->kind == MBLK_FLAGS) {
			keep = flags;
			flags = false;
			if (keep)
				live |= sources(s);
		} else {
			keep = (live >> s->rd & 1u) != 0;
			if (keep && s->cond) /* if it fails, rd keeps its value from before */
				flags = true;
			else if (keep)
				live &= (uint16_t) ~(1u << s->rd);
			if (keep)
				live |= sources(s);
		}
		if (keep)
			p->steps[--out] = *s;
	}
	memmove(p->steps, p->steps + out, (n - out) * sizeof(*p->steps));
	p->n_steps = (uint16_t)(n - out);
	p->entry_regs = live; /* read before any step sets them */
	p->entry_flags = flags;
}

/* Entered again right after itself (a loop of one block), would the program decide the same?
 * Yes when it has no pairs (which read whole addresses) and no conditional step, its register
 * updates each add a constant to a register or set one to a constant, and each decided access's
 * address moves from one run to the next by a multiple of its size: its registers, but for
 * those set to a constant first, are moved across the block only by constants (bd->net), whose
 * sum as the access reads them keeps the address's low bits (cyc_unaligned_extra). */
static bool loop_invariant(const struct mblk_build *bd)
{
	const struct mblk_prog *p = bd->prog;
	if (p->n_pairs || p->n_exit || p->entry_flags)
		return false;
	uint16_t fixed = 0; /* registers set to a constant so far */
	for (unsigned k = 0; k < p->n_steps; k++) {
		const struct mblk_step *s = &p->steps[k];
		if (s->cond)
			return false;
		if (s->kind == MBLK_SET) {
			if (s->op == MBLK_ADD && s->rn == MBLK_NONE && s->rm == MBLK_NONE)
				fixed |= (uint16_t)(1u << s->rd);
			else if (s->op != MBLK_ADD || s->rn != s->rd || s->rm != MBLK_NONE)
				return false;
			continue;
		}
		if (s->kind != MBLK_LOAD || s->ua < 0)
			continue;
		uint32_t d = 0;
		if (s->rn < MBLK_NONE && !(fixed >> s->rn & 1u)) {
			if (bd->net_bad >> s->rn & 1u)
				return false;
			d += bd->net[s->rn];
		}
		if (s->rm < MBLK_NONE && !(fixed >> s->rm & 1u)) {
			if (bd->net_bad >> s->rm & 1u)
				return false;
			uint32_t x = bd->net[s->rm] << s->lshift;
			d += s->sign < 0 ? 0u - x : x;
		}
		if (d & (s->size - 1u))
			return false;
	}
	return true;
}

int mblk_end(struct mblk_build *bd)
{
	struct mblk_prog *p = bd->prog;
	if (bd->oom || bd->failed) {
		free(bd->exit_src);
		bd->exit_src = NULL;
		return bd->oom ? -1 : 0;
	}
	p->n_steps = (uint16_t)bd->last_pair; /* nothing after the last decided access matters */
	prune(p);
	if (!p->n_pairs && !p->n_ua)
		p->n_steps = 0; /* only the first loads of pairs that cannot cross were left */
	for (unsigned k = 0; k < p->n_exit; k++)
		p->exit_regs |= bd->exit_src[k];
	p->ua_loop = p->n_steps && loop_invariant(bd);
	free(bd->exit_src); /* the build's alone */
	bd->exit_src = NULL;
	if (!p->n_steps && !p->n_exit && !p->n_ua_hook)
		mblk_free(p);
	return 0;
}

void mblk_free(struct mblk_prog *prog)
{
	free(prog->steps);
	free(prog->pair_idx);
	free(prog->ua_idx);
	free(prog->ua_extra);
	free(prog->exit_steps);
	free(prog->ua_hook);
	free(prog->reads);
	free(prog->exit_reads);
	*prog = (struct mblk_prog){0};
}
