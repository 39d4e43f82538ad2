/* The core's clock: a block's cycles are added here, per translated block from the cycle model
 * (timing/cycles.h), per instruction only when a ledger is on (the divide hook, core_blk_hooks.c,
 * and the exception overheads, core_scs.c, add theirs where they happen). The block hook charges
 * the block that just finished and looks up the next (its entry stall, the flash accelerator's
 * wait states); core_settle() charges a block left part-way when emulation stops; core_now() is
 * the count at the instruction now accessing memory. SysTick's expiry and stores that pend an
 * exception split a block with a code hook (B1.5.6: taken at the instruction boundary). */
#include "core/core_blk_hooks.h"
#include "core/core_blocks.h"
#include "core/core_internal.h"
#include "core/core_mblocks.h"
#include "scs/dwt.h"
#include "scs/exc.h"

#include <stdlib.h>

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
	if (b->mb.n_exit)
		mblk_exit(c, b, (unsigned)i);
	return c->now + b->cb->cost_before[i] + mblk_extra_before(c, b, (unsigned)i);
}

void core_request_stop(struct sim_core *c)
{
	/* Never uc_emu_stop() from inside an MMIO or memory callback: unicorn 2.0.1 then re-executes
	 * the access forever. The next block hook stops instead. */
	if (c->in_emu)
		c->stop_at = 0;
}

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
	core_charge(c, b->addr, CORE_CHARGE_FLASH_FETCH, w);
	if (c->scs.dwt.ctrl & DWT_CTRL_BLOCK_EVENTS)
		dwt_count_cpi(&c->scs, w);
}

/* The ledger's view of instructions 0..n-1 of b (n <= n_insn): each instruction's charges with
 * its address (cycles.h, struct cyc_charge), the memory-block rule's cycles of the pairs among
 * them (mblk_extra_before's pairs, to the second load of each), the unaligned rule's decided
 * accesses among them (to each access), and, when `taken`, the refill
 * of the final branch under its kind; `failed`: the conditional last instruction failed
 * (cyc_failed_charge). Only with a ledger on: core_charge's sum is what the caller would have
 * added in one go. Charges of 0 cycles are left out, but for issue: one per instruction run. */
__attribute__((noinline)) static void ledger_insns(struct sim_core *c, const struct core_blk *b, unsigned n, bool taken,
                                                   bool failed)
{
	const struct cyc_block *cb = b->cb;
	for (uint32_t k = cb->charge_first[0]; k < cb->charge_first[n]; k++) {
		const struct cyc_charge *ch = &cb->charges[k];
		uint32_t cyc = failed ? cyc_failed_charge(cb, k) : ch->cycles;
		if (cyc || ch->why == CYC_WHY_ISSUE) /* issue even at 0: it counts the execution */
			core_charge(c, b->addr + cb->insn_offset[ch->insn], (enum core_charge_why)ch->why, cyc);
	}
	if (c->mb_for == b && c->mb_mask)
		for (unsigned k = 0; k < 32u; k++)
			if ((c->mb_mask >> k & 1u) && b->mb.pair_idx[k] < n)
				core_charge(c, b->addr + cb->insn_offset[b->mb.pair_idx[k]], CORE_CHARGE_MEMORY_BLOCK,
				            1);
	if (c->mb_for == b && c->ua_cycles)
		for (unsigned k = 0; k < b->mb.n_ua; k++)
			if (b->mb.ua_extra[k] && b->mb.ua_idx[k] < n)
				core_charge(c, b->addr + cb->insn_offset[b->mb.ua_idx[k]], CORE_CHARGE_UNALIGNED,
				            b->mb.ua_extra[k]);
	if (taken && n && cb->branch_taken_extra) /* taken_why is issue's value when there is no branch */
		core_charge(c, b->addr + cb->insn_offset[n - 1u], (enum core_charge_why)cb->taken_why,
		            cb->branch_taken_extra);
}

/* The same for a whole block into the totals (core_set_ledger_totals): its sums by reason, the
 * failed last instruction's difference, the refill, the memory-block pairs and the unaligned
 * accesses (mb cycles, ua of them unaligned). */
__attribute__((noinline)) static void ledger_sums(struct sim_core *c, const struct core_blk *b, bool taken, bool failed,
                                                  uint32_t mb, uint32_t ua)
{
	const struct cyc_block *cb = b->cb;
	uint64_t *by = c->ledger_totals;
	for (unsigned k = 0; k < cb->n_sum_why; k++)
		by[cb->sum_why[k]] += cb->by_why[cb->sum_why[k]];
	uint64_t t = cb->total + mb;
	if (failed)
		for (uint32_t k = cb->charge_first[cb->n_insn - 1u]; k < cb->charge_first[cb->n_insn]; k++) {
			uint32_t off = cb->charges[k].cycles - cyc_failed_charge(cb, k);
			by[cb->charges[k].why] -= off;
			t -= off;
		}
	by[CORE_CHARGE_MEMORY_BLOCK] += mb - ua;
	by[CORE_CHARGE_UNALIGNED] += ua;
	if (taken) {
		by[cb->taken_why] += cb->branch_taken_extra;
		t += cb->branch_taken_extra;
	}
	c->now += t; /* core_charge's add: the totals are this ledger's callback */
}

/* Block b ran to its end; the next instruction is at next_pc. The one place a whole block is
 * charged: by the block hook (next_pc is the next block's start) and by core_settle() when a
 * stop comes after the block's last instruction. next_pc other than the fall-through: the last
 * instruction branched, its refill comes on top (TRM 3.3.1, P). At the fall-through a conditional
 * last instruction failed and issued in 1 cycle (cycles.h CYC_DYN_CONDITIONAL, fallthrough_saving),
 * unless last_ran: the stop came from that instruction itself (SVC, an exception return, WFI,
 * WFE), so it passed its condition and its full cost stands. With a ledger, instruction by
 * instruction (ledger_insns); without, in one add. */
static inline void charge_block_end(struct sim_core *c, struct core_blk *b, uint32_t next_pc, bool last_ran)
{
	const struct cyc_block *cb = b->cb;
	uint64_t t = cb->total;
	uint32_t extra = 0;
	bool taken = next_pc != cb->fallthrough, failed = false;
	c->entry_refill = taken;
	if (taken) {
		extra = cb->branch_taken_extra;
		t += extra;
	} else if (!last_ran && cb->fallthrough_saving) {
		t -= cb->fallthrough_saving;
		failed = true;
	}
	uint32_t mb = 0;
	if (c->mb_for == b) {
		if (b->mb.n_exit)
			mblk_exit(c, b, cb->n_insn);
		mb = c->mb_cycles; /* the pairs' and the unaligned accesses', both LSU cycles */
	}
	if (__builtin_expect(c->ledger != NULL, 0)) {
		if (c->ledger_totals)
			ledger_sums(c, b, taken, failed, mb, mb ? c->ua_cycles : 0u);
		else
			ledger_insns(c, b, cb->n_insn, taken, failed);
	} else
		core_charge(c, b->addr, CORE_CHARGE_ISSUE, t + mb); /* no ledger to tell: one add */
	c->instructions += cb->n_insn;
	if (c->scs.dwt.ctrl & DWT_CTRL_BLOCK_EVENTS) {
		dwt_count_block(&c->scs, cb, extra);
		if (mb)
			dwt_count_lsu(&c->scs, mb); /* every pair and access ran */
	}
}

static void hook_block(uc_engine *uc, uint64_t address, uint32_t size, void *ud)
{
	struct sim_core *c = ud;
	struct core_blk *p = c->cur;
	uint32_t addr = (uint32_t)address;
	if (p)
		charge_block_end(c, p, addr, false);
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
	/* Before the hooks: it may hook an access it found it cannot decide. A block run again right
	 * after itself keeps its decision when the program says it would be the same (ua_loop). */
	if (p == b && b->mb.ua_loop)
		c->mb_for = b;
	else if (b->mb.n_steps || b->mb.n_exit)
		mblk_decide(c, b);
	if ((b->n_div || b->n_fp || b->mb.n_ua_hook) && blk_hooks_missing(c, b)) {
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
	bool branch = c->entry_refill;
	c->entry_refill = false;
	/* Entered by a taken branch or an exception, the prefetch buffer starts empty; run into, it
	 * holds what the block before left. */
	uint8_t fetch = branch ? (uint8_t)CYC_FETCH_EMPTY : c->fetch_next;
	c->fetch_next = b->cb->exit_state[fetch]; /* for the block after it, if run into */
	uint32_t stall = b->cb->entry_extra[fetch];
	if (stall) { /* a branch, not a third add to c->now: that store chain costs more */
		core_charge(c, addr, (enum core_charge_why)b->cb->entry_why, stall);
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
	struct core_blk *b = c->cur;
	uint32_t pc = b ? b->addr : 0;
	if (w && b && c->ledger && !c->ledger_totals) {
		/* A ledger by address: the load that reads it (its memory operand from the registers;
		 * the block's first when none matches). */
		int i = blk_find_load(c, b, a, 0);
		if (i >= 0)
			pc = b->addr + b->cb->insn_offset[i];
	}
	core_charge(c, pc, CORE_CHARGE_FLASH_DATA, w);
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
		const struct cyc_memop *m = blk_memop_at(b, c->mb_idx);
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
		core_charge(c, b->addr + b->cb->insn_offset[i], CORE_CHARGE_MEMORY_BLOCK, 1);
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

/* The first instruction not executed is at `pc`: charge the current block up to it. */
void core_settle(struct sim_core *c, uint32_t pc, bool last_ran)
{
	struct core_blk *b = c->cur;
	c->cur = NULL;
	if (!b)
		return;
	const struct cyc_block *cb = b->cb;
	int i = blk_index_of(b, pc);
	if (i >= cb->n_insn) {
		charge_block_end(c, b, pc, last_ran);
		c->mb_for = NULL;
		if (c->rec)
			core_rec_settle(c, b, i, pc);
		return;
	}
	if (c->mb_for == b && b->mb.n_exit)
		mblk_exit(c, b, (unsigned)i);
	uint32_t mb = mblk_extra_before(c, b, (unsigned)i);
	if (__builtin_expect(c->ledger != NULL, 0))
		ledger_insns(c, b, (unsigned)i, false, false);
	else
		core_charge(c, b->addr, CORE_CHARGE_ISSUE, cb->cost_before[i] + mb); /* one add, as above */
	c->mb_for = NULL;
	if (mb && (c->scs.dwt.ctrl & DWT_CTRL_BLOCK_EVENTS))
		dwt_count_lsu(&c->scs, mb);
	c->instructions += (unsigned)i;
	if (c->rec)
		core_rec_settle(c, b, i, pc);
	c->entry_refill = false;
	c->fetch_next = CYC_FETCH_FULL;
}

void core_settle_at_index(struct sim_core *c, int idx)
{
	struct core_blk *b = c->cur;
	if (!b)
		return;
	if (idx < 0 || idx > b->cb->n_insn)
		idx = 0;
	uint32_t pc = idx < b->cb->n_insn ? b->addr + b->cb->insn_offset[idx] : b->addr + b->size;
	core_settle(c, pc, true);
	core_set_pc(c, pc);
}

static void hook_split(uc_engine *uc, uint64_t address, uint32_t size, void *ud)
{
	struct sim_core *c = ud;
	(void)size;
	if ((uint32_t)address != c->split_pc || c->stop != STOP_NONE)
		return;
	c->stop = STOP_TICK_SPLIT;
	c->stop_pc = (uint32_t)address;
	(void)uc_emu_stop(uc);
}

/* Interrupts are otherwise taken at block boundaries: a block that SysTick's expiry falls inside
 * would run to its end first, and the cycles of a measured stretch would depend on where unicorn
 * ends its blocks. Armv7-M ARM B1.5.6: the exception is taken at the instruction boundary where it
 * becomes pending. Instruction i of b starts at now + cost_before[i] (cycles.h); hook the first one
 * at or after the expiry, as core_step does for its second instruction (a code hook, present for
 * one slice, and the block translated again to carry it). */
bool core_split_for_tick(struct sim_core *c, const struct core_blk *b)
{
	const struct cyc_block *cb = b->cb;
	if (c->tick_at <= c->now || c->tick_at >= c->now + cb->total)
		return false;
	int i = 1;
	while (i < cb->n_insn && c->now + cb->cost_before[i] < c->tick_at)
		i++;
	if (i >= cb->n_insn)
		return false;
	c->split_pc = b->addr + cb->insn_offset[i];
	c->split_lo = b->addr;
	c->split_hi = b->addr + b->size;
	if (uc_hook_add(c->uc, &c->split_hook, UC_HOOK_CODE, (void *)hook_split, c, c->split_pc, c->split_pc) !=
	    UC_ERR_OK) {
		c->split_hook = 0;
		return false;
	}
	(void)uc_ctl_remove_cache(c->uc, b->addr, (uint64_t)b->addr + b->size);
	return true;
}

static void hook_pend(uc_engine *uc, uint64_t address, uint32_t size, void *ud)
{
	struct sim_core *c = ud;
	(void)size;
	if (c->stop != STOP_NONE || c->step_hook || !exc_pending_preempting(&c->scs))
		return;
	c->stop = STOP_TICK_SPLIT; /* settles the block up to here, as for a tick */
	c->stop_pc = (uint32_t)address;
	(void)uc_emu_stop(uc);
}

/* A store inside the running block pended an exception (NVIC_ISPR/STIR, ICSR.PENDSVSET/PENDSTSET):
 * Armv7-M ARM B1.5.6 takes it at the next instruction boundary, after that store. unicorn cannot
 * stop inside the store's MMIO callback (it would run the access again), so this first time the
 * block runs to its end; a code hook on the instruction after the store, kept for good as the
 * divide hooks are, stops there whenever something is pending from then on. */
void core_learn_pend_site(struct sim_core *c, uint32_t store_addr)
{
	struct core_blk *b = c->cur;
	if (c->cfg.block_ticks || !c->in_emu || !b)
		return;
	int i = blk_find_access(c, b, store_addr, 0);
	if (i < 0 || i + 1 >= b->cb->n_insn)
		return; /* unknown, or the block's last instruction: its end is the boundary */
	uint32_t pc = b->addr + b->cb->insn_offset[i + 1];
	for (size_t k = 0; k < c->n_pend_sites; k++)
		if (c->pend_sites[k] == pc)
			return;
	if (c->n_pend_sites == sizeof(c->pend_sites) / sizeof(c->pend_sites[0]))
		return; /* more sites than slots: these stay at block boundaries */
	uc_hook h;
	if (uc_hook_add(c->uc, &h, UC_HOOK_CODE, (void *)hook_pend, c, pc, pc) != UC_ERR_OK)
		return;
	c->pend_sites[c->n_pend_sites++] = pc;
	c->pend_lo = b->addr;
	c->pend_hi = b->addr + b->size;
}

int core_clock_hooks(struct sim_core *c, bool read_hook)
{
	uc_hook h;
	if (uc_hook_add(c->uc, &h, UC_HOOK_BLOCK, (void *)hook_block, c, 1, 0) != UC_ERR_OK)
		return -1;
	if (read_hook && uc_hook_add(c->uc, &h, UC_HOOK_MEM_READ, (void *)hook_block_read, c, 1, 0) != UC_ERR_OK)
		return -1;
	return 0;
}

/* A second block hook, present only while a debugger samples DWT_PCSR (added by a read, removed
 * CORE_PCSR_LIVE slices later): unicorn runs it after hook_block, which has charged the block
 * before and the entry stalls of this one, so c->now is the cycle its first instruction starts
 * at. Without it the block hook pays nothing for PCSR. */
static void hook_pcsr(uc_engine *uc, uint64_t address, uint32_t size, void *ud)
{
	struct sim_core *c = ud;
	const struct core_blk *b = c->cur;
	(void)uc;
	(void)size;
	if (!b || b->addr != (uint32_t)address || c->stop != STOP_NONE || !c->pcsr.ring)
		return; /* the block hook stopped before this block */
	c->pcsr.ring[c->pcsr.head++ & (CORE_PCSR_RING - 1u)] = (struct core_pcsr_ent){b, c->now};
	if (c->pcsr.n < CORE_PCSR_RING)
		c->pcsr.n++;
}

void core_pcsr_slice_end(struct sim_core *c)
{
	if (!c->pcsr.live || --c->pcsr.live)
		return;
	if (c->pcsr.hook)
		(void)uc_hook_del(c->uc, c->pcsr.hook);
	c->pcsr.hook = 0;
	core_pcsr_forget(c);
}

static uint64_t pcsr_next(struct sim_core *c)
{
	uint64_t x = c->pcsr.rng; /* xorshift64 (Marsaglia 2003) */
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return c->pcsr.rng = x;
}

static const struct core_pcsr_ent *pcsr_ent(const struct sim_core *c, uint32_t k)
{
	return &c->pcsr.ring[(c->pcsr.head - c->pcsr.n + k) & (CORE_PCSR_RING - 1u)];
}

/* Silicon's PCSR is sampled as the core runs (C1.8.8, "a recently executed instruction"): a cycle
 * T drawn uniformly over the last slice (from its first noted block if the ring holds less), the
 * last block entered at or before T, and in it instruction i with cost_before[i] <= T - entry <
 * cost_before[i + 1] (cycles.h): each instruction is seen in proportion to its cycles. */
uint32_t core_pcsr_sample(struct sim_core *c)
{
	c->pcsr.live = CORE_PCSR_LIVE;
	if (!c->pcsr.ring)
		c->pcsr.ring = calloc(CORE_PCSR_RING, sizeof(*c->pcsr.ring));
	if (c->pcsr.ring && !c->pcsr.hook) {
		if (uc_hook_add(c->uc, &c->pcsr.hook, UC_HOOK_BLOCK, (void *)hook_pcsr, c, 1, 0) != UC_ERR_OK)
			c->pcsr.hook = 0; /* unicorn refused: the current PC, as below */
		else
			blk_retranslate_all(c); /* unicorn 2.0.1 calls a hook from translations made after it */
	}
	if (!c->pcsr.hook)
		return core_pc(c); /* nothing noted yet (or no memory: the block boundary, as before) */
	if (c->pcsr.n == 0)
		return core_pc(c);
	uint64_t lo = c->pcsr.slice_start;
	if (pcsr_ent(c, 0)->t > lo)
		lo = pcsr_ent(c, 0)->t;
	if (lo >= c->now)
		return core_pc(c);
	uint64_t t = lo + pcsr_next(c) % (c->now - lo);
	uint32_t a = 0, z = c->pcsr.n; /* the last entry with entry cycle <= t: in [a, z) */
	while (z - a > 1) {
		uint32_t m = a + (z - a) / 2;
		if (pcsr_ent(c, m)->t <= t)
			a = m;
		else
			z = m;
	}
	const struct core_pcsr_ent *e = pcsr_ent(c, a);
	if (!e->b)
		return core_pc(c); /* not reached: the n entries before head are written */
	const struct cyc_block *cb = e->b->cb;
	uint64_t d = t - e->t;
	int i = 0;
	while (i + 1 < cb->n_insn && cb->cost_before[i + 1] <= d)
		i++;
	return e->b->addr + cb->insn_offset[i];
}
