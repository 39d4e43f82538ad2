/* Inside the virtual Cortex-M4F (core.h): struct sim_core, the run loop's state beside each unit's
 * (the SCS devices' state, scs/scs_state.h; the block cache, core_blocks.h), and
 * the glue of core_setup.c (unicorn, the address map) and core_run.c (resets, slices, stops). A unit's
 * fields are read and written only by its own file(s); the others call its functions. Not for code
 * outside sim/core: it uses core.h and the bus. */
#ifndef SIM_CORE_INTERNAL_H
#define SIM_CORE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <unicorn/unicorn.h>

#include "bus/bitband.h"
#include "bus/bus.h"
#include "core/core.h"
#include "core/blk_types.h"
#include "timing/cycles.h"
#include "scs/scs_state.h"

#define CORE_LOCKUP_PC 0xEFFFFFFEu

enum core_stop {
	STOP_NONE = 0,
	STOP_BUDGET, /* block hook: cycle budget used, or an event (SysTick, pending IRQ) is due */
	STOP_BKPT,   /* BKPT instruction (unicorn interrupt 7) */
	STOP_FPB,    /* FPB comparator or DWT PC match: halt before the instruction */
	STOP_DWT,
	STOP_SVC,
	STOP_EXC_RETURN,
	STOP_NOCP,        /* FP instruction with CP10/CP11 disabled */
	STOP_LAZYFP,      /* FP instruction while FPCCR.LSPACT: preserve the lazy FP state first */
	STOP_RETRANSLATE, /* new hooks were added for the block about to run: translate it again */
	STOP_BUSFAULT,    /* a handler region answered BUS_ERROR */
	STOP_WRITE_FLASH, /* a core write into a write-handled memory region: fix up the bytes */
	STOP_STEP,        /* C_STEP: the second instruction of the step is about to run */
	STOP_TICK_SPLIT,  /* SysTick expires before this instruction of a block: stop right here */
	STOP_OTHER,
};

struct core_fixup {
	uint32_t addr;
	uint8_t *host;
	unsigned size;
	uint8_t bytes[4];
};

#define CORE_PCSR_RING 4096u /* a slice of 10,000 cycles is at most ~3,300 blocks of 3 cycles */
#define CORE_PCSR_LIVE 64u   /* core_run calls the ring is filled for after a PCSR read */
#define CORE_PCSR_SEED 0x9E3779B97F4A7C15ull
struct core_pcsr_ent {
	const struct core_blk *b;
	uint64_t t; /* cycle count at b's first instruction */
};

struct sim_core {
	struct sim_bus *bus;
	struct bitband bitband[2]; /* the two alias regions' contexts (bus/bitband.h) */
	struct sim_config cfg;
	struct core_soc soc;
	unsigned num_irq; /* soc.num_irq */
	int num_exc;      /* EXC_IRQ0 + num_irq: exceptions 1..num_exc-1 exist */
	uc_engine *uc;
	struct cyc_model *cyc;
	enum core_state state;

	/* Time: modelled cycles since power-on; `now` is the count at the start of the current block,
	 * the count at instruction i of the block is now + blk->cb->cost_before[i]. */
	uint64_t now;
	struct core_blk *cur; /* block being executed, not yet charged */
	uint64_t stop_at;     /* block hook stops emulation at a block boundary at this time */
	int mmio_last;        /* last instruction index found for an access in the current block */
	enum core_stop stop;
	uint32_t stop_pc;
	uint32_t stop_addr; /* faulting address, for STOP_BUSFAULT */
	bool stop_write;
	struct core_fixup fixups[8];
	unsigned n_fixups;
	bool in_emu;
	bool block_stop; /* the block hook stopped emulation before block_stop_pc ran */
	bool end_run;    /* core_end_run(): core_run returns after this slice */
	uint32_t block_stop_pc;
	bool check_pending; /* an exception is pending but masked: the block hook watches
	                     * PRIMASK/BASEPRI/FAULTMASK (CPSIE, MSR) and stops when it may be taken */
	/* Code changed during emulation: ranges to drop after the stop. Flash programming writes
	 * halfword after halfword at two addresses each (0x08000000 and the alias at 0): the ranges
	 * grow in place, never one range spanning both windows (dropping 128 MiB costs seconds). */
	struct {
		uint32_t lo, hi;
	} inval[8];
	unsigned n_inval;
	bool locked; /* lockup (B1.5.15): stays across a debug halt */
	/* The next block starts after a taken branch, an exception entry or return, a reset: its fetch starts
	 * from an empty prefetch buffer (cyc_block.entry_extra). Cleared by a debug halt: a resumed
	 * run is measured as the TRM counts instructions, from the first one (docs/cycle-model.md). */
	bool entry_refill;
	/* The prefetch buffer (enum cyc_fetch) the next block starts with when execution runs into it:
	 * what the current block leaves (cyc_block.exit_state, looked up as it is entered, so that its
	 * end does no work for it). Full after a debug halt or a block left part-way. */
	uint8_t fetch_next;

	core_ledger_fn ledger; /* core_set_ledger(): NULL unless someone asks */
	void *ledger_ctx;
	/* core_set_ledger_totals(): the totals by reason (ledger is then ledger_totals_add); a
	 * whole block adds its sums (cyc_block.by_why), not one call per charge. */
	uint64_t *ledger_totals;
	/* core_set_recorder() (core_rec.c): NULL unless bench-sim --record. rec_prev: the block the
	 * recorder saw start, not yet counted; rec_exc: exceptions changed since the recorder was told;
	 * rec_halted: a halt it has not written yet. */
	const struct core_rec_ops *rec;
	void *rec_ctx;
	const struct core_blk *rec_prev;
	bool rec_exc, rec_halted, rec_failed;
	bool rec_psp; /* R13 is PSP (core_rec.c note_stack) */
	uint32_t rec_msp_min, rec_psp_min;
	uc_hook rec_block_hook, rec_sp_hook;

	uint64_t instructions;
	uint64_t halts;  /* the exceptions taken are the SCS's count (exc_taken) */
	uint64_t resets; /* local resets (SYSRESETREQ, VECTRESET, NRST, power-on): bench's `stats` resets= */

	bool event_reg; /* WFE event register (B1.5.18) */

	/* The system-control-space devices (scs/), reached through their headers' functions; they
	 * reach the core through core_scs.c's ops. */
	struct scs scs;
	/* Their halt points as unicorn hooks (core_scs.c, scs_core_ops.set_points): a code hook on
	 * each address that halts, a memory hook on each watched range. */
	uint32_t bp[2 * CORE_FPB_NUM_CODE + 2 * CORE_DWT_NUM_COMP];
	uc_hook bp_hooks[2 * CORE_FPB_NUM_CODE + 2 * CORE_DWT_NUM_COMP];
	unsigned n_bp, n_bp_hooks;
	uc_hook wp_hooks[CORE_DWT_NUM_COMP];
	unsigned n_wp_hooks;
	struct blk_cache blocks; /* core_blocks.c (core_blocks.h) */
	/* DWT_PCSR (core_clock.c): while a debugger reads it, a second block hook notes each block entered
	 * and the cycle its first instruction starts at; a read picks a pseudo-random cycle of the
	 * last slice and answers the instruction executing then (silicon samples the PC as it runs,
	 * a read between slices would otherwise always see a block boundary). */
	struct {
		struct core_pcsr_ent *ring; /* CORE_PCSR_RING entries, allocated at the first read */
		uint32_t head;              /* entries written (modulo the ring) */
		uint32_t n;                 /* valid entries, the newest n before head */
		uint32_t live;              /* core_run calls left that fill the ring; a read sets it */
		uc_hook hook;               /* the block hook that fills it, present while live */
		uint64_t slice_start;       /* now at the start of the last core_run */
		uint64_t rng;               /* xorshift64 state: the same samples on every run */
	} pcsr;
	uc_hook trace_hook;
	uc_hook step_hook; /* code hook on every address, present only during a step */
	/* SysTick expiring inside a block (core_run.c, split_for_tick): the cycle count at which it
	 * expires with TICKINT set during this slice (UINT64_MAX: none), and a code hook on the first
	 * instruction at or after it, present for one slice. */
	uint64_t tick_at;
	/* Instructions right after a store that pended an exception (core_learn_pend_site): each has
	 * a code hook that stops there while something is pending; the block to translate again. */
	uint32_t pend_sites[64];
	size_t n_pend_sites;
	uint32_t pend_lo, pend_hi;
	uint32_t mmio_write_addr; /* address of the MMIO write being handled */
	uc_hook split_hook;
	uint32_t split_pc;
	uint32_t split_lo, split_hi; /* the hooked block's range */
	unsigned step_insns, step_blocks;
	/* Data reads from flash while it has wait states (core_flash_sync): the accelerator's D-code
	 * path times each one. Only then: unicorn 2.0.1 takes every load's slow path while a memory
	 * read hook exists, whatever its range. */
	uc_hook flash_read_hook[2];
	bool flash_hooked;
	bool flash_hook_failed; /* unicorn refused the hook: flash data reads untimed, no retry */
	/* sim_config.memory_blocks: the last load of the current block run (the block, the run as
	 * the instruction count before it, the load's index, its memory block). */
	const struct core_blk *mb_blk;
	uint64_t mb_run;
	int mb_idx;
	unsigned mb_block;
	uint32_t mb_first, mb_next; /* the first address that load read, and the one after its last */
	/* Without the read hook: the pairs of the current block (core_blk.mb, a bit per pair) that
	 * read two blocks, decided from the registers at its entry; valid while cur == mb_for. */
	bool mb_entry;
	const struct core_blk *mb_for;
	uint32_t mb_mask;
	/* sim_config.unaligned entry (core_mblocks.c; the accesses' cycles are in core_blk.mb.ua_extra,
	 * valid while cur == mb_for; the undecided ones: code hooks, core_blk_hooks.c). */
	bool ua_entry;
	/* The cycles both rules add to the block (mb_mask's pairs and the unaligned accesses), and
	 * of them the unaligned ones, summed as they are decided: the block's end adds them at once. */
	uint32_t mb_cycles, ua_cycles;
	/* The programs' registers (0..14; MBLK_NONE, never written, reads 0; MBLK_FLAGS_SLOT xPSR):
	 * unicorn reads into it where each program's compiled reads point (mblk_compile). */
	uint32_t mb_v[MBLK_FLAGS_SLOT + 1u];
};

/* What bus region a unicorn MMIO callback serves (core_map.c); one per bus region, after the
 * struct sim_core allocation (core_setup.c). */
struct core_mmio {
	struct sim_core *c;
	const struct bus_region *r;
	bool mapped;
};

/* The files of sim/core, bottom up: each calls only those above it in this list (no call cycle,
 * scripts/check_layers.py --sim-cycles). */

/* The one place the count grows (core.h, enum core_charge_why): `pc` is the instruction the cycles
 * belong to. With a ledger by address every instruction's charges come here one by one
 * (core_clock.c, ledger_insns); without a ledger a block's cycles come in one call (issue, at its
 * first instruction: nobody is told). The totals ledger's block path (ledger_sums) is this
 * function for a whole block at once: the sums by reason into the totals, their sum into the
 * count. */
static inline void core_charge(struct sim_core *c, uint32_t pc, enum core_charge_why why, uint64_t cycles)
{
	c->now += cycles;
	if (__builtin_expect(c->ledger != NULL, 0))
		c->ledger(c->ledger_ctx, pc, why, cycles);
}

/* core_regs.c */
uint32_t core_reg(struct sim_core *c, int ucreg);
void core_set_reg(struct sim_core *c, int ucreg, uint32_t v);
uint32_t core_pc(struct sim_core *c);
void core_set_pc(struct sim_core *c, uint32_t pc);
/* S<n> of the FPU (halves of unicorn's D registers). */
uint32_t core_read_s(struct sim_core *c, unsigned n);
void core_write_s(struct sim_core *c, unsigned n, uint32_t v);

/* core_rec.c (core.h struct core_rec_ops): each called only while c->rec is set. */
/* core_settle(): b stopped with `ran` instructions run, the next at pc. */
void core_rec_settle(struct sim_core *c, const struct core_blk *b, int ran, uint32_t pc);
/* b's translation is dropped (core_blocks.c). */
void core_rec_dropped(struct sim_core *c, const struct core_blk *b);
/* An exception entry, return or tail-chain is being charged (core_scs.c). */
void core_rec_exception(struct sim_core *c);
void core_rec_reset(struct sim_core *c, uint32_t pc);
/* Debug state entered (op_halt); DHCSR read with S_HALT (op_halt_seen); left (op_resume). */
void core_rec_halted(struct sim_core *c);
void core_rec_halt_seen(struct sim_core *c);
void core_rec_resume(struct sim_core *c);

/* core_clock.c (below it: core_blocks.c, core_mblocks.c) */
/* Cycles at the instruction now executing (inside a callback during emulation) or now. */
uint64_t core_now(struct sim_core *c, uint32_t access_addr);
/* Asks the run loop to stop at the next block boundary (something became pending). */
void core_request_stop(struct sim_core *c);
void core_flash_sync(struct sim_core *c);
bool core_flash_sync_due(const struct sim_core *c);
/* Emulation stopped with the first instruction not executed at `pc` (or at index idx of the
 * current block): charge the current block up to it. A whole block goes through the block hook's
 * charge; last_ran: the stop came from its last instruction (SVC, exception return, WFI/WFE), which
 * therefore passed its condition; false when the next fetch failed (the block simply ended). */
void core_settle(struct sim_core *c, uint32_t pc, bool last_ran);
void core_settle_at_index(struct sim_core *c, int idx);
/* A store inside the running block pended an exception (exc_set_pending): from now on, stop after
 * that store while something is pending. */
void core_learn_pend_site(struct sim_core *c, uint32_t store_addr);
/* Block hook, block b about to run: when SysTick expires (c->tick_at) after b's first instruction
 * and before its end, hooks the first instruction at or after the expiry and drops b's
 * translation; true when the caller must stop so b is translated again with the hook. */
bool core_split_for_tick(struct sim_core *c, const struct core_blk *b);
/* DWT_PCSR read by the debugger while running: the address of the instruction executing at a
 * pseudo-random cycle of the last core_run (the current PC when nothing was noted); fills the
 * ring for the next CORE_PCSR_LIVE calls. */
uint32_t core_pcsr_sample(struct sim_core *c);
/* At the end of core_run: CORE_PCSR_LIVE calls after the last read, the ring's hook goes. */
void core_pcsr_slice_end(struct sim_core *c);
/* The ring holds block pointers: forget them (a block is freed, the count restarts). */
static inline void core_pcsr_forget(struct sim_core *c)
{
	c->pcsr.n = 0;
}
/* The block hook, and the memory-block rule's read hook when read_hook (sim_config.memory_blocks). */
int core_clock_hooks(struct sim_core *c, bool read_hook);

/* core_unaligned.c: the read/write hook that charges unaligned loads and stores (TRM 3.3.2). */
int core_unaligned_hooks(struct sim_core *c);

/* core_map.c: every bus region into unicorn, and the interrupt, unmapped and write-protect hooks. */
int core_map_all(struct sim_core *c, char *err, size_t errlen);

/* core_run.c */
void core_local_reset(struct sim_core *c, bool system);
/* C_STEP: one instruction (or a pending exception's entry), then halt with DFSR.HALTED. */
void core_step(struct sim_core *c);

/* core_scs.c: the ops the SCS devices reach the core through (scs/scs_state.h). */
extern const struct scs_core_ops core_scs_ops;

#endif /* SIM_CORE_INTERNAL_H */
