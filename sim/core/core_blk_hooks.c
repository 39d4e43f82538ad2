/* Per-address code hooks of a block's instructions that the block's static cost cannot settle:
 * divides (2-12 cycles by operands, TRM 3.3.1; DIVBYZERO) and FP instructions while CP10/CP11 are
 * denied or lazy FP state is pending (NOCP, B1.5.7). */
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

static int add_code_hook(struct sim_core *c, uc_hook *h, void *cb, uint32_t addr)
{
	return uc_hook_add(c->uc, h, UC_HOOK_CODE, cb, c, addr, addr) == UC_ERR_OK ? 0 : -1;
}

static bool div_hooked(const struct sim_core *c, uint32_t addr)
{
	for (size_t i = 0; i < c->blocks.n_div_hooked; i++)
		if (c->blocks.div_hooked[i] == addr)
			return true;
	return false;
}

/* Adds the divide hooks, and the FP hooks when FP instructions trap; the caller drops the block's
 * translation so the hooks take effect. */
void blk_install_hooks(struct sim_core *c, struct core_blk *b)
{
	if (b->n_div && !b->hooked_div) {
		for (unsigned i = 0; i < b->n_div; i++) {
			if (div_hooked(c, b->div_addr[i]))
				continue;
			if (c->blocks.n_div_hooked == c->blocks.cap_div_hooked) {
				size_t cap = c->blocks.cap_div_hooked ? 2 * c->blocks.cap_div_hooked : 16;
				uint32_t *p = realloc(c->blocks.div_hooked, cap * sizeof(*p));
				if (!p)
					continue; /* out of memory: this divide costs its static cycles only */
				c->blocks.div_hooked = p;
				c->blocks.cap_div_hooked = cap;
			}
			uc_hook h;
			if (add_code_hook(c, &h, (void *)hook_div, b->div_addr[i]) == 0)
				c->blocks.div_hooked[c->blocks.n_div_hooked++] = b->div_addr[i];
		}
		b->hooked_div = true;
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
	return (b->n_div && !b->hooked_div) || (b->n_fp && c->blocks.fp_trap_on && !b->fp_hooked);
}
