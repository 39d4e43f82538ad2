/* The core's run loop and resets (core.h): runs unicorn in slices bounded by the cycle budget and
 * the next timer event, then turns the reason unicorn stopped into what an Armv7-M core does:
 * a debug halt (Armv7-M ARM C1.5), an exception or fault (B1.5), sleep (B1.5.18), lockup (B1.5.15). */
#include "core/core_internal.h"
#include "core/core_blk_hooks.h"
#include "core/core_blocks.h"
#include "core/core_mblocks.h"
#include "scs/debug.h"
#include "scs/dwt.h"
#include "scs/exc.h"
#include "scs/fpb.h"
#include "scs/scs.h"
#include "scs/systick.h"

#include <stdio.h>
#include <string.h>

/* ---- resets (B1.5.5 "Reset behavior", C1.4 for what debug keeps) ----------------------------- */

void core_local_reset(struct sim_core *c, bool system)
{
	/* Counted for the host (`stats` resets=): a reset between two halts that bench did not ask for
	 * (the firmware's SYSRESETREQ, NRST) means its inputs were set back (docs/reliability.md). */
	c->resets++;
	if (system && c->soc.system_reset)
		c->soc.system_reset(c->soc.ctx); /* the chip's part of SYSRESETREQ (the board's) */
	for (int r = UC_ARM_REG_R0; r <= UC_ARM_REG_R12; r++)
		core_set_reg(c, r, 0);
	/* Thread mode, privileged, MSP, no FP context: set IPSR 0 before CONTROL so the SP swap of
	 * CONTROL.SPSEL happens in thread mode. */
	core_set_reg(c, UC_ARM_REG_IPSR, 0);
	core_set_reg(c, UC_ARM_REG_CONTROL, 0);
	core_set_reg(c, UC_ARM_REG_PRIMASK, 0);
	core_set_reg(c, UC_ARM_REG_FAULTMASK, 0);
	core_set_reg(c, UC_ARM_REG_BASEPRI, 0);
	scs_reset(&c->scs, false); /* VTOR, SCR, CCR, CFSR, HFSR, MMFAR, BFAR, AFSR, CPACR, FPCAR, FPDSCR */
	exc_reset(&c->scs);
	c->event_reg = false;
	systick_reset(&c->scs);
	blk_set_fp_trap(c, false);
	exc_update_fp_trap(&c->scs);
	uint32_t sp = 0, pc = 0;
	uint32_t vtor = exc_vtor(&c->scs);
	if (bus_read(c->bus, vtor, 4, BUS_CORE, &sp) != BUS_OK ||
	    bus_read(c->bus, vtor + 4, 4, BUS_CORE, &pc) != BUS_OK) {
		/* No vector table: the reset exception's vector fetch fails, the core locks up. */
		c->locked = true;
		c->state = CORE_LOCKUP;
		core_set_pc(c, CORE_LOCKUP_PC);
		return;
	}
	core_set_reg(c, UC_ARM_REG_MSP, sp & ~3u);
	core_set_reg(c, UC_ARM_REG_PSP, 0);
	core_set_reg(c, UC_ARM_REG_LR, 0xFFFFFFFFu);
	core_set_reg(c, UC_ARM_REG_XPSR, 0x01000000u); /* EPSR.T */
	core_set_pc(c, pc);
	c->locked = false;
	c->state = CORE_RUNNING;
	c->cur = NULL;
	c->entry_refill = true; /* the reset handler is fetched afresh, after the vectors */
	if (c->rec)
		core_rec_reset(c, pc & ~1u);
	debug_note_sticky(&c->scs, DHCSR_S_RESET_ST);
	/* C1.6.5 DEMCR.VC_CORERESET: halt on the reset vector's first instruction. */
	if (debug_vector_catch(&c->scs, DEMCR_VC_CORERESET))
		debug_halt(&c->scs, DFSR_VCATCH);
	else if (debug_enabled(&c->scs) && debug_halt_requested(&c->scs))
		debug_halt(&c->scs, DFSR_HALTED);
}

void core_power_on_reset(struct sim_core *c)
{
	debug_power_on(&c->scs);
	scs_reset(&c->scs, true); /* DCRDR, DFSR */
	dwt_power_on(&c->scs);
	fpb_power_on(&c->scs);
	c->now = 0; /* VTOR: exc_reset, in the local reset below */
	core_pcsr_forget(c);
	c->pcsr.rng = CORE_PCSR_SEED;
	core_local_reset(c, true);
}

static void apply_fixups(struct sim_core *c)
{
	for (unsigned i = 0; i < c->n_fixups; i++)
		memcpy(c->fixups[i].host, c->fixups[i].bytes, c->fixups[i].size);
	c->n_fixups = 0;
	for (unsigned i = 0; i < c->n_inval; i++)
		blk_drop_range(c, c->inval[i].lo, c->inval[i].hi - c->inval[i].lo);
	c->n_inval = 0;
}

static uint16_t halfword_at(struct sim_core *c, uint32_t addr)
{
	uint32_t v = 0;
	if (bus_read(c->bus, addr, 2, BUS_CORE, &v) != BUS_OK)
		return 0;
	return (uint16_t)v;
}

/* ---- sleep (B1.5.18 WFI, B1.5.19 WFE) ---------------------------------------------------------- */

static bool wake_pending(struct sim_core *c)
{
	/* WFI wakes for an exception that would preempt were PRIMASK clear (B1.5.19). */
	return exc_pending_preempting(&c->scs) != 0 || (exc_any_pending(&c->scs) && core_reg(c, UC_ARM_REG_PRIMASK));
}

static void enter_sleep(struct sim_core *c)
{
	if (wake_pending(c))
		return;
	c->state = CORE_SLEEPING;
}

/* Cycles from now to the next timed event: SysTick or one of the chip's (struct core_soc), or
 * UINT64_MAX. */
static uint64_t next_event(struct sim_core *c)
{
	uint64_t next = systick_next_event(&c->scs);
	if (c->soc.next_event) {
		uint64_t chip = c->soc.next_event(c->soc.ctx, c->now);
		if (chip < next)
			next = chip;
	}
	return next;
}

/* Brings the timers to c->now: each pends what expired. */
static void advance_timers(struct sim_core *c)
{
	systick_advance(&c->scs, c->now);
	if (c->soc.advance)
		c->soc.advance(c->soc.ctx, c->now);
}

/* Sleeping: time skips to the next timed event (or the end of the slice). Returns false when
 * nothing can wake the core in this slice. */
static bool sleep_until(struct sim_core *c, uint64_t end)
{
	if (wake_pending(c)) {
		c->state = CORE_RUNNING;
		return true;
	}
	uint64_t next = next_event(c);
	if (next == UINT64_MAX)
		return false;
	uint64_t t = c->now + next;
	if (t > end)
		t = end;
	dwt_count_sleep(&c->scs, t - c->now);
	core_charge(c, c->ledger ? core_pc(c) : 0, CORE_CHARGE_SLEEP, t - c->now);
	advance_timers(c);
	if (wake_pending(c))
		c->state = CORE_RUNNING;
	return c->now < end || c->state == CORE_RUNNING;
}

/* ---- one slice of emulation ------------------------------------------------------------------ */

static void halt_or_hardfault_on_debug_event(struct sim_core *c, uint32_t pc, uint32_t dfsr_bit)
{
	core_set_pc(c, pc);
	if (debug_enabled(&c->scs)) {
		debug_halt(&c->scs, dfsr_bit);
		return;
	}
	/* C1.7.1 (debug event behaviour) and B1.5: with halting debug off and DEMCR.MON_EN set, a debug event
	 * is a DebugMonitor exception (DFSR records why) when its priority lets it preempt; otherwise, and with
	 * the monitor disabled, a BKPT escalates to HardFault with HFSR.DEBUGEVT. The monitor returns to the
	 * BKPT itself: its handler steps over it. */
	if (debug_monitor_enabled(&c->scs) &&
	    exc_group_priority(&c->scs, exc_priority(&c->scs, EXC_DEBUGMON)) < exc_execution_priority(&c->scs)) {
		debug_set_dfsr(&c->scs, dfsr_bit);
		exc_take_sync(&c->scs, EXC_DEBUGMON, pc);
		return;
	}
	exc_fault(&c->scs, EXC_HARDFAULT, 0, HFSR_DEBUGEVT, pc);
}

static void handle_error(struct sim_core *c, uc_err err, uint32_t npc)
{
	switch (err) {
	case UC_ERR_READ_UNMAPPED:
	case UC_ERR_WRITE_UNMAPPED:
	case UC_ERR_READ_PROT:
	case UC_ERR_WRITE_PROT: {
		/* unicorn left PC stale: find the load/store by its address (core_blocks.c). */
		int idx = c->cur ? blk_find_access(c, c->cur, c->stop_addr, 0) : -1;
		core_settle_at_index(c, idx < 0 ? 0 : idx);
		exc_set_bfar(&c->scs, c->stop_addr);
		exc_fault(&c->scs, EXC_BUSFAULT, CFSR_PRECISERR | CFSR_BFARVALID, 0, core_pc(c));
		return;
	}
	case UC_ERR_FETCH_UNMAPPED:
	case UC_ERR_FETCH_PROT:
		core_settle(c, c->stop_addr, false); /* the block ended: its next fetch failed */
		exc_fault(&c->scs, EXC_BUSFAULT, CFSR_IBUSERR, 0, c->stop_addr & ~1u);
		return;
	case UC_ERR_INSN_INVALID:
		/* unicorn stops both on UDF/undefined encodings (PC at them) and on WFE/YIELD
		 * (EXCP_YIELD, PC after them). */
		if (npc >= 2 && (halfword_at(c, npc - 2) == 0xBF20u || halfword_at(c, npc - 2) == 0xBF10u)) {
			core_settle(c, npc, true);
			core_set_pc(c, npc);
			if (halfword_at(c, npc - 2) == 0xBF20u) {
				if (c->event_reg)
					c->event_reg = false;
				else
					enter_sleep(c);
			}
			return;
		}
		core_settle(c, npc, true);
		exc_fault(&c->scs, EXC_USAGEFAULT, CFSR_UNDEFINSTR, 0, npc);
		return;
	default:
		core_settle(c, npc, true);
		exc_fault(&c->scs, EXC_USAGEFAULT, CFSR_INVSTATE, 0, npc);
		return;
	}
}

static void handle_stop(struct sim_core *c, uint32_t npc)
{
	switch (c->stop) {
	case STOP_BKPT:
		core_settle(c, c->stop_pc, true);
		halt_or_hardfault_on_debug_event(c, c->stop_pc, DFSR_BKPT);
		return;
	case STOP_FPB:
	case STOP_DWT:
		core_settle(c, c->stop_pc, true);
		core_set_pc(c, c->stop_pc);
		if (debug_enabled(&c->scs))
			debug_halt(&c->scs, c->stop == STOP_FPB ? DFSR_BKPT : DFSR_DWTTRAP);
		return;
	case STOP_STEP:
		core_settle(c, npc, true);
		core_set_pc(c, npc);
		return;
	case STOP_TICK_SPLIT:
		core_settle(c, c->stop_pc, true);
		core_set_pc(c, c->stop_pc);
		return;
	case STOP_SVC:
		core_settle(c, c->stop_pc, true);
		exc_take_sync(&c->scs, EXC_SVCALL, c->stop_pc);
		return;
	case STOP_EXC_RETURN: {
		/* The whole block ran, its branch to EXC_RETURN too (so no fall-through saving); the
		 * return's refill is in cyc_exception_return. */
		core_settle(c, c->cur ? c->cur->cb->fallthrough : 0, true);
		exc_return(&c->scs, c->stop_pc | 1u);
		return;
	}
	case STOP_NOCP:
		core_settle(c, c->stop_pc, true);
		exc_fault(&c->scs, EXC_USAGEFAULT, CFSR_NOCP, 0, c->stop_pc);
		return;
	case STOP_LAZYFP:
		core_settle(c, c->stop_pc, true);
		core_set_pc(c, c->stop_pc);
		exc_preserve_lazy_fp(&c->scs);
		return;
	case STOP_OTHER:
		core_settle(c, c->stop_pc, true);
		if (c->stop_addr == CFSR_DIVBYZERO)
			exc_fault(&c->scs, EXC_USAGEFAULT, CFSR_DIVBYZERO, 0, c->stop_pc);
		else if (c->stop_addr == 4 || c->stop_addr == 3)
			exc_fault(&c->scs, EXC_BUSFAULT, c->stop_addr == 3 ? CFSR_IBUSERR : CFSR_PRECISERR, 0,
			          c->stop_pc);
		else
			exc_fault(&c->scs, EXC_USAGEFAULT, CFSR_INVSTATE, 0, c->stop_pc);
		return;
	case STOP_BUSFAULT:
		core_settle(c, npc, true);
		core_set_pc(c, npc);
		if (c->stop_write) {
			exc_imprecise_bus_fault(&c->scs);
		} else {
			exc_set_bfar(&c->scs, c->stop_addr);
			exc_fault(&c->scs, EXC_BUSFAULT, CFSR_PRECISERR | CFSR_BFARVALID, 0, npc);
		}
		return;
	default:
		core_settle(c, npc, true);
		core_set_pc(c, npc);
		if (c->stop == STOP_NONE && npc >= 2 && halfword_at(c, npc - 2) == 0xBF30u)
			enter_sleep(c); /* WFI: unicorn ends emulation with PC after it */
		return;
	}
}

static void run_slice(struct sim_core *c, uint64_t end)
{
	fpb_settle(&c->scs); /* halt points the debugger changed while the core was halted */
	uint64_t stop_at = end;
	uint64_t st = systick_next_event(&c->scs);
	uint64_t ev = next_event(c);
	if (ev != UINT64_MAX && c->now + ev < stop_at)
		stop_at = c->now + (ev ? ev : 1);
	c->tick_at =
	    !c->cfg.block_ticks && st != UINT64_MAX && systick_tickint(&c->scs) ? c->now + (st ? st : 1) : UINT64_MAX;
	uc_hook split = c->split_hook; /* armed by the previous slice: this one runs with it */
	c->stop_at = c->step_hook ? UINT64_MAX : stop_at;
	c->stop = STOP_NONE;
	c->cur = NULL;
	c->mmio_last = -1;
	c->stop_write = false;
	c->check_pending = exc_any_pending(&c->scs);
	c->block_stop = false;
	uint64_t before = c->instructions;
	uint32_t pc = core_pc(c);
	core_flash_sync(c);
	c->in_emu = true;
	uc_err err = uc_emu_start(c->uc, pc | 1u, 0xFFFFFFFFu, 0, 0);
	c->in_emu = false;
	if (split) {
		/* One slice only; drop the translation that carries the hook. */
		(void)uc_hook_del(c->uc, split);
		c->split_hook = 0;
		(void)uc_ctl_remove_cache(c->uc, c->split_lo, c->split_hi);
	}
	if (c->pend_hi > c->pend_lo) {
		/* A pend site learned in this slice: translate its block again to carry the hook. */
		(void)uc_ctl_remove_cache(c->uc, c->pend_lo, c->pend_hi);
		c->pend_lo = c->pend_hi = 0;
	}
	if (c->block_stop && err == UC_ERR_OK)
		core_set_pc(c, c->block_stop_pc);
	uint32_t npc = core_pc(c);
	apply_fixups(c);
	fpb_settle(&c->scs);
	if (err != UC_ERR_OK && c->stop != STOP_BKPT && c->stop != STOP_SVC && c->stop != STOP_EXC_RETURN)
		handle_error(c, err, npc);
	else
		handle_stop(c, npc);
	if (dwt_take_watchpoint_hit(&c->scs)) {
		if (debug_enabled(&c->scs) && c->state != CORE_HALTED && c->state != CORE_LOCKUP)
			debug_halt(&c->scs, DFSR_DWTTRAP);
	}
	if (c->instructions != before)
		debug_note_sticky(&c->scs, DHCSR_S_RETIRE_ST);
	advance_timers(c);
	if (c->locked && c->state != CORE_HALTED)
		c->state = CORE_LOCKUP;
}

/* Takes the highest pending exception that preempts; true when one was taken. */
static bool take_pending(struct sim_core *c)
{
	int exc = exc_pending_preempting(&c->scs);
	if (!exc)
		return false;
	exc_take(&c->scs, exc, core_pc(c));
	return true;
}

uint64_t core_run(struct sim_core *c, uint64_t max_cycles)
{
	uint64_t start = c->now, end = start + (max_cycles ? max_cycles : 1);
	c->pcsr.slice_start = start;
	if (!c->pcsr.live)
		core_pcsr_forget(c); /* no DWT_PCSR read lately: the block hook notes nothing */
	c->end_run = false;
	while (c->now < end && !c->end_run) {
		if (c->state == CORE_HALTED || c->state == CORE_LOCKUP)
			break;
		if (c->state == CORE_SLEEPING) {
			if (!sleep_until(c, end))
				break;
			continue;
		}
		if (take_pending(c))
			continue;
		run_slice(c, end);
	}
	core_pcsr_slice_end(c);
	return c->now - start;
}

static void hook_step(uc_engine *uc, uint64_t address, uint32_t size, void *ud)
{
	struct sim_core *c = ud;
	(void)size;
	if (c->step_insns++ == 0)
		return;
	c->stop = STOP_STEP;
	c->stop_pc = (uint32_t)address;
	(void)uc_emu_stop(uc);
}

/* C_STEP (C1.6.3): one instruction, or the entry to a pending exception, then halt.
 * Not with uc_emu_start's instruction count: unicorn 2.0.1 flushes every translation (seconds,
 * tb_flush over its whole code buffer) on the next run without a count. Instead a code hook on
 * every address, present only now, stops before the second instruction, and the block hook stops
 * before a second block; only the translations made meanwhile carry the hook and are dropped. */
void core_step(struct sim_core *c)
{
	if (c->state == CORE_LOCKUP || c->locked) {
		debug_halt(&c->scs, DFSR_HALTED);
		return;
	}
	c->state = CORE_RUNNING;
	if (!take_pending(c)) {
		uint32_t pc = core_pc(c);
		c->step_insns = 0;
		c->step_blocks = 0;
		if (uc_hook_add(c->uc, &c->step_hook, UC_HOOK_CODE, (void *)hook_step, c, 1, 0) != UC_ERR_OK)
			c->step_hook = 0;
		(void)uc_ctl_remove_cache(c->uc, pc, (uint64_t)pc + 2);
		run_slice(c, UINT64_MAX);
		if (c->step_hook)
			(void)uc_hook_del(c->uc, c->step_hook);
		c->step_hook = 0;
		uint32_t npc = core_pc(c);
		(void)uc_ctl_remove_cache(c->uc, pc, (uint64_t)pc + 2);
		(void)uc_ctl_remove_cache(c->uc, npc, (uint64_t)npc + 2);
	}
	if (c->state != CORE_HALTED)
		debug_halt(&c->scs, DFSR_HALTED);
}

enum core_state core_state(const struct sim_core *c)
{
	return c->state;
}

bool core_runnable(const struct sim_core *c)
{
	if (c->state == CORE_RUNNING)
		return true;
	if (c->state != CORE_SLEEPING)
		return false;
	struct sim_core *m = (struct sim_core *)c; /* the queries only read */
	return wake_pending(m) || next_event(m) != UINT64_MAX;
}

/* ---- no progress left (a stand-alone run's end) ------------------------------------------------ */

/* A14.1.3 / A7.3.1: the condition `cond` (0-13) holds for the flags NZCV in xPSR[31:28]. */
static bool cond_holds(unsigned cond, uint32_t xpsr)
{
	bool n = (xpsr >> 31) & 1u, z = (xpsr >> 30) & 1u, cf = (xpsr >> 29) & 1u, v = (xpsr >> 28) & 1u;
	bool r;
	switch (cond >> 1) {
	case 0:
		r = z;
		break;
	case 1:
		r = cf;
		break;
	case 2:
		r = n;
		break;
	case 3:
		r = v;
		break;
	case 4:
		r = cf && !z;
		break;
	case 5:
		r = n == v;
		break;
	case 6:
		r = !z && n == v;
		break;
	default:
		r = true;
		break;
	}
	return (cond & 1u) && cond != 15u ? !r : r;
}

/* The instruction at pc branches to itself and will again: B<c> T1 with offset -4 and its
 * condition holding (flags cannot change in the loop), B T2 or B.W T4 to itself (Armv7-M ARM
 * A7.7.12). Not inside an IT block (EPSR.IT nonzero): the conservative answer. */
static bool branch_to_self(struct sim_core *c, uint32_t pc)
{
	uint32_t xpsr = core_reg(c, UC_ARM_REG_XPSR);
	if (xpsr & 0x0600FC00u)
		return false;
	uint16_t hw = halfword_at(c, pc);
	if (hw == 0xE7FEu)
		return true;
	if ((hw & 0xF0FFu) == 0xD0FEu && ((hw >> 8) & 0xFu) < 14u)
		return cond_holds((hw >> 8) & 0xFu, xpsr);
	return hw == 0xF7FFu && halfword_at(c, pc + 2) == 0xBFFEu;
}

void core_end_run(struct sim_core *c)
{
	c->end_run = true;
	core_request_stop(c);
}

bool core_stuck(struct sim_core *c, uint32_t *pc, int *exc)
{
	if (c->state != CORE_RUNNING)
		return false;
	*pc = core_pc(c);
	*exc = exc_current(&c->scs);
	if (!branch_to_self(c, *pc) || exc_pending_preempting(&c->scs))
		return false;
	/* What could still preempt the loop: SysTick counting with TICKINT (B3.3), and any enabled
	 * external interrupt, which a peripheral may raise at any time. NMI: the STM32F4's only source
	 * is the clock security system (RM0090 7.2.7), not modelled. */
	if (systick_tickint(&c->scs) && systick_next_event(&c->scs) != UINT64_MAX &&
	    exc_may_preempt(&c->scs, EXC_SYSTICK))
		return false;
	for (unsigned i = 0; i < c->num_irq; i++)
		if (exc_may_preempt(&c->scs, EXC_IRQ0 + (int)i))
			return false;
	return true;
}

void core_get_stats(const struct sim_core *c, struct core_stats *s)
{
	s->instructions = c->instructions;
	s->cycles = c->now;
	s->halts = c->halts;
	s->exceptions = exc_taken(&c->scs);
	s->blocks_translated = blk_translated(c);
	s->resets = c->resets;
}
