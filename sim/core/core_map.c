/* The core's address map in unicorn 2.0.1: every bus region mapped (plain memory on its own bytes,
 * register regions onto their bus handlers with BUS_CORE), a region added after core_new() mapped
 * on first touch, writes into write-handled memory (flash) passed to the handler, and the
 * interrupt hook that turns BKPT, SVC and exception returns into stops for the run loop. */
#include "core/core_blocks.h"
#include "core/core_internal.h"
#include "scs/exc.h"

#include <stdio.h>
#include <string.h>

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

int core_map_all(struct sim_core *c, char *err, size_t errlen)
{
	for (size_t i = 0; i < c->bus->n_regions; i++) {
		if (!map_region(c, &c->bus->regions[i])) {
			(void)snprintf(err, errlen, "core: cannot map bus region %s at 0x%08x into unicorn",
			               c->bus->regions[i].name ? c->bus->regions[i].name : "?",
			               c->bus->regions[i].base);
			return -1;
		}
	}
	uc_hook h;
	if (uc_hook_add(c->uc, &h, UC_HOOK_INTR, (void *)hook_intr, c, 1, 0) != UC_ERR_OK ||
	    uc_hook_add(c->uc, &h, UC_HOOK_MEM_UNMAPPED, (void *)hook_unmapped, c, 1, 0) != UC_ERR_OK ||
	    uc_hook_add(c->uc, &h, UC_HOOK_MEM_WRITE_PROT, (void *)hook_write_prot, c, 1, 0) != UC_ERR_OK) {
		(void)snprintf(err, errlen, "core: cannot add unicorn hooks");
		return -1;
	}
	return 0;
}
