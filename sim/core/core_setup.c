/* The virtual Cortex-M4F (core.h): unicorn for the instruction set, glued to the system bus, and
 * the run loop that turns unicorn's stops (hooks, interrupts, errors) into what an Armv7-M core
 * does: debug halts (Armv7-M ARM C1), exceptions and faults (B1.5), sleep (B1.5.18).
 *
 * Time: every cycle is charged per translated block from the cycle model (cycles.h), never per
 * instruction; see core_internal.h for how the count inside a block is exact. */
#include "core/core_internal.h"
#include "scs/dwt.h"
#include "scs/exc.h"
#include "scs/fpb.h"
#include "scs/itm.h"
#include "scs/scs.h"
#include "scs/romtable.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct core_mmio {
	struct sim_core *c;
	const struct bus_region *r;
	bool mapped;
};

static struct core_mmio *mmio_slot(struct sim_core *c, const struct bus_region *r);

uint32_t core_reg(struct sim_core *c, int ucreg)
{
	uint32_t v = 0;
	if (uc_reg_read(c->uc, ucreg, &v) != UC_ERR_OK)
		return 0;
	return v;
}

void core_set_reg(struct sim_core *c, int ucreg, uint32_t v)
{
	/* Register ids come from this file's tables: a failure is a programming error, not data. */
	(void)uc_reg_write(c->uc, ucreg, &v);
}

uint32_t core_pc(struct sim_core *c)
{
	return core_reg(c, UC_ARM_REG_PC) & ~1u;
}

void core_set_pc(struct sim_core *c, uint32_t pc)
{
	/* Bit 0 set keeps unicorn in Thumb state (M-profile has no ARM state, EPSR.T). */
	core_set_reg(c, UC_ARM_REG_PC, pc | 1u);
}

uint64_t core_now(struct sim_core *c, uint32_t access_addr)
{
	struct core_blk *b = c->cur;
	if (!c->in_emu || !b)
		return c->now;
	int from = c->mmio_last + 1;
	int i = blk_find_access(c, b, access_addr, from);
	if (i < 0 && from > 0)
		i = blk_find_access(c, b, access_addr, from - 1);
	if (i < 0)
		i = from < b->cb->n_insn ? from : b->cb->n_insn - 1;
	if (i < 0)
		i = 0;
	c->mmio_last = i;
	return c->now + b->cb->cost_before[i] + mblk_extra_before(c, b, (unsigned)i);
}

void core_request_stop(struct sim_core *c)
{
	/* Never uc_emu_stop() from inside an MMIO or memory callback: unicorn 2.0.1 then re-executes
	 * the access forever. The next block hook stops instead. */
	if (c->in_emu)
		c->stop_at = 0;
}

/* ---- unicorn hooks ---------------------------------------------------------------------------- */

/* Stops emulation before the block at addr runs. unicorn 2.0.1 does not always leave PC there
 * (after a block that made an MMIO access it reported the previous block's start, which would run
 * that block twice): the run loop sets PC to addr itself. */
static void block_stop(struct sim_core *c, uint32_t addr)
{
	c->block_stop = true;
	c->block_stop_pc = addr;
	(void)uc_emu_stop(c->uc);
}

/* Code in flash with wait states: the accelerator's wait cycles for the block's lines, charged as
 * the block starts (chip/stm32f4_art.h). Its data reads from flash, literal pools included, are
 * timed as they happen by hook_flash_read. */
static void charge_flash(struct sim_core *c, const struct core_blk *b, bool branch)
{
	const struct core_flash *f = &c->soc.flash;
	uint32_t w = f->block_wait(f->ctx, (uint32_t)b->flash_line, b->line_start, b->n_lines, b->cb->total, branch);
	c->now += w;
	if (c->scs.dwt.ctrl & DWT_CTRL_BLOCK_EVENTS)
		dwt_count_cpi(&c->scs, w);
}

static void hook_block(uc_engine *uc, uint64_t address, uint32_t size, void *ud)
{
	struct sim_core *c = ud;
	struct core_blk *p = c->cur;
	uint32_t addr = (uint32_t)address;
	if (p) {
		const struct cyc_block *cb = p->cb;
		uint64_t t = cb->total;
		uint32_t extra = 0;
		c->entry_refill = addr != cb->fallthrough;
		if (addr != cb->fallthrough) {
			extra = cb->branch_taken_extra;
			t += extra;
		} else {
			/* The block's last instruction, if conditional, failed (cycles.h, CYC_DYN_CONDITIONAL). */
			t -= cb->fallthrough_saving;
		}
		c->now += t;
		c->instructions += cb->n_insn;
		if (c->scs.dwt.ctrl & DWT_CTRL_BLOCK_EVENTS)
			dwt_count_block(&c->scs, cb, extra);
		if (c->mb_for == p && c->mb_mask) {
			uint32_t mb = (uint32_t)__builtin_popcount(c->mb_mask); /* every pair ran */
			c->now += mb;
			if (c->scs.dwt.ctrl & DWT_CTRL_BLOCK_EVENTS)
				dwt_count_lsu(&c->scs, mb);
		}
	}
	c->mb_for = NULL;
	c->cur = NULL;
	c->mmio_last = -1;
	if (c->step_hook && c->step_blocks++ > 0 && c->stop == STOP_NONE)
		c->stop = STOP_STEP; /* a step's first instruction ended its block */
	if (c->check_pending && c->stop == STOP_NONE && exc_pending_preempting(&c->scs))
		c->stop = STOP_BUDGET; /* CPSIE or MSR unmasked it: take it before this block */
	if (c->stop != STOP_NONE || c->now >= c->stop_at) {
		if (c->stop == STOP_NONE)
			c->stop = STOP_BUDGET;
		block_stop(c, addr);
		return;
	}
	/* blk_get's first look, inline: the block hook runs once per block executed. */
	struct core_blk *b = c->blocks.recent[blk_recent_slot(addr)];
	if (!b || b->addr != addr || b->size != size)
		b = blk_get(c, addr, size);
	if (!b) {
		c->stop = STOP_OTHER;
		block_stop(c, addr);
		return;
	}
	if ((b->n_div || b->n_fp) && blk_hooks_missing(c, b)) {
		/* This translation predates the block's code hooks: drop it and translate again. */
		blk_install_hooks(c, b);
		(void)uc_ctl_remove_cache(uc, addr, (uint64_t)addr + size);
		c->stop = STOP_RETRANSLATE;
		block_stop(c, addr);
		return;
	}
	if (c->tick_at != UINT64_MAX && !c->split_hook && !c->step_hook && core_split_for_tick(c, b)) {
		c->stop = STOP_RETRANSLATE;
		block_stop(c, addr);
		return;
	}
	c->cur = b;
	if (c->mb_entry && b->mb.n_steps)
		mblk_decide(c, b);
	bool branch = c->entry_refill;
	c->entry_refill = false;
	/* Entered by a taken branch or an exception, the prefetch buffer starts empty; run into, it
	 * holds what the block before left. */
	uint8_t fetch = branch ? (uint8_t)CYC_FETCH_EMPTY : c->fetch_next;
	c->fetch_next = b->cb->exit_state[fetch]; /* for the block after it, if run into */
	uint32_t stall = b->cb->entry_extra[fetch];
	if (stall) { /* a branch, not a third add to c->now: that store chain costs more */
		c->now += stall;
		if (c->scs.dwt.ctrl & DWT_CTRL_BLOCK_EVENTS)
			dwt_count_cpi(&c->scs, stall);
	}
	if (b->flash_line >= 0 && *c->soc.flash.ws)
		charge_flash(c, b, branch);
}

/* A data read from flash (or its boot alias at 0) while it has wait states: it goes over the
 * D-code bus through the accelerator's data cache (RM0090 3.4.2: "Literal pools are fetched from
 * Flash memory through the D-Code bus ... The CPU pipeline is consequently stalled until the
 * requested literal pool is provided"; constant tables take the same path): a hit in the 8-line
 * data cache costs nothing, a miss the wait states. */
static void hook_flash_read(uc_engine *uc, uc_mem_type type, uint64_t address, int size, int64_t value, void *ud)
{
	(void)uc;
	(void)type;
	(void)size;
	(void)value;
	struct sim_core *c = ud;
	const struct core_flash *f = &c->soc.flash;
	uint32_t a = (uint32_t)address;
	uint32_t off = a >= f->base ? a - f->base : a;
	uint32_t w = f->literal_wait(f->ctx, off);
	c->now += w;
	if (w && (c->scs.dwt.ctrl & DWT_CTRL_BLOCK_EVENTS))
		dwt_count_lsu(&c->scs, w);
}

bool core_flash_sync_due(const struct sim_core *c)
{
	return c->soc.flash.size && !c->flash_hook_failed && (*c->soc.flash.ws != 0) != c->flash_hooked;
}

/* Called between slices (never inside uc_emu_start): puts the flash data-read hooks in place
 * while the flash has wait states and removes them when it has none, so code at 0 wait states
 * keeps unicorn's fast loads. */
void core_flash_sync(struct sim_core *c)
{
	if (!core_flash_sync_due(c))
		return;
	const struct core_flash *f = &c->soc.flash;
	if (!c->flash_hooked) {
		uint64_t lo[2] = {f->base, 0}, hi[2] = {(uint64_t)f->base + f->size - 1u, (uint64_t)f->size - 1u};
		/* Not hooked (unicorn out of memory): flash data reads go untimed, and no slice stops to
		 * try again. */
		if (uc_hook_add(c->uc, &c->flash_read_hook[0], UC_HOOK_MEM_READ, (void *)hook_flash_read, c, lo[0],
		                hi[0]) != UC_ERR_OK) {
			c->flash_hook_failed = true;
			return;
		}
		if (uc_hook_add(c->uc, &c->flash_read_hook[1], UC_HOOK_MEM_READ, (void *)hook_flash_read, c, lo[1],
		                hi[1]) != UC_ERR_OK) {
			(void)uc_hook_del(c->uc, c->flash_read_hook[0]);
			c->flash_hook_failed = true;
			return;
		}
		c->flash_hooked = true;
	} else {
		for (int i = 0; i < 2; i++)
			(void)uc_hook_del(c->uc, c->flash_read_hook[i]);
		c->flash_hooked = false;
	}
}

/* sim_config.memory_blocks: "load pipelining happens only when targeting the same memory block by
 * all loads (e.g. SRAM1 vs SRAM2 (and CCM) on f407)" (jnk0le's pipeline cycle tests, measured on
 * an STM32F407; docs/cycle-model.md). A load the rules pipelined with the load just before it
 * (CYC_DYN_PIPELINED) gets its cycle back when the two read different blocks. Which instruction
 * read `address` comes from the block's memory operations and the registers, as for MMIO. */
static void hook_block_read(uc_engine *uc, uc_mem_type type, uint64_t address, int size, int64_t value, void *ud)
{
	(void)uc;
	(void)type;
	(void)value;
	struct sim_core *c = ud;
	struct core_blk *b = c->cur;
	if (!b)
		return;
	bool same_run = c->mb_blk == b && c->mb_run == c->instructions;
	/* Accesses come in program order. The next access of an LDM, POP or LDRD (upwards, a word at
	 * a time, a D register of VPOP as one 8-byte access) belongs to it, even where a later load's
	 * address, computed with the base not yet written back, names the same word (`pop {r0, r2};
	 * ldr r4, [sp, #4]`). */
	if (same_run && (uint32_t)address == c->mb_next) {
		const struct core_memop *m = blk_memop_at(b, c->mb_idx);
		if (m && m->span > 4u && (uint32_t)address - c->mb_first < m->span) {
			c->mb_next = (uint32_t)address + (uint32_t)size;
			return;
		}
	}
	/* Else a later instruction first (its base may equal the one the load before wrote back),
	 * else the same one. */
	int i = blk_find_load(c, b, (uint32_t)address, same_run ? c->mb_idx + 1 : 0);
	if (i < 0 && same_run && blk_find_load(c, b, (uint32_t)address, c->mb_idx) == c->mb_idx) {
		c->mb_next = (uint32_t)address + (uint32_t)size;
		return;
	}
	if (i < 0) {
		c->mb_blk = NULL;
		return;
	}
	unsigned blk = mblk_block_of(c, (uint32_t)address);
	if (same_run && i == c->mb_idx + 1 && (b->cb->dyn[i] & CYC_DYN_PIPELINED) && blk && c->mb_block &&
	    blk != c->mb_block) {
		c->now += 1;
		if (c->scs.dwt.ctrl & DWT_CTRL_BLOCK_EVENTS)
			dwt_count_lsu(&c->scs, 1);
	}
	c->mb_blk = b;
	c->mb_run = c->instructions;
	c->mb_idx = i;
	c->mb_block = blk;
	c->mb_first = (uint32_t)address;
	c->mb_next = (uint32_t)address + (uint32_t)size;
}

static void hook_intr(uc_engine *uc, uint32_t intno, void *ud)
{
	struct sim_core *c = ud;
	c->stop_pc = core_pc(c);
	switch (intno) {
	case 7: /* EXCP_BKPT: PC at the BKPT */
		c->stop = STOP_BKPT;
		break;
	case 2: /* EXCP_SWI: PC after the SVC */
		c->stop = STOP_SVC;
		break;
	case 8: /* EXCP_EXCEPTION_EXIT: a branch to an EXC_RETURN value in handler mode */
		c->stop = STOP_EXC_RETURN;
		break;
	default:
		c->stop = STOP_OTHER;
		c->stop_addr = intno;
		break;
	}
	(void)uc_emu_stop(uc);
}

static bool map_region(struct sim_core *c, const struct bus_region *r);

static bool hook_unmapped(uc_engine *uc, uc_mem_type type, uint64_t address, int size, int64_t value, void *ud)
{
	struct sim_core *c = ud;
	(void)size, (void)value;
	/* A region added to the bus after core_new: map it now and retry. */
	const struct bus_region *r = bus_find(c->bus, (uint32_t)address);
	if (r) {
		struct core_mmio *m = mmio_slot(c, r);
		if (m && !m->mapped && map_region(c, r))
			return true;
	}
	c->stop_addr = (uint32_t)address;
	c->stop_write = type == UC_MEM_WRITE_UNMAPPED;
	return false;
}

/* A core write into memory with a write handler (flash): the handler decides (the FLASH controller
 * programs only with FLASH_CR.PG set, RM0090 3.6.4). Unicorn stores the value itself after this
 * hook, so the bytes the handler left are put back when emulation stops. */
static bool hook_write_prot(uc_engine *uc, uc_mem_type type, uint64_t address, int size, int64_t value, void *ud)
{
	struct sim_core *c = ud;
	uint32_t addr = (uint32_t)address;
	const struct bus_region *r = bus_find(c->bus, addr);
	(void)type;
	if (!r || !r->write || !r->mem || c->n_fixups >= sizeof(c->fixups) / sizeof(c->fixups[0]))
		return false;
	enum bus_result res = r->write(r->ctx, addr - r->base, (unsigned)size, BUS_CORE, (uint32_t)value);
	struct core_fixup *f = &c->fixups[c->n_fixups++];
	f->addr = addr;
	f->host = r->mem + (addr - r->base);
	f->size = (unsigned)size;
	memcpy(f->bytes, f->host, (size_t)size);
	if (res != BUS_OK) {
		/* Writes are buffered on the Cortex-M4: an error response is an imprecise BusFault
		 * (Armv7-M ARM B3.2.15, BFSR.IMPRECISERR). */
		c->stop = STOP_BUSFAULT;
		c->stop_addr = addr;
		c->stop_write = true;
	} else if (c->stop == STOP_NONE) {
		c->stop = STOP_WRITE_FLASH;
	}
	core_request_stop(c);
	return true;
}

static uint64_t mmio_read(uc_engine *uc, uint64_t offset, unsigned size, void *ud)
{
	struct core_mmio *m = ud;
	uint32_t v = 0;
	(void)uc;
	if (m->r->read(m->r->ctx, (uint32_t)offset, size, BUS_CORE, &v) != BUS_OK) {
		struct sim_core *c = m->c;
		if (c->stop == STOP_NONE || c->stop == STOP_BUDGET || c->stop == STOP_WRITE_FLASH) {
			c->stop = STOP_BUSFAULT;
			c->stop_addr = m->r->base + (uint32_t)offset;
			c->stop_write = false;
		}
		core_request_stop(c);
	}
	return v;
}

static void mmio_write(uc_engine *uc, uint64_t offset, unsigned size, uint64_t value, void *ud)
{
	struct core_mmio *m = ud;
	(void)uc;
	m->c->mmio_write_addr = m->r->base + (uint32_t)offset;
	bool ok = m->r->write && m->r->write(m->r->ctx, (uint32_t)offset, size, BUS_CORE, (uint32_t)value) == BUS_OK;
	/* A FLASH_ACR write that starts or ends the wait states: end the slice, core_flash_sync
	 * follows before the next (the only write inside a slice that changes them). */
	if (ok && core_flash_sync_due(m->c))
		core_request_stop(m->c);
	if (!ok) {
		struct sim_core *c = m->c;
		if (c->stop == STOP_NONE || c->stop == STOP_BUDGET || c->stop == STOP_WRITE_FLASH) {
			c->stop = STOP_BUSFAULT;
			c->stop_addr = m->r->base + (uint32_t)offset;
			c->stop_write = true;
		}
		core_request_stop(c);
	}
}

static uint64_t mmio_read_none(uc_engine *uc, uint64_t offset, unsigned size, void *ud)
{
	(void)uc, (void)offset, (void)size, (void)ud;
	return 0;
}

/* ---- the address map -------------------------------------------------------------------------- */

static struct core_mmio *mmio_slot(struct sim_core *c, const struct bus_region *r)
{
	size_t i = (size_t)(r - c->bus->regions);
	if (i >= BUS_MAX_REGIONS)
		return NULL;
	struct core_mmio *slots = (struct core_mmio *)(c + 1);
	slots[i].c = c;
	slots[i].r = r;
	return &slots[i];
}

static bool map_region(struct sim_core *c, const struct bus_region *r)
{
	struct core_mmio *m = mmio_slot(c, r);
	uc_err e;
	if (!m)
		return false;
	if (r->mem) {
		/* The very bytes the debugger sees through the bus. A write handler (flash) makes the
		 * region read-only for unicorn; hook_write_prot passes writes to the handler. */
		uint32_t perms = r->write ? (UC_PROT_READ | UC_PROT_EXEC) : UC_PROT_ALL;
		e = uc_mem_map_ptr(c->uc, r->base, r->size, perms, r->mem);
	} else if (r->read || r->write) {
		e = uc_mmio_map(c->uc, r->base, r->size, r->read ? mmio_read : mmio_read_none, m, mmio_write, m);
	} else {
		return false;
	}
	if (e != UC_ERR_OK)
		return false;
	m->mapped = true;
	return true;
}

void core_invalidate_code(struct sim_core *c, uint32_t addr, uint32_t size)
{
	if (c->in_emu) {
		/* Never drop translations under unicorn's feet: after the stop (hook_write_prot stops). */
		uint32_t hi = addr + size;
		for (unsigned i = 0; i < c->n_inval; i++) {
			if (addr <= c->inval[i].hi && hi >= c->inval[i].lo) {
				c->inval[i].lo = addr < c->inval[i].lo ? addr : c->inval[i].lo;
				c->inval[i].hi = hi > c->inval[i].hi ? hi : c->inval[i].hi;
				return;
			}
		}
		if (c->n_inval == sizeof(c->inval) / sizeof(c->inval[0])) {
			/* Rare (more scattered writes than slots): widen the last range. */
			unsigned l = c->n_inval - 1;
			c->inval[l].lo = addr < c->inval[l].lo ? addr : c->inval[l].lo;
			c->inval[l].hi = hi > c->inval[l].hi ? hi : c->inval[l].hi;
			return;
		}
		c->inval[c->n_inval].lo = addr;
		c->inval[c->n_inval].hi = hi;
		c->n_inval++;
		return;
	}
	blk_drop_range(c, addr, size);
}

uint64_t core_cycles(struct sim_core *c, uint32_t access_addr)
{
	return core_now(c, access_addr);
}

void core_pend_irq(struct sim_core *c, unsigned irq)
{
	if (irq < c->num_irq)
		exc_set_pending(&c->scs, EXC_IRQ0 + (int)irq);
}

void core_invalidate_all_code(struct sim_core *c)
{
	blk_drop_all(c);
}

static const struct {
	const char *name;
	uint32_t base;
	bus_read_fn read;
	bus_write_fn write;
} ppb_pages[] = {
    {"ITM", 0xE0000000u, itm_read, itm_write},
    {"DWT", 0xE0001000u, dwt_read, dwt_write},
    {"FPB", 0xE0002000u, fpb_read, fpb_write},
    {"SCS", 0xE000E000u, scs_read, scs_write},
};

/* Its error messages are (void)snprintf into the caller's ERR, as in loader.c: a cut message still
 * says what failed. */
static int add_ppb(struct sim_core *c, char *err, size_t errlen)
{
	for (size_t i = 0; i < sizeof(ppb_pages) / sizeof(ppb_pages[0]); i++) {
		struct bus_region r = {
		    .name = ppb_pages[i].name,
		    .base = ppb_pages[i].base,
		    .size = 0x1000,
		    .read = ppb_pages[i].read,
		    .write = ppb_pages[i].write,
		    .ctx = &c->scs,
		};
		if (bus_add_region(c->bus, &r) != 0) {
			(void)snprintf(err, errlen,
			               "core: cannot add the %s page at 0x%08x to the bus (taken or map full)", r.name,
			               r.base);
			return -1;
		}
	}
	/* The Cortex-M4's ROM table (TRM 8.3), which lists the pages above for the debugger. */
	if (romtable_add(c->bus) != 0) {
		(void)snprintf(err, errlen, "core: cannot add the ROM table at 0x%08x to the bus (taken or map full)",
		               ROMTABLE_BASE);
		return -1;
	}
	return 0;
}

_Static_assert(CORE_MAX_IRQ == SCS_MAX_IRQ, "scs/scs_state.h sizes the exception arrays for CORE_MAX_IRQ");

struct sim_core *core_new(struct sim_bus *bus, const struct sim_config *cfg, const struct core_soc *soc, char *err,
                          size_t errlen)
{
	if (soc->num_irq < 1 || soc->num_irq > CORE_MAX_IRQ) {
		(void)snprintf(err, errlen, "core: %u interrupt lines: a Cortex-M4 has 1 to %u", soc->num_irq,
		               CORE_MAX_IRQ);
		return NULL;
	}
	if (soc->prio_bits < 3 || soc->prio_bits > 8) {
		(void)snprintf(err, errlen, "core: %u priority bits: Armv7-M implements 3 to 8 (B1.5.4)",
		               soc->prio_bits);
		return NULL;
	}
	struct sim_core *c = calloc(1, sizeof(*c) + BUS_MAX_REGIONS * sizeof(struct core_mmio));
	if (!c) {
		(void)snprintf(err, errlen, "core: out of memory");
		return NULL;
	}
	c->bus = bus;
	c->cfg = *cfg;
	c->soc = *soc;
	c->num_irq = soc->num_irq;
	c->num_exc = EXC_IRQ0 + (int)soc->num_irq;
	c->scs.ops = &core_scs_ops;
	c->scs.core = c;
	c->scs.bus = bus;
	c->scs.num_irq = c->num_irq;
	c->scs.num_exc = c->num_exc;
	c->scs.uart_echo = cfg->uart_echo;
	c->scs.exc.prio_mask = (uint8_t)(0xFFu << (8 - soc->prio_bits));
	if (scs_check(err, errlen) != 0)
		goto fail;
	if (add_ppb(c, err, errlen) != 0)
		goto fail;
	/* Bit-banding is the Cortex-M4's (TRM 3.7): both alias regions, on the bus for the core and the AHB-AP. */
	if (bitband_add(bus, c->bitband) != 0) {
		(void)snprintf(err, errlen,
		               "core: cannot add the bit-band alias regions to the bus (taken or map full)");
		goto fail;
	}
	if (!c->soc.flash.ws || !c->soc.flash.block_wait || !c->soc.flash.literal_wait)
		c->soc.flash.size = 0; /* no timing for code memory: blocks never count as in flash */
	else if (c->soc.flash.set_wait_states)
		c->soc.flash.set_wait_states(c->soc.flash.ctx,
		                             cfg->force_wait_states ? (int)cfg->flash_wait_states : -1);
	c->cyc = cyc_new();
	if (!c->cyc) {
		(void)snprintf(err, errlen, "core: cannot create the cycle model (capstone)");
		goto fail;
	}
	c->scs.cyc = c->cyc;
	uc_err e = uc_open(UC_ARCH_ARM, UC_MODE_THUMB | UC_MODE_MCLASS, &c->uc);
	if (e == UC_ERR_OK)
		e = uc_ctl_set_cpu_model(c->uc, UC_CPU_ARM_CORTEX_M4);
	if (e != UC_ERR_OK) {
		(void)snprintf(err, errlen, "core: unicorn Cortex-M4: %s", uc_strerror(e));
		goto fail;
	}
	for (size_t i = 0; i < bus->n_regions; i++) {
		if (!map_region(c, &bus->regions[i])) {
			(void)snprintf(err, errlen, "core: cannot map bus region %s at 0x%08x into unicorn",
			               bus->regions[i].name ? bus->regions[i].name : "?", bus->regions[i].base);
			goto fail;
		}
	}
	uc_hook h;
	if (uc_hook_add(c->uc, &h, UC_HOOK_BLOCK, (void *)hook_block, c, 1, 0) != UC_ERR_OK ||
	    uc_hook_add(c->uc, &h, UC_HOOK_INTR, (void *)hook_intr, c, 1, 0) != UC_ERR_OK ||
	    uc_hook_add(c->uc, &h, UC_HOOK_MEM_UNMAPPED, (void *)hook_unmapped, c, 1, 0) != UC_ERR_OK ||
	    uc_hook_add(c->uc, &h, UC_HOOK_MEM_WRITE_PROT, (void *)hook_write_prot, c, 1, 0) != UC_ERR_OK) {
		(void)snprintf(err, errlen, "core: cannot add unicorn hooks");
		goto fail;
	}
	c->mb_entry = cfg->memory_blocks == SIM_MB_ENTRY && c->soc.n_mem_blocks;
	if (cfg->memory_blocks == SIM_MB_EXACT && c->soc.n_mem_blocks &&
	    uc_hook_add(c->uc, &h, UC_HOOK_MEM_READ, (void *)hook_block_read, c, 1, 0) != UC_ERR_OK) {
		(void)snprintf(err, errlen, "core: cannot add the memory-block read hook");
		goto fail;
	}
	core_power_on_reset(c);
	if (cfg->trace)
		core_set_trace(c, true);
	return c;
fail:
	core_free(c);
	return NULL;
}

void core_free(struct sim_core *c)
{
	if (!c)
		return;
	itm_flush(&c->scs); /* an unfinished ITM line */
	if (c->uc) {
		blk_free_all(c);
		(void)uc_close(c->uc);
	}
	cyc_free(c->cyc);
	blk_cache_free(c);
	free(c);
}

void core_set_wait_states(struct sim_core *c, int flash_wait_states)
{
	/* Nothing cached depends on them: the accelerator adds its waits per block at run time. */
	c->cfg.force_wait_states = flash_wait_states >= 0;
	c->cfg.flash_wait_states = flash_wait_states >= 0 ? (unsigned)flash_wait_states : 0u;
	if (c->soc.flash.set_wait_states)
		c->soc.flash.set_wait_states(c->soc.flash.ctx, flash_wait_states);
}

unsigned core_wait_states(const struct sim_core *c)
{
	return c->soc.flash.ws && c->soc.flash.size ? *c->soc.flash.ws : 0u;
}

static void hook_trace(uc_engine *uc, uint64_t address, uint32_t size, void *ud)
{
	struct sim_core *c = ud;
	uint8_t code[4] = {0};
	if (size > sizeof(code) || uc_mem_read(uc, address, code, size) != UC_ERR_OK)
		return;
	if (size == 4)
		fprintf(stderr, "trace: %08x: %02x%02x %02x%02x\n", (uint32_t)address, code[1], code[0], code[3],
		        code[2]);
	else
		fprintf(stderr, "trace: %08x: %02x%02x\n", (uint32_t)address, code[1], code[0]);
	(void)c;
}

void core_set_trace(struct sim_core *c, bool trace)
{
	if (trace == (c->trace_hook != 0))
		return;
	if (trace) {
		if (uc_hook_add(c->uc, &c->trace_hook, UC_HOOK_CODE, (void *)hook_trace, c, 1, 0) != UC_ERR_OK)
			c->trace_hook = 0;
	} else {
		(void)uc_hook_del(c->uc, c->trace_hook);
		c->trace_hook = 0;
	}
	c->cfg.trace = trace;
	blk_retranslate_all(c); /* translations carry their code hooks: translate again */
}
