/* The core's per-block cache: for each block unicorn translates, the cycle model's static costs
 * (cycles.h) plus what the core itself needs to know about the block, found once when the block is
 * first seen and never per execution:
 *  - its memory-accessing instructions, to tell which one made an MMIO access (unicorn 2.0.1 does
 *    not update PC before a load/store, so the PC seen in an MMIO callback is stale);
 *  - its divides (UDIV/SDIV cost by operand values, Cortex-M4 TRM 3.3.1): a code hook on exactly
 *    those addresses;
 *  - its FP instructions (coprocessors 10/11): unicorn executes them even with CPACR denying access,
 *    so while CP10/CP11 are off, or a lazy FP context is pending (FPCCR.LSPACT, Armv7-M ARM B1.5.7),
 *    code hooks on exactly those addresses trap them.
 * The bytes analysed are kept: a block whose bytes changed behind unicorn's back (the debugger
 * wrote RAM or flash) is dropped with its translation. */
#include "core/core_internal.h"
#include "core/core_blocks.h"
#include "core/core_mblocks.h"
#include "scs/dwt.h"
#include "scs/exc.h"

#include <capstone/capstone.h>
#include <stdlib.h>
#include <string.h>

static uint32_t blk_hash(uint32_t addr)
{
	uint32_t h = addr >> 1;
	h ^= h >> 13;
	h *= 0x85ebca6bu;
	h ^= h >> 16;
	return h & (CORE_BLK_HASH - 1);
}

static void blk_free(struct sim_core *c, struct core_blk *b)
{
	core_pcsr_forget(c);
	if (c->rec)
		core_rec_dropped(c, b);
	if (c->blocks.recent[blk_recent_slot(b->addr)] == b)
		c->blocks.recent[blk_recent_slot(b->addr)] = NULL;
	if (b->fp_hooks) {
		for (unsigned i = 0; i < b->n_fp; i++)
			if (b->fp_hooks[i])
				(void)uc_hook_del(c->uc, b->fp_hooks[i]);
	}
	free(b->fp_hooks);
	free(b->copy);
	free(b->memops);
	mblk_free(&b->mb);
	free(b->fp_addr);
	free(b->div_addr);
	free(b->line_start);
	free(b);
}

/* Offset of addr in the chip's flash (core_soc.flash), at its base or the boot alias at 0; -1 when
 * elsewhere. */
static int64_t flash_offset(const struct sim_core *c, uint32_t addr)
{
	const struct core_flash *f = &c->soc.flash;
	if (addr < f->size)
		return addr;
	if (addr - f->base < f->size)
		return addr - f->base;
	return -1;
}

/* The flash lines the block runs through (offset >> line_shift, 128-bit on the STM32F4) and the
 * static cycle it enters each. */
static int flash_lines(const struct sim_core *c, struct core_blk *b)
{
	int64_t first = flash_offset(c, b->addr);
	unsigned shift = c->soc.flash.line_shift;
	b->flash_line = -1;
	if (first < 0 || !b->size)
		return 0;
	uint32_t l0 = (uint32_t)first >> shift;
	uint32_t l1 = ((uint32_t)first + b->size - 1u) >> shift;
	b->n_lines = (uint16_t)(l1 - l0 + 1u);
	b->line_start = calloc(b->n_lines, sizeof(*b->line_start));
	if (!b->line_start)
		return -1;
	const struct cyc_block *cb = b->cb;
	for (unsigned i = 0, l = 1; i < cb->n_insn && l < b->n_lines; i++) {
		uint32_t next = i + 1u < cb->n_insn ? cb->insn_offset[i + 1] : b->size;
		uint32_t end = (uint32_t)first + next; /* one past the instruction's last byte */
		/* An instruction that ends in line l (or beyond) makes the core fetch it. */
		while (l < b->n_lines && ((end - 1u) >> shift) >= l0 + l) {
			b->line_start[l] = (uint16_t)(cb->cost_before[i] > 0xFFFFu ? 0xFFFFu : cb->cost_before[i]);
			l++;
		}
	}
	b->flash_line = (int32_t)l0;
	return 0;
}

static unsigned block_of(const void *ctx, uint32_t addr)
{
	return mblk_block_of(ctx, addr);
}

static int analyse(struct sim_core *c, struct core_blk *b, const uint8_t *code)
{
	csh cs;
	if (cs_open(CS_ARCH_ARM, CS_MODE_THUMB | CS_MODE_MCLASS, &cs) != CS_ERR_OK)
		return -1;
	if (cs_option(cs, CS_OPT_DETAIL, CS_OPT_ON) != CS_ERR_OK) {
		cs_close(&cs);
		return -1;
	}
	cs_insn *in = cs_malloc(cs);
	if (!in) {
		cs_close(&cs);
		return -1;
	}
	unsigned n = b->cb->n_insn ? b->cb->n_insn : 1;
	b->memops = calloc(n, sizeof(*b->memops));
	b->fp_addr = calloc(n, sizeof(*b->fp_addr));
	b->div_addr = calloc(n, sizeof(*b->div_addr));
	int rc = (b->memops && b->fp_addr && b->div_addr) ? 0 : -1;
	struct mblk_build mbb;
	mblk_begin(&mbb, &b->mb, b->cb, c->mb_entry, c->ua_entry, block_of, c);
	for (unsigned i = 0; rc == 0 && i < b->cb->n_insn; i++) {
		uint32_t off = b->cb->insn_offset[i];
		uint16_t hw1 = (uint16_t)(code[off] | code[off + 1] << 8);
		uint16_t hw2 = off + 3 < b->size ? (uint16_t)(code[off + 2] | code[off + 3] << 8) : 0;
		if (cyc_is_fp(hw1, hw2))
			b->fp_addr[b->n_fp++] = b->addr + off;
		if (cyc_is_div(hw1, hw2))
			b->div_addr[b->n_div++] = b->addr + off;
		const uint8_t *p = code + off;
		size_t len = b->size - off;
		uint64_t a = b->addr + off;
		bool ok = cs_disasm_iter(cs, &p, &len, &a, in);
		uint16_t before = b->n_memops;
		if (ok && cyc_is_memory_insn(in) && cyc_memop_decode(in, i, &b->memops[b->n_memops]))
			b->n_memops++;
		mblk_insn(&mbb, cs, ok ? in : NULL, i, b->n_memops > before ? &b->memops[before] : NULL);
	}
	if (mblk_end(&mbb) < 0 || ((b->mb.n_steps || b->mb.n_exit) && mblk_compile(c, &b->mb) < 0))
		rc = -1;
	if (rc == 0)
		rc = flash_lines(c, b);
	cs_free(in, 1);
	cs_close(&cs);
	return rc;
}

/* Host pointer to the bytes of [addr, addr+size) when they are plain memory on the bus. */
static uint8_t *host_ptr(struct sim_core *c, uint32_t addr, uint32_t size)
{
	const struct bus_region *r = bus_find(c->bus, addr);
	if (!r || !r->mem || addr - r->base + (uint64_t)size > r->size)
		return NULL;
	return r->mem + (addr - r->base);
}

struct core_blk *blk_get(struct sim_core *c, uint32_t addr, uint32_t size)
{
	struct core_blk **slot = &c->blocks.recent[blk_recent_slot(addr)];
	if (*slot && (*slot)->addr == addr && (*slot)->size == size)
		return *slot;
	uint32_t h = blk_hash(addr);
	for (struct core_blk *b = c->blocks.hash[h]; b; b = b->next)
		if (b->addr == addr && b->size == size)
			return *slot = b;
	uint8_t *code = host_ptr(c, addr, size);
	uint8_t *copy = malloc(size ? size : 1);
	struct core_blk *b = calloc(1, sizeof(*b));
	if (!copy || !b)
		goto fail;
	if (code) {
		memcpy(copy, code, size);
	} else if (uc_mem_read(c->uc, addr, copy, size) != UC_ERR_OK) {
		goto fail;
	}
	b->addr = addr;
	b->size = size;
	b->copy = copy;
	b->cb = cyc_lookup(c->cyc, addr, copy, size);
	if (!b->cb || analyse(c, b, copy) != 0) {
		b->copy = NULL;
		blk_free(c, b);
		free(copy);
		return NULL;
	}
	b->next = c->blocks.hash[h];
	c->blocks.hash[h] = b;
	c->blocks.translated++;
	return *slot = b;
fail:
	free(copy);
	free(b);
	return NULL;
}

static bool rewritten(struct sim_core *c, const struct core_blk *b, uint32_t lo, uint32_t size);

static void drop_if(struct sim_core *c, bool (*pred)(struct sim_core *, const struct core_blk *, uint32_t, uint32_t),
                    uint32_t lo, uint32_t size, unsigned *count)
{
	for (unsigned h = 0; h < CORE_BLK_HASH; h++) {
		struct core_blk **pp = &c->blocks.hash[h];
		while (*pp) {
			struct core_blk *b = *pp;
			if (pred(c, b, lo, size)) {
				*pp = b->next;
				/* cycles.c frees its blocks in a range the caller invalidates: ours go with
				 * them, never keeping a pointer into a freed cyc_block. */
				if (pred == rewritten)
					cyc_invalidate(c->cyc, b->addr, b->size);
				(void)uc_ctl_remove_cache(c->uc, b->addr, (uint64_t)b->addr + b->size);
				if (c->cur == b)
					c->cur = NULL;
				blk_free(c, b);
				if (count)
					(*count)++;
			} else {
				pp = &b->next;
			}
		}
	}
}

static bool overlaps(struct sim_core *c, const struct core_blk *b, uint32_t lo, uint32_t size)
{
	(void)c;
	return (uint64_t)b->addr < (uint64_t)lo + size && (uint64_t)b->addr + b->size > lo;
}

static bool always(struct sim_core *c, const struct core_blk *b, uint32_t lo, uint32_t size)
{
	(void)c, (void)b, (void)lo, (void)size;
	return true;
}

static bool rewritten(struct sim_core *c, const struct core_blk *b, uint32_t lo, uint32_t size)
{
	(void)lo, (void)size;
	const uint8_t *now = host_ptr(c, b->addr, b->size);
	return now && memcmp(now, b->copy, b->size) != 0;
}

void blk_drop_range(struct sim_core *c, uint32_t addr, uint32_t size)
{
	drop_if(c, overlaps, addr, size, NULL);
	/* Blocks never seen by the hook (translated but not run) still sit in unicorn's cache. */
	cyc_invalidate(c->cyc, addr, size);
	(void)uc_ctl_remove_cache(c->uc, addr, (uint64_t)addr + size);
}

void blk_drop_all(struct sim_core *c)
{
	/* Each block's translation goes with it (drop_if). Never uc_ctl_flush_tlb (UC_CTL_TB_FLUSH):
	 * unicorn 2.0.1 then clears its whole code buffer, seconds on this machine. */
	drop_if(c, always, 0, 0, NULL);
	cyc_invalidate(c->cyc, 0, 0xFFFFFFFFu);
}

void blk_retranslate_all(struct sim_core *c)
{
	for (unsigned h = 0; h < CORE_BLK_HASH; h++)
		for (struct core_blk *b = c->blocks.hash[h]; b; b = b->next)
			(void)uc_ctl_remove_cache(c->uc, b->addr, (uint64_t)b->addr + b->size);
}

unsigned blk_check_rewritten(struct sim_core *c)
{
	unsigned n = 0;
	drop_if(c, rewritten, 0, 0, &n);
	return n;
}

void blk_free_all(struct sim_core *c)
{
	for (unsigned h = 0; h < CORE_BLK_HASH; h++) {
		struct core_blk *b = c->blocks.hash[h];
		while (b) {
			struct core_blk *next = b->next;
			blk_free(c, b);
			b = next;
		}
		c->blocks.hash[h] = NULL;
	}
	c->cur = NULL;
}

int blk_index_of(const struct core_blk *b, uint32_t pc)
{
	const struct cyc_block *cb = b->cb;
	if (pc < b->addr || pc >= b->addr + b->size)
		return cb->n_insn;
	uint32_t off = pc - b->addr;
	for (unsigned i = 0; i < cb->n_insn; i++)
		if (cb->insn_offset[i] >= off)
			return (int)i;
	return cb->n_insn;
}

uint32_t blk_reg_value(struct sim_core *c, const struct core_blk *b, unsigned idx, unsigned capreg)
{
	if (capreg == ARM_REG_PC) /* literal: Align(PC, 4) with PC reading as the address + 4 */
		return (b->addr + b->cb->insn_offset[idx] + 4) & ~3u;
	int ucreg;
	switch (capreg) {
	case ARM_REG_SP:
		ucreg = UC_ARM_REG_SP;
		break;
	case ARM_REG_LR:
		ucreg = UC_ARM_REG_LR;
		break;
	default:
		if (capreg >= ARM_REG_R0 && capreg <= ARM_REG_R12)
			ucreg = UC_ARM_REG_R0 + (int)(capreg - ARM_REG_R0);
		else
			return 0;
	}
	return core_reg(c, ucreg);
}

/* Which instruction of b, at index >= from, accessed `addr`: the first whose effective address,
 * computed from the current registers, covers it (among loads only with loads_only). -1 when none
 * does. */
static int find_access(struct sim_core *c, struct core_blk *b, uint32_t addr, int from, bool loads_only)
{
	for (unsigned k = 0; k < b->n_memops; k++) {
		const struct cyc_memop *m = &b->memops[k];
		if ((int)m->idx < from || !m->base || (loads_only && m->store))
			continue;
		uint32_t ea = blk_reg_value(c, b, m->idx, m->base) + (uint32_t)m->disp;
		if (m->index) {
			uint32_t iv = blk_reg_value(c, b, m->idx, m->index) << m->lshift;
			ea += m->scale < 0 ? (uint32_t)-iv : iv;
		}
		if (m->down)
			ea -= m->span;
		if (addr - ea < m->span)
			return m->idx;
	}
	return -1;
}

int blk_find_access(struct sim_core *c, struct core_blk *b, uint32_t addr, int from)
{
	return find_access(c, b, addr, from, false);
}

const struct cyc_memop *blk_memop_at(const struct core_blk *b, int idx)
{
	for (unsigned k = 0; k < b->n_memops; k++)
		if (b->memops[k].idx == idx)
			return &b->memops[k];
	return NULL;
}

int blk_find_load(struct sim_core *c, struct core_blk *b, uint32_t addr, int from)
{
	return find_access(c, b, addr, from, true);
}

void blk_cache_free(struct sim_core *c)
{
	free(c->blocks.div_hooked);
	c->blocks.div_hooked = NULL;
	c->blocks.n_div_hooked = c->blocks.cap_div_hooked = 0;
	free(c->blocks.ua_hooked);
	c->blocks.ua_hooked = NULL;
	c->blocks.n_ua_hooked = c->blocks.cap_ua_hooked = 0;
}

uint64_t blk_translated(const struct sim_core *c)
{
	return c->blocks.translated;
}
