/* Per-address code hooks of a block's instructions that the block's static cost cannot settle:
 * divides (2-12 cycles by operands, TRM 3.3.1; DIVBYZERO), the loads and stores the unaligned
 * rule cannot decide from the registers at the block's entry or exit (TRM 3.3.2; core_mblocks.h),
 * and FP instructions while CP10/CP11 are denied or lazy FP state is pending (NOCP, B1.5.7). */
#include "core/core_blk_hooks.h"
#include "core/core_blocks.h"
#include "core/core_internal.h"
#include "scs/dwt.h"
#include "scs/exc.h"

static void hook_fp(uc_engine *uc, uint64_t address, uint32_t size, void *ud)
{
	struct sim_core *c = ud;
	(void)size;
	if (!c->blocks.fp_trap_on)
		return;
	c->stop = fp_access_allowed(&c->scs) ? STOP_LAZYFP : STOP_NOCP;
	c->stop_pc = (uint32_t)address;
	(void)uc_emu_stop(uc);
}

static void hook_div(uc_engine *uc, uint64_t address, uint32_t size, void *ud)
{
	struct sim_core *c = ud;
	struct core_blk *b = c->cur;
	(void)size;
	if (!b)
		return;
	int i = blk_index_of(b, (uint32_t)address);
	if (i >= b->cb->n_insn || !(b->cb->dyn[i] & CYC_DYN_DIVIDE))
		return;
	uint8_t regs = b->cb->aux[i];
	uint32_t n = core_reg(c, UC_ARM_REG_R0 + (regs >> 4));
	uint32_t d = core_reg(c, UC_ARM_REG_R0 + (regs & 0xF));
	uint16_t hw1;
	if (uc_mem_read(uc, address, &hw1, 2) != UC_ERR_OK)
		return;
	bool is_signed = (hw1 & 0xFFF0u) == 0xFB90u;
	if (d == 0 && exc_div0_trap(&c->scs)) { /* UsageFault DIVBYZERO (B3.2.8) */
		c->stop = STOP_OTHER;
		c->stop_pc = (uint32_t)address;
		c->stop_addr = CFSR_DIVBYZERO;
		(void)uc_emu_stop(uc);
		return;
	}
	uint32_t extra = cyc_divide_extra(n, d, is_signed);
	core_charge(c, (uint32_t)address, CORE_CHARGE_DIVIDE, extra);
	dwt_count_cpi(&c->scs, extra);
}

/* An access of the running block the unaligned rule left to a hook: its address from the
 * registers before it runs (unicorn calls a code hook only when an IT block's condition passes,
 * translate.c thumb_tr_translate_insn), its extra cycles charged to it as the read/write hook of
 * `--unaligned` does (core_unaligned.c). Another block that holds the same instruction may have
 * decided it at entry: only the block's own hooked accesses count. */
static void hook_ua(uc_engine *uc, uint64_t address, uint32_t size, void *ud)
{
	struct sim_core *c = ud;
	struct core_blk *b = c->cur;
	(void)uc;
	(void)size;
	if (!b)
		return;
	int i = blk_index_of(b, (uint32_t)address);
	bool mine = false;
	for (unsigned k = 0; k < b->mb.n_ua_hook && !mine; k++)
		mine = b->mb.ua_hook[k] == (unsigned)i;
	const struct cyc_memop *m = mine ? blk_memop_at(b, i) : NULL;
	if (!m)
		return;
	uint32_t ea = blk_reg_value(c, b, m->idx, m->base) + (uint32_t)m->disp;
	if (m->index) {
		uint32_t iv = blk_reg_value(c, b, m->idx, m->index) << m->lshift;
		ea += m->scale < 0 ? (uint32_t)-iv : iv;
	}
	unsigned extra = cyc_unaligned_extra(m->span, ea);
	if (!extra)
		return;
	core_charge(c, (uint32_t)address, CORE_CHARGE_UNALIGNED, extra);
	if (c->scs.dwt.ctrl & DWT_CTRL_BLOCK_EVENTS)
		dwt_count_lsu(&c->scs, extra);
}

static int add_code_hook(struct sim_core *c, uc_hook *h, void *cb, uint32_t addr)
{
	return uc_hook_add(c->uc, h, UC_HOOK_CODE, cb, c, addr, addr) == UC_ERR_OK ? 0 : -1;
}

/* A code hook on addr unless the list already has one there (hooks stay when a block is dropped
 * and analysed again: a second would charge twice). Out of memory: no hook, the cycles are lost
 * as the divide's extra would be. */
static void hook_once(struct sim_core *c, uint32_t **list, size_t *n, size_t *cap, void *cb, uint32_t addr)
{
	for (size_t i = 0; i < *n; i++)
		if ((*list)[i] == addr)
			return;
	if (*n == *cap) {
		size_t ncap = *cap ? 2 * *cap : 16;
		uint32_t *p = realloc(*list, ncap * sizeof(*p));
		if (!p)
			return;
		*list = p;
		*cap = ncap;
	}
	uc_hook h;
	if (add_code_hook(c, &h, cb, addr) == 0)
		(*list)[(*n)++] = addr;
}

/* Adds the divide and unaligned-access hooks, and the FP hooks when FP instructions trap; the
 * caller drops the block's translation so the hooks take effect. */
void blk_install_hooks(struct sim_core *c, struct core_blk *b)
{
	if (b->n_div && !b->hooked_div) {
		for (unsigned i = 0; i < b->n_div; i++)
			hook_once(c, &c->blocks.div_hooked, &c->blocks.n_div_hooked, &c->blocks.cap_div_hooked,
			          (void *)hook_div, b->div_addr[i]);
		b->hooked_div = true;
	}
	if (b->mb.n_ua_hook && !b->hooked_ua) {
		for (unsigned i = 0; i < b->mb.n_ua_hook; i++)
			hook_once(c, &c->blocks.ua_hooked, &c->blocks.n_ua_hooked, &c->blocks.cap_ua_hooked,
			          (void *)hook_ua, b->addr + b->cb->insn_offset[b->mb.ua_hook[i]]);
		b->hooked_ua = true;
	}
	if (b->n_fp && c->blocks.fp_trap_on && !b->fp_hooked) {
		if (!b->fp_hooks)
			b->fp_hooks = calloc(b->n_fp, sizeof(*b->fp_hooks));
		if (b->fp_hooks) {
			for (unsigned i = 0; i < b->n_fp; i++)
				if (add_code_hook(c, &b->fp_hooks[i], (void *)hook_fp, b->fp_addr[i]) != 0)
					b->fp_hooks[i] = 0;
			b->fp_hooked = true;
		}
	}
}

/* FP trapping turns on (CPACR cleared, lazy context pending) or off: hook or unhook every known
 * block with FP instructions and drop its translation. */
void blk_set_fp_trap(struct sim_core *c, bool on)
{
	if (c->blocks.fp_trap_on == on)
		return;
	c->blocks.fp_trap_on = on;
	for (unsigned h = 0; h < CORE_BLK_HASH; h++) {
		for (struct core_blk *b = c->blocks.hash[h]; b; b = b->next) {
			if (!b->n_fp)
				continue;
			if (on) {
				blk_install_hooks(c, b);
			} else if (b->fp_hooked) {
				for (unsigned i = 0; i < b->n_fp; i++) {
					if (b->fp_hooks[i])
						(void)uc_hook_del(c->uc, b->fp_hooks[i]);
					b->fp_hooks[i] = 0;
				}
				b->fp_hooked = false;
			}
			(void)uc_ctl_remove_cache(c->uc, b->addr, (uint64_t)b->addr + b->size);
		}
	}
}

bool blk_hooks_missing(const struct sim_core *c, const struct core_blk *b)
{
	return (b->n_div && !b->hooked_div) || (b->mb.n_ua_hook && !b->hooked_ua) ||
	       (b->n_fp && c->blocks.fp_trap_on && !b->fp_hooked);
}
