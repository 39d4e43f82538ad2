/* The virtual Cortex-M4F (core.h): unicorn for the instruction set, glued to the system bus, and
 * the run loop that turns unicorn's stops (hooks, interrupts, errors) into what an Armv7-M core
 * does: debug halts (Armv7-M ARM C1), exceptions and faults (B1.5), sleep (B1.5.18).
 *
 * Time: every cycle is charged per translated block from the cycle model (cycles.h), never per
 * instruction; see core_internal.h for how the count inside a block is exact. */
#include "core/core_internal.h"
#include "core/core_blocks.h"
#include "core/core_mblocks.h"
#include "scs/dwt.h"
#include "scs/exc.h"
#include "scs/fpb.h"
#include "scs/itm.h"
#include "scs/scs.h"
#include "scs/romtable.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	if (core_map_all(c, err, errlen) != 0)
		goto fail;
	c->mb_entry = cfg->memory_blocks == SIM_MB_ENTRY && c->soc.n_mem_blocks;
	c->ua_entry = cfg->unaligned == SIM_UA_ENTRY;
	if (core_clock_hooks(c, cfg->memory_blocks == SIM_MB_EXACT && c->soc.n_mem_blocks) != 0) {
		(void)snprintf(err, errlen, "core: cannot add the block hooks");
		goto fail;
	}
	if (cfg->unaligned == SIM_UA_EXACT && core_unaligned_hooks(c) != 0) {
		(void)snprintf(err, errlen, "core: cannot add the unaligned-access hook");
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

static void ledger_totals_add(void *ctx, uint32_t pc, enum core_charge_why why, uint64_t cycles)
{
	uint64_t *by = ctx;
	(void)pc;
	by[why] += cycles;
}

void core_set_ledger_totals(struct sim_core *c, uint64_t *by_why)
{
	core_set_ledger(c, by_why ? ledger_totals_add : NULL, by_why);
	c->ledger_totals = by_why;
}

void core_set_ledger(struct sim_core *c, core_ledger_fn fn, void *ctx)
{
	c->ledger = fn;
	c->ledger_ctx = ctx;
	c->ledger_totals = NULL;
}

const char *core_charge_name(enum core_charge_why why)
{
	return cyc_why_name((unsigned)why);
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
	free(c->pcsr.ring);
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
