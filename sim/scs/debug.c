/* Halting debug (Armv7-M ARM C1.5, C1.6): DHCSR, DCRSR, DCRDR, DEMCR (DFSR is a row of scs.c beside
 * the other SCB fault registers). What stock OpenOCD 0.12 relies on (src/target/cortex_m.c):
 *  - C_HALT reads 1 whenever the core is halted: cortex_m_write_debug_halt_mask() read-modify-writes
 *    its cached DHCSR, so a 0 there would resume the core with its next write;
 *  - S_RETIRE_ST and S_RESET_ST are sticky and clear on read (cortex_m_read_dhcsr_atomic_sticky);
 *  - a step (C_STEP with C_HALT clear) has finished by the next DHCSR read: cortex_m_step() writes
 *    C_STEP and then C_HALT back to back, so the step runs inside the DHCSR write;
 *  - register transfers complete at once (S_REGRDY reads 1), 53 registers per halt with the FPU. */
#include "core/core_internal.h"

#include <string.h>

void debug_power_on(struct sim_core *c)
{
	c->dbg.dhcsr_ctrl = 0;
	c->dbg.dhcsr_sticky = 0;
	c->dbg.demcr = 0;
	scs_reset(c, true); /* DCRDR, DFSR */
}

bool debug_enabled(const struct sim_core *c)
{
	return (c->dbg.dhcsr_ctrl & DHCSR_C_DEBUGEN) != 0;
}

void debug_halt(struct sim_core *c, uint32_t dfsr_bits)
{
	c->dbg.dfsr |= dfsr_bits;
	c->dbg.dhcsr_ctrl |= DHCSR_C_HALT;
	c->entry_refill = false;
	c->fetch_next = CYC_FETCH_FULL;
	if (c->state == CORE_HALTED)
		return;
	c->state = CORE_HALTED;
	c->halts++;
}

static void resume(struct sim_core *c)
{
	/* The debugger may have rewritten code (a flash loader into RAM, a patched instruction):
	 * drop every translation whose bytes changed. */
	(void)blk_check_rewritten(c);
	c->state = c->locked ? CORE_LOCKUP : CORE_RUNNING;
}

uint32_t debug_read_core_reg(struct sim_core *c, unsigned sel, bool *ok)
{
	*ok = true;
	if (sel <= 12)
		return core_reg(c, UC_ARM_REG_R0 + (int)sel);
	if (sel >= 0x40 && sel <= 0x5F)
		return core_read_s(c, sel - 0x40);
	switch (sel) {
	case 13:
		return core_reg(c, UC_ARM_REG_SP);
	case 14:
		return core_reg(c, UC_ARM_REG_LR);
	case 15:
		return core_pc(c);
	case 16: /* unicorn reads EPSR.T as 0 while stopped; M-profile code is always Thumb */
		return core_reg(c, UC_ARM_REG_XPSR) | 0x01000000u;
	case 17:
		return core_reg(c, UC_ARM_REG_MSP);
	case 18:
		return core_reg(c, UC_ARM_REG_PSP);
	case 20:
		return (core_reg(c, UC_ARM_REG_CONTROL) & 0xFFu) << 24 |
		       (core_reg(c, UC_ARM_REG_FAULTMASK) & 1u) << 16 | (core_reg(c, UC_ARM_REG_BASEPRI) & 0xFFu) << 8 |
		       (core_reg(c, UC_ARM_REG_PRIMASK) & 1u);
	case 0x21:
		return core_reg(c, UC_ARM_REG_FPSCR);
	default:
		*ok = false;
		return 0;
	}
}

bool debug_write_core_reg(struct sim_core *c, unsigned sel, uint32_t v)
{
	if (sel <= 12) {
		core_set_reg(c, UC_ARM_REG_R0 + (int)sel, v);
		return true;
	}
	if (sel >= 0x40 && sel <= 0x5F) {
		core_write_s(c, sel - 0x40, v);
		return true;
	}
	switch (sel) {
	case 13:
		core_set_reg(c, UC_ARM_REG_SP, v & ~3u);
		return true;
	case 14:
		core_set_reg(c, UC_ARM_REG_LR, v);
		return true;
	case 15:
		core_set_pc(c, v & ~1u);
		return true;
	case 16:
		core_set_reg(c, UC_ARM_REG_XPSR, v | 0x01000000u);
		return true;
	case 17:
		core_set_reg(c, UC_ARM_REG_MSP, v & ~3u);
		return true;
	case 18:
		core_set_reg(c, UC_ARM_REG_PSP, v & ~3u);
		return true;
	case 20:
		core_set_reg(c, UC_ARM_REG_PRIMASK, v & 1u);
		core_set_reg(c, UC_ARM_REG_BASEPRI, (v >> 8) & 0xFFu);
		core_set_reg(c, UC_ARM_REG_FAULTMASK, (v >> 16) & 1u);
		core_set_reg(c, UC_ARM_REG_CONTROL, (v >> 24) & 0x7u);
		return true;
	case 0x21:
		core_set_reg(c, UC_ARM_REG_FPSCR, v);
		return true;
	default:
		return false;
	}
}

uint32_t debug_dhcsr_read(struct sim_core *c)
{
	uint32_t v = c->dbg.dhcsr_ctrl | c->dbg.dhcsr_sticky | DHCSR_S_REGRDY;
	if (c->state == CORE_HALTED)
		v |= DHCSR_S_HALT | DHCSR_C_HALT;
	if (c->state == CORE_SLEEPING)
		v |= DHCSR_S_SLEEP;
	if (c->locked)
		v |= DHCSR_S_LOCKUP;
	c->dbg.dhcsr_sticky = 0; /* S_RETIRE_ST, S_RESET_ST: cleared on read (C1.6.3) */
	return v;
}

void debug_dhcsr_write(struct sim_core *c, enum bus_initiator who, uint32_t v)
{
	if (who != BUS_DEBUG)
		return; /* the processor cannot write DHCSR (C1.6.3) */
	if ((v & 0xFFFF0000u) != DHCSR_DBGKEY)
		return; /* C1.6.3: writes without DBGKEY are ignored */
	uint32_t ctrl = v & (DHCSR_C_DEBUGEN | DHCSR_C_HALT | DHCSR_C_STEP | DHCSR_C_MASKINTS | DHCSR_C_SNAPSTALL);
	bool was_enabled = debug_enabled(c);
	bool halted = c->state == CORE_HALTED;
	if (!(ctrl & DHCSR_C_DEBUGEN)) {
		c->dbg.dhcsr_ctrl = 0;
		if (was_enabled)
			fpb_update(c);
		if (halted)
			resume(c);
		return;
	}
	c->dbg.dhcsr_ctrl = ctrl;
	if (!was_enabled)
		fpb_update(c);
	if (halted) {
		if (ctrl & DHCSR_C_HALT)
			return;
		if (ctrl & DHCSR_C_STEP) {
			resume(c);
			core_step(c);
		} else {
			resume(c);
		}
		return;
	}
	if (ctrl & DHCSR_C_HALT)
		debug_halt(c, DFSR_HALTED);
}

/* DCRSR (C1.6.4): a register transfer, only from the debugger in debug state; REGWnR is bit 16. */
void debug_dcrsr_write(struct sim_core *c, enum bus_initiator who, uint32_t v)
{
	if (who != BUS_DEBUG || c->state != CORE_HALTED)
		return;
	if (v & (1u << 16)) {
		(void)debug_write_core_reg(c, v & 0x7Fu, c->dbg.dcrdr);
	} else {
		bool ok;
		c->dbg.dcrdr = debug_read_core_reg(c, v & 0x7Fu, &ok);
	}
}

void debug_demcr_write(struct sim_core *c, uint32_t v)
{
	dwt_sync(c, core_now(c, 0xE000EDFCu)); /* TRCENA gates CYCCNT: fold the cycles so far first */
	c->dbg.demcr = v & DEMCR_WRITABLE;
}

uint32_t debug_demcr(const struct sim_core *c)
{
	return c->dbg.demcr;
}

bool debug_trcena(const struct sim_core *c)
{
	return (c->dbg.demcr & DEMCR_TRCENA) != 0;
}

bool debug_vector_catch(const struct sim_core *c, uint32_t vc_bits)
{
	return debug_enabled(c) && (c->dbg.demcr & vc_bits);
}

bool debug_masking_ints(const struct sim_core *c)
{
	return debug_enabled(c) && (c->dbg.dhcsr_ctrl & DHCSR_C_MASKINTS);
}

bool debug_halt_requested(const struct sim_core *c)
{
	return (c->dbg.dhcsr_ctrl & DHCSR_C_HALT) != 0;
}

void debug_note_sticky(struct sim_core *c, uint32_t s_bits)
{
	c->dbg.dhcsr_sticky |= s_bits & (DHCSR_S_RETIRE_ST | DHCSR_S_RESET_ST);
}

bool debug_monitor_enabled(const struct sim_core *c)
{
	return (c->dbg.demcr & DEMCR_MON_EN) != 0;
}

void debug_set_dfsr(struct sim_core *c, uint32_t dfsr_bits)
{
	c->dbg.dfsr |= dfsr_bits;
}
