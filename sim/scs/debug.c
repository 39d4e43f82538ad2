/* Halting debug (Armv7-M ARM C1.5, C1.6): DHCSR, DCRSR, DCRDR, DEMCR (DFSR is a row of scs.c beside
 * the other SCB fault registers). What stock OpenOCD 0.12 relies on (src/target/cortex_m.c):
 *  - C_HALT reads 1 whenever the core is halted: cortex_m_write_debug_halt_mask() read-modify-writes
 *    its cached DHCSR, so a 0 there would resume the core with its next write;
 *  - S_RETIRE_ST and S_RESET_ST are sticky and clear on read (cortex_m_read_dhcsr_atomic_sticky);
 *  - a step (C_STEP with C_HALT clear) has finished by the next DHCSR read: cortex_m_step() writes
 *    C_STEP and then C_HALT back to back, so the step runs inside the DHCSR write;
 *  - register transfers complete at once (S_REGRDY reads 1), 53 registers per halt with the FPU. */
#include "scs/debug.h"
#include "scs/dwt.h"
#include "scs/scs_state.h"

#include <string.h>

void debug_power_on(struct scs *s)
{
	s->dbg.dhcsr_ctrl = 0;
	s->dbg.dhcsr_sticky = 0;
	s->dbg.demcr = 0;
}

void debug_halt(struct scs *s, uint32_t dfsr_bits)
{
	s->dbg.dfsr |= dfsr_bits;
	s->dbg.dhcsr_ctrl |= DHCSR_C_HALT;
	s->ops->halt(s->core);
}

static void resume(struct scs *s)
{
	/* The debugger may have rewritten code (a flash loader into RAM, a patched instruction):
	 * the core drops every translation whose bytes changed. */
	s->ops->resume(s->core);
}

uint32_t debug_read_core_reg(struct scs *s, unsigned sel, bool *ok)
{
	*ok = true;
	if (sel <= 12)
		return scs_reg(s, SCS_REG_R0 + sel);
	if (sel >= 0x40 && sel <= 0x5F)
		return scs_reg(s, SCS_REG_S0 + (sel - 0x40));
	switch (sel) {
	case 13:
		return scs_reg(s, SCS_REG_SP);
	case 14:
		return scs_reg(s, SCS_REG_LR);
	case 15:
		return scs_reg(s, SCS_REG_PC);
	case 16: /* unicorn reads EPSR.T as 0 while stopped; M-profile code is always Thumb */
		return scs_reg(s, SCS_REG_XPSR) | 0x01000000u;
	case 17:
		return scs_reg(s, SCS_REG_MSP);
	case 18:
		return scs_reg(s, SCS_REG_PSP);
	case 20:
		return (scs_reg(s, SCS_REG_CONTROL) & 0xFFu) << 24 | (scs_reg(s, SCS_REG_FAULTMASK) & 1u) << 16 |
		       (scs_reg(s, SCS_REG_BASEPRI) & 0xFFu) << 8 | (scs_reg(s, SCS_REG_PRIMASK) & 1u);
	case 0x21:
		return scs_reg(s, SCS_REG_FPSCR);
	default:
		*ok = false;
		return 0;
	}
}

bool debug_write_core_reg(struct scs *s, unsigned sel, uint32_t v)
{
	if (sel <= 12) {
		scs_set_reg(s, SCS_REG_R0 + sel, v);
		return true;
	}
	if (sel >= 0x40 && sel <= 0x5F) {
		scs_set_reg(s, SCS_REG_S0 + (sel - 0x40), v);
		return true;
	}
	switch (sel) {
	case 13:
		scs_set_reg(s, SCS_REG_SP, v & ~3u);
		return true;
	case 14:
		scs_set_reg(s, SCS_REG_LR, v);
		return true;
	case 15:
		scs_set_reg(s, SCS_REG_PC, v & ~1u);
		return true;
	case 16:
		scs_set_reg(s, SCS_REG_XPSR, v | 0x01000000u);
		return true;
	case 17:
		scs_set_reg(s, SCS_REG_MSP, v & ~3u);
		return true;
	case 18:
		scs_set_reg(s, SCS_REG_PSP, v & ~3u);
		return true;
	case 20:
		scs_set_reg(s, SCS_REG_PRIMASK, v & 1u);
		scs_set_reg(s, SCS_REG_BASEPRI, (v >> 8) & 0xFFu);
		scs_set_reg(s, SCS_REG_FAULTMASK, (v >> 16) & 1u);
		scs_set_reg(s, SCS_REG_CONTROL, (v >> 24) & 0x7u);
		return true;
	case 0x21:
		scs_set_reg(s, SCS_REG_FPSCR, v);
		return true;
	default:
		return false;
	}
}

uint32_t debug_dhcsr_read(struct scs *s)
{
	uint32_t v = s->dbg.dhcsr_ctrl | s->dbg.dhcsr_sticky | DHCSR_S_REGRDY;
	enum scs_cpu cpu = s->ops->cpu(s->core);
	if (cpu == SCS_CPU_HALTED) {
		/* What the core did up to this halt is written before the debugger can see it
		 * (bench-sim --record, docs/sim-record.md). */
		s->ops->halt_seen(s->core);
		v |= DHCSR_S_HALT | DHCSR_C_HALT;
	}
	if (cpu == SCS_CPU_SLEEPING)
		v |= DHCSR_S_SLEEP;
	if (s->ops->locked(s->core))
		v |= DHCSR_S_LOCKUP;
	s->dbg.dhcsr_sticky = 0; /* S_RETIRE_ST, S_RESET_ST: cleared on read (C1.6.3) */
	return v;
}

void debug_dhcsr_write(struct scs *s, enum bus_initiator who, uint32_t v)
{
	if (who != BUS_DEBUG)
		return; /* the processor cannot write DHCSR (C1.6.3) */
	if ((v & 0xFFFF0000u) != DHCSR_DBGKEY)
		return; /* C1.6.3: writes without DBGKEY are ignored */
	uint32_t ctrl = v & (DHCSR_C_DEBUGEN | DHCSR_C_HALT | DHCSR_C_STEP | DHCSR_C_MASKINTS | DHCSR_C_SNAPSTALL);
	bool was_enabled = debug_enabled(s);
	bool halted = s->ops->cpu(s->core) == SCS_CPU_HALTED;
	if (!(ctrl & DHCSR_C_DEBUGEN)) {
		s->dbg.dhcsr_ctrl = 0;
		if (was_enabled)
			scs_points_changed(s);
		if (halted)
			resume(s);
		return;
	}
	s->dbg.dhcsr_ctrl = ctrl;
	if (!was_enabled)
		scs_points_changed(s);
	if (halted) {
		if (ctrl & DHCSR_C_HALT)
			return;
		if (ctrl & DHCSR_C_STEP) {
			resume(s);
			s->ops->step(s->core);
		} else {
			resume(s);
		}
		return;
	}
	if (ctrl & DHCSR_C_HALT)
		debug_halt(s, DFSR_HALTED);
}

/* DCRSR (C1.6.4): a register transfer, only from the debugger in debug state; REGWnR is bit 16. */
void debug_dcrsr_write(struct scs *s, enum bus_initiator who, uint32_t v)
{
	if (who != BUS_DEBUG || s->ops->cpu(s->core) != SCS_CPU_HALTED)
		return;
	if (v & (1u << 16)) {
		(void)debug_write_core_reg(s, v & 0x7Fu, s->dbg.dcrdr);
	} else {
		bool ok;
		s->dbg.dcrdr = debug_read_core_reg(s, v & 0x7Fu, &ok);
	}
}

void debug_demcr_write(struct scs *s, uint32_t v)
{
	dwt_sync(s, scs_now(s, 0xE000EDFCu)); /* TRCENA gates CYCCNT: fold the cycles so far first */
	s->dbg.demcr = v & DEMCR_WRITABLE;
}

uint32_t debug_demcr(const struct scs *s)
{
	return s->dbg.demcr;
}

bool debug_vector_catch(const struct scs *s, uint32_t vc_bits)
{
	return debug_enabled(s) && (s->dbg.demcr & vc_bits);
}

bool debug_masking_ints(const struct scs *s)
{
	return debug_enabled(s) && (s->dbg.dhcsr_ctrl & DHCSR_C_MASKINTS);
}

bool debug_halt_requested(const struct scs *s)
{
	return (s->dbg.dhcsr_ctrl & DHCSR_C_HALT) != 0;
}

void debug_note_sticky(struct scs *s, uint32_t s_bits)
{
	s->dbg.dhcsr_sticky |= s_bits & (DHCSR_S_RETIRE_ST | DHCSR_S_RESET_ST);
}

bool debug_monitor_enabled(const struct scs *s)
{
	return (s->dbg.demcr & DEMCR_MON_EN) != 0;
}

void debug_set_dfsr(struct scs *s, uint32_t dfsr_bits)
{
	s->dbg.dfsr |= dfsr_bits;
}
