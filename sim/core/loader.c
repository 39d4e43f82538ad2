/* Loading an ELF through the back door (core_load_elf) and the stand-alone built-in debugger
 * (core_run_standalone), both declared in core.h. */
#include "core/core_internal.h"
#include "scs/debug.h"
#include "scs/exc.h"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Copies bytes into plain memory regions of the bus, bypassing any write handler (factory
 * programming of flash). Returns 0, or -1 when a byte falls outside plain memory. */
static int backdoor_write(struct sim_core *c, uint32_t addr, const uint8_t *p, size_t len)
{
	while (len) {
		const struct bus_region *r = bus_find(c->bus, addr);
		if (!r || !r->mem)
			return -1;
		size_t room = r->size - (addr - r->base);
		size_t n = len < room ? len : room;
		memcpy(r->mem + (addr - r->base), p, n);
		core_invalidate_code(c, addr, (uint32_t)n);
		addr += (uint32_t)n;
		p += n;
		len -= n;
	}
	return 0;
}

/* Error messages go into the caller's ERR as bitbang.c and stm32f4.c write theirs: (void)snprintf,
 * since a message cut at ERRLEN still says what failed and there is nothing better to do. */
static int load_segments(struct sim_core *c, Elf *elf, const char *path, char *err, size_t errlen)
{
	size_t n;
	if (elf_kind(elf) != ELF_K_ELF || elf_getphdrnum(elf, &n) != 0) {
		(void)snprintf(err, errlen, "%s: not an ELF file", path);
		return -1;
	}
	GElf_Ehdr eh;
	if (!gelf_getehdr(elf, &eh) || eh.e_machine != EM_ARM) {
		(void)snprintf(err, errlen, "%s: not an ARM ELF file", path);
		return -1;
	}
	size_t filesize;
	const char *image = elf_rawfile(elf, &filesize);
	if (!image) {
		(void)snprintf(err, errlen, "%s: cannot read: %s", path, elf_errmsg(-1));
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(elf, (int)i, &ph)) {
			(void)snprintf(err, errlen, "%s: bad program header %zu", path, i);
			return -1;
		}
		if (ph.p_type != PT_LOAD || ph.p_filesz == 0)
			continue;
		if (ph.p_offset + ph.p_filesz > filesize || ph.p_paddr + ph.p_filesz > 0x100000000ull) {
			(void)snprintf(err, errlen, "%s: segment %zu lies outside the file or the address space", path,
			               i);
			return -1;
		}
		if (backdoor_write(c, (uint32_t)ph.p_paddr, (const uint8_t *)image + ph.p_offset, ph.p_filesz) != 0) {
			(void)snprintf(err, errlen, "%s: segment %zu at 0x%08llx (%llu bytes) is not in flash or RAM",
			               path, i, (unsigned long long)ph.p_paddr, (unsigned long long)ph.p_filesz);
			return -1;
		}
	}
	return 0;
}

int core_load_elf(struct sim_core *c, const char *path, char *err, size_t errlen)
{
	if (elf_version(EV_CURRENT) == EV_NONE) {
		(void)snprintf(err, errlen, "libelf: %s", elf_errmsg(-1));
		return -1;
	}
	int fd = open(path, O_RDONLY);
	if (fd < 0) {
		(void)snprintf(err, errlen, "%s: cannot open", path);
		return -1;
	}
	Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
	int rc = -1;
	if (!elf)
		(void)snprintf(err, errlen, "%s: %s", path, elf_errmsg(-1));
	else
		rc = load_segments(c, elf, path, err, errlen);
	if (elf)
		(void)elf_end(elf);
	(void)close(fd);
	if (rc == 0) /* as after programming a board: the core starts from the new vector table */
		core_local_reset(c, false);
	return rc;
}

static const char *halt_reason(uint32_t dfsr)
{
	if (dfsr & DFSR_BKPT)
		return "bkpt";
	if (dfsr & DFSR_DWTTRAP)
		return "dwt";
	if (dfsr & DFSR_VCATCH)
		return "vcatch";
	return "halted";
}

/* The built-in debugger reaches the core as OpenOCD does: through the bus, as the debugger. */
#define SA_DHCSR     0xE000EDF0u
#define SA_DEMCR     0xE000EDFCu
#define SA_DFSR      0xE000ED30u
#define SA_DWT_CTRL  0xE0001000u
#define SA_DWT_CYCNT 0xE0001004u

static bool sa_read(struct sim_core *c, uint32_t addr, uint32_t *v)
{
	return bus_read(c->bus, addr, 4, BUS_DEBUG, v) == BUS_OK;
}

static bool sa_write(struct sim_core *c, uint32_t addr, uint32_t v)
{
	return bus_write(c->bus, addr, 4, BUS_DEBUG, v) == BUS_OK;
}

/* Fills *end; returns its reason (CORE_END_ERROR when CYCCNT cannot be read). */
static enum core_end ended(struct sim_core *c, enum core_end why, struct core_end_info *end)
{
	uint32_t cyccnt = 0;
	end->why = why;
	end->pc = core_pc(c);
	end->exc = exc_current(&c->scs);
	if (!sa_read(c, SA_DWT_CYCNT, &cyccnt) && why != CORE_END_ERROR)
		return ended(c, CORE_END_ERROR, end);
	end->cyccnt = cyccnt;
	return why;
}

/* After a slice that left the core running, sleeping or locked up: true when the run ends
 * there (*end says how). */
static bool no_progress(struct sim_core *c, struct core_end_info *end)
{
	enum core_state st = core_state(c);
	uint32_t pc = 0;
	int exc = 0;
	if (st == CORE_LOCKUP)
		(void)ended(c, CORE_END_LOCKUP, end);
	else if (c->end_run)
		(void)ended(c, CORE_END_STOPPED, end);
	else if (st == CORE_SLEEPING && !core_runnable(c))
		(void)ended(c, CORE_END_SLEEP, end);
	else if (st == CORE_RUNNING && core_stuck(c, &pc, &exc))
		(void)ended(c, CORE_END_SPIN, end);
	else
		return false;
	return true;
}

/* The next slice: up to CORE_STUCK_SLICE cycles, so that a spin is found soon after it starts. */
static uint64_t slice(uint64_t used, uint64_t max_cycles)
{
	uint64_t left = max_cycles - used;
	return left < CORE_STUCK_SLICE ? left : CORE_STUCK_SLICE;
}

enum core_end core_run_standalone(struct sim_core *c, uint64_t max_cycles, void *out, void (*on_halt)(void *ctx),
                                  void *ctx, struct core_end_info *end)
{
	FILE *f = out;
	uint32_t demcr = 0, dwt_ctrl = 0;
	/* Attach as a debugger does: halting debug on, and the cycle counter running (DEMCR.TRCENA,
	 * DWT_CTRL.CYCCNTENA) so cyccnt= is meaningful even before the firmware enables it. */
	if (!sa_write(c, SA_DHCSR, DHCSR_DBGKEY | DHCSR_C_DEBUGEN) || !sa_read(c, SA_DEMCR, &demcr) ||
	    !sa_write(c, SA_DEMCR, demcr | DEMCR_TRCENA) || !sa_read(c, SA_DWT_CTRL, &dwt_ctrl) ||
	    !sa_write(c, SA_DWT_CTRL, dwt_ctrl | 1u))
		return ended(c, CORE_END_ERROR, end);
	uint64_t used = 0;
	while (used < max_cycles) {
		used += core_run(c, slice(used, max_cycles));
		enum core_state st = core_state(c);
		uint32_t cyccnt = 0, dfsr = 0;
		if (st == CORE_LOCKUP) {
			if (!sa_read(c, SA_DWT_CYCNT, &cyccnt))
				return ended(c, CORE_END_ERROR, end);
			fprintf(f, "halt pc=0x%08x imm=0 cyccnt=%u reason=lockup\n", core_pc(c), cyccnt);
			(void)fflush(f);
		}
		if (st != CORE_HALTED) {
			if (no_progress(c, end))
				return end->why;
			continue;
		}
		if (!sa_read(c, SA_DWT_CYCNT, &cyccnt) || !sa_read(c, SA_DFSR, &dfsr))
			return ended(c, CORE_END_ERROR, end);
		uint32_t pc = core_pc(c);
		uint32_t hw = 0;
		bool is_bkpt = bus_read(c->bus, pc, 2, BUS_DEBUG, &hw) == BUS_OK && (hw & 0xFF00u) == 0xBE00u &&
		               (dfsr & DFSR_BKPT);
		unsigned imm = is_bkpt ? hw & 0xFFu : 0;
		fprintf(f, "halt pc=0x%08x imm=%u cyccnt=%u reason=%s\n", pc, imm, cyccnt, halt_reason(dfsr));
		if (on_halt)
			on_halt(ctx);
		(void)fflush(f);
		if (is_bkpt && imm == 4)
			return ended(c, CORE_END_DONE, end);
		if (!sa_write(c, SA_DFSR, dfsr)) /* write-one-to-clear: the reasons just reported */
			return ended(c, CORE_END_ERROR, end);
		if (is_bkpt)
			core_set_pc(c, pc + 2); /* what OpenOCD's armv7m_maybe_skip_bkpt_inst does */
		if (!sa_write(c, SA_DHCSR, DHCSR_DBGKEY | DHCSR_C_DEBUGEN))
			return ended(c, CORE_END_ERROR, end);
	}
	return ended(c, CORE_END_MAX_CYCLES, end);
}

enum core_end core_run_unattached(struct sim_core *c, uint64_t max_cycles, struct core_end_info *end)
{
	uint64_t used = 0;
	/* No debugger: DHCSR.C_DEBUGEN stays as reset left it (0), so a BKPT takes DebugMonitor when
	 * DEMCR.MON_EN is set, else HardFault (Armv7-M ARM C1.7, B1.5), as on a board with no probe. */
	while (used < max_cycles) {
		used += core_run(c, slice(used, max_cycles));
		if (core_state(c) == CORE_HALTED)
			return ended(c, CORE_END_HALTED, end);
		if (no_progress(c, end))
			return end->why;
	}
	return ended(c, CORE_END_MAX_CYCLES, end);
}
