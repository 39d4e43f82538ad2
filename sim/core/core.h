/* The virtual board's Cortex-M4F: unicorn for the instruction set, plus everything unicorn does not
 * do for M-profile (NVIC, SysTick, exceptions, faults, the debug registers DHCSR/DCRSR/DCRDR/DEMCR/
 * DFSR, FPB, DWT, ITM, the ROM table). It knows no chip: the board (sim/board.c) puts the chip's
 * memory map on the bus and says what the chip decides (struct core_soc). The debug port (dap/)
 * reaches the core through the bus only; main.c drives it with core_run() between servicing the
 * JTAG socket. Single-threaded. */
#ifndef SIM_CORE_H
#define SIM_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bus/bus.h"
#include "timing/cycles_why.h"

/* How the memory-block rule finds the addresses of two pipelined loads. */
enum sim_memory_blocks {
	SIM_MB_ENTRY = 0, /* from the registers at the block's entry (core_mblocks.h): the default, about
	                   * 1.2x the time of off */
	SIM_MB_OFF,       /* the rule ignored, pairs pipeline whatever they read */
	SIM_MB_EXACT,     /* from every load's address: a read hook, every load on unicorn's slow path */
};

/* A zeroed sim_config applies the rule at each block's entry, as bench-sim does by default. */
_Static_assert(SIM_MB_ENTRY == 0, "a zeroed sim_config must get the default memory-block mode");

/* How the unaligned-access rule (Cortex-M4 TRM 3.3.2) finds the addresses of LDR, LDRH, LDRSH,
 * STR and STRH. */
enum sim_unaligned {
	SIM_UA_ENTRY = 0, /* from the registers at the block's entry or exit, a code hook on the few
	                   * accesses neither tells (core_mblocks.h, core_blk_hooks.c): the default */
	SIM_UA_OFF,       /* the rule ignored: unaligned accesses cost what aligned ones do */
	SIM_UA_EXACT,     /* a read/write hook on every access (core_unaligned.c): every load and
	                   * store on unicorn's slow path, about 1.64x the host instructions */
};
_Static_assert(SIM_UA_ENTRY == 0, "a zeroed sim_config must get the default unaligned mode");

struct sim_config {
	/* Flash wait states: unless force_wait_states (`--wait-states N`, for experiments), the model
	 * follows FLASH_ACR.LATENCY as the firmware writes it (RM0090 3.9.1); a zeroed config does. */
	bool force_wait_states;
	/* Loads pipeline only within one memory block (core_soc.mem_blocks), as measured on an
	 * STM32F407 (docs/cycle-model.md "Load/store pipelining"); a zeroed config applies it at
	 * each block's entry. */
	enum sim_memory_blocks memory_blocks;
	unsigned flash_wait_states; /* 0..15, with force_wait_states */
	bool trace;                 /* print every executed instruction to stderr */
	bool uart_echo;             /* copy USART/ITM output of the firmware to stdout */
	/* Charge unaligned loads and stores their extra cycles (Cortex-M4 TRM 3.3.2); a zeroed config
	 * decides them at each block's entry (bench-sim's default, `--unaligned=entry`). */
	enum sim_unaligned unaligned;
	/* Take SysTick, and a pend by a store to the NVIC or ICSR, only at the end of the block where
	 * it becomes pending (the old timing), not at the instruction where it does (Armv7-M ARM
	 * B1.5.6; docs/core.md). Off by default: interrupts are taken at their exact instruction. */
	bool block_ticks;
};

enum core_state {
	CORE_RUNNING = 0,
	CORE_HALTED,   /* debug state: DHCSR.S_HALT */
	CORE_SLEEPING, /* WFI/WFE with nothing pending and no timer event ahead: DHCSR.S_SLEEP */
	CORE_LOCKUP,   /* DHCSR.S_LOCKUP */
};

struct core_stats {
	uint64_t instructions;
	uint64_t cycles;
	uint64_t halts;
	uint64_t exceptions;
	uint64_t blocks_translated;
	uint64_t resets; /* every local reset of the core, whatever its cause (B1.5.5) */
};

struct sim_core;

/* Cortex-M4 TRM 2.3.2 / 7.1: an implementation has 1 to 240 external interrupts. */
#define CORE_MAX_IRQ 240

/* A data memory block on its own bus-matrix port (core_soc.mem_blocks). */
struct core_mem_block {
	uint32_t base, size;
};

/* What the chip around the core decides (the implementer's choices, Armv7-M ARM B3.4). */
/* Code memory whose fetches wait: on the STM32F4 the flash behind its ART accelerator
 * (chip/stm32f4_art.h, RM0090 3.4.2). For each block that starts in [base, base + size) or in the
 * boot alias at 0, the core calls block_wait while *ws is nonzero, with the block's lines (offset >>
 * line_shift) and the static cycle it enters each, and literal_wait (the D-code path) for each
 * data read from the flash, literal or not (offset from base); set_wait_states forces the wait
 * states (-1: the chip's own again). ws NULL: no waits. */
struct core_flash {
	uint32_t base, size;
	unsigned line_shift;
	const unsigned *ws;
	uint32_t (*block_wait)(void *ctx, uint32_t first_line, const uint16_t *line_start, unsigned n_lines,
	                       uint32_t cycles, bool branch);
	uint32_t (*literal_wait)(void *ctx, uint32_t off);
	void (*set_wait_states)(void *ctx, int ws);
	void *ctx;
};

struct core_soc {
	unsigned num_irq;   /* external interrupt lines wired to the NVIC, 1..CORE_MAX_IRQ */
	unsigned prio_bits; /* implemented bits of each priority byte, 3..8 (B1.5.4: at least 3) */
	/* AIRCR.SYSRESETREQ (B3.2.6): resets the rest of the chip; the core resets itself. May be NULL. */
	void (*system_reset)(void *ctx);
	/* The chip's own timed events (its timers), in core cycles: next_event gives the cycles from
	 * `now` until one is due (0: due now, UINT64_MAX: none); advance brings them to `now`, raising
	 * interrupt lines through core_pend_irq. The run loop ends a slice at the next one and a sleep
	 * wakes for it, as for SysTick. Both may be NULL. */
	uint64_t (*next_event)(void *ctx, uint64_t now);
	void (*advance)(void *ctx, uint64_t now);
	void *ctx;
	struct core_flash flash; /* the chip's code memory timing (above); zeroed: none */
	/* The chip's data memory blocks, for sim_config.memory_blocks: two loads pipeline only when
	 * they read the same block, or either reads outside every block. n_mem_blocks 0: none. */
	const struct core_mem_block *mem_blocks;
	unsigned n_mem_blocks;
};

/* Creates the core on `bus`: maps every region already there (the chip's memory map) into
 * unicorn and adds the core's own PPB pages (ITM, DWT, FPB, SCS) and ROM table. Returns NULL with
 * a message in err on failure. The core starts as after power-on reset, running. */
struct sim_core *core_new(struct sim_bus *bus, const struct sim_config *cfg, const struct core_soc *soc, char *err,
                          size_t errlen);
void core_free(struct sim_core *core);

/* Code at [addr, addr + size) changed behind the core (a flash controller programmed or erased
 * it): translations and cycle-model blocks there are dropped (after the current stop if running). */
void core_invalidate_code(struct sim_core *core, uint32_t addr, uint32_t size);

/* An interrupt line from the chip: sets external interrupt `irq` pending in the NVIC (B3.4.1).
 * Lines at or above core_soc.num_irq are ignored. */
void core_pend_irq(struct sim_core *core, unsigned irq);

/* Modelled cycles since power-on: during emulation (inside a bus handler) at the instruction
 * making the access to `access_addr`, else now. The chip's clock for timers and registers. */
uint64_t core_cycles(struct sim_core *core, uint32_t access_addr);

/* Power-on reset: everything, debug registers included. */
void core_power_on_reset(struct sim_core *core);

/* Runs at most max_cycles modelled cycles. Returns early when the core halts (BKPT, breakpoint,
 * watchpoint, C_HALT, step, vector catch), sleeps with nothing ahead, or locks up. */
uint64_t core_run(struct sim_core *core, uint64_t max_cycles);

enum core_state core_state(const struct sim_core *core);
/* True when core_run() would make progress now. */
bool core_runnable(const struct sim_core *core);

void core_get_stats(const struct sim_core *core, struct core_stats *stats);
/* True when the running core can make no more progress: its next instruction branches to itself
 * (B, B.W, or B<c> whose condition holds) and no exception can ever preempt it (none pending that
 * would, SysTick not counting with TICKINT at a priority that would, no enabled external interrupt
 * that would). *pc is that instruction, *exc the active exception (IPSR, 0 in thread mode). A WFI
 * with nothing to wake it is CORE_SLEEPING with core_runnable() false instead. */
bool core_stuck(struct sim_core *core, uint32_t *pc, int *exc);
/* From inside a bus handler during core_run (the chip's UART end mark): core_run returns at the
 * next block boundary, with the count up to there. */
void core_end_run(struct sim_core *core);

/* The control interface (main.c: `wait-states N`, `trace on|off`) changes at run time what
 * sim_config set at core_new(). */
void core_set_wait_states(struct sim_core *core, int flash_wait_states); /* -1: FLASH_ACR's again */
/* The flash wait states in force (FLASH_ACR.LATENCY or the override). */
unsigned core_wait_states(const struct sim_core *core);
void core_set_trace(struct sim_core *core, bool trace);

/* Why the core counted cycles. Every cycle added to the count (DWT_CYCCNT's time base) goes through
 * one function, core_charge() (core_internal.h), with the address of the instruction it belongs to
 * and one of these (timing/cycles_why.h: the cycle model's list, same values; docs/cycle-model.md
 * "The cycle ledger" links each to its rule); a ledger set with core_set_ledger() sees each
 * charge, so its sum between two points equals CYCCNT's difference. CORE_CHARGE_ISSUE is charged
 * exactly once per instruction executed (a failed conditional and a folded IT included, the
 * latter with 0 cycles): its calls count executions per address. */
#define CORE_CHARGE_ENUM_(id, name) CORE_CHARGE_##id = CYC_WHY_##id,
enum core_charge_why {
	CYC_WHY_LIST(CORE_CHARGE_ENUM_) CORE_CHARGE_N = CYC_WHY_N,
};
#undef CORE_CHARGE_ENUM_
typedef void (*core_ledger_fn)(void *ctx, uint32_t pc, enum core_charge_why why, uint64_t cycles);
/* Sees every charge from now on (NULL: none, the default: one predictable branch per charge). */
void core_set_ledger(struct sim_core *core, core_ledger_fn fn, void *ctx);
/* The cheap ledger for totals only (bench-sim --ledger): from now on every charge is added to
 * by_why[why] (CORE_CHARGE_N entries, not zeroed here), a whole block by its sums by reason
 * rather than one call per instruction; NULL: none. Replaces a core_set_ledger() callback. */
void core_set_ledger_totals(struct sim_core *core, uint64_t *by_why);
/* The reason's name as reports print it ("issue", "branch-cond", "flash-fetch"...;
 * docs/cycle-model.md "The cycle ledger"), or NULL for a value outside the enum. */
const char *core_charge_name(enum core_charge_why why);

/* bench-sim --record (sim/record.c, docs/sim-record.md): what the core tells a recorder, exactly
 * and only while one is set (core_set_recorder(); none: no hook and no branch of its own in the
 * run). The calls come in program order; charges to the ledger come between them, each belonging
 * to the context the recorder holds when it is made. */
struct core_rec_ops {
	/* The first n instructions of a block ran (at addr + offsets[i]), in the current context. */
	void (*ran)(void *ctx, uint32_t addr, const uint16_t *offsets, unsigned n);
	/* The block that ran last ended in a BL/BLX that branched: a call of `entry` returning to `ret`. */
	void (*call)(void *ctx, uint32_t entry, uint32_t ret);
	/* It ended in a branch that may be a return (BX, POP/LDM with PC, LDR PC, MOV/ADD PC) and
	 * went to `to`: a return if `to` is a frame's return address. */
	void (*branch)(void *ctx, uint32_t to);
	/* The next charge is an exception entry's, return's or tail-chain's overhead (TRM 3.3). */
	void (*exc_charge)(void *ctx);
	/* Exceptions were entered, returned from or tail-chained since the last call: IPSR now, which
	 * of the n exceptions are active (Armv7-M ARM B1.5.2), and the PC (a new handler's entry). */
	void (*exceptions)(void *ctx, unsigned ipsr, const bool *active, unsigned n, uint32_t pc);
	/* The block at addr starts now, in the context the calls above left. The clock charged its
	 * entry (prefetch, flash wait states) at addr just before, still in the context before. */
	void (*begin)(void *ctx, uint32_t addr);
	/* The core was reset (any local reset): the call stack starts again from the root at pc. */
	void (*reset)(void *ctx, uint32_t pc);
	/* Debug state was entered and the debugger is about to see it (or the core leaves it, or the
	 * run ends, first): write the interval's record. cyccnt: DWT_CYCCNT now. Returns 0, or -1
	 * when the record could not be written or does not add up (the run must stop). */
	int (*halt)(void *ctx, uint32_t cyccnt);
};
/* Starts calling ops (NULL: stops). Adds the hooks it needs; -1 with a message in err when unicorn
 * refuses them. Set it before the core first runs: the blocks already run are not counted. */
int core_set_recorder(struct sim_core *core, const struct core_rec_ops *ops, void *ctx, char *err, size_t errlen);
/* The lowest MSP and PSP since the core last left Debug state (or the recorder was set) while each
 * was the stack in use or took an exception frame; a stack not used meanwhile: its value now. */
void core_rec_sp_min(struct sim_core *core, uint32_t *msp, uint32_t *psp);
/* Writes a record not written yet (the core halted and nobody looked): at the end of the run.
 * -1 when that or any record before failed (core_rec_failed()). */
int core_rec_finish(struct sim_core *core);
/* A record could not be written or did not add up: the run must stop (bench-sim exits 1). */
bool core_rec_failed(const struct sim_core *core);

/* Load an ELF's PT_LOAD segments by their physical addresses through the back door (no flash
 * controller), as a factory-programmed board. For stand-alone runs and tests. On success the core
 * is reset (as by AIRCR.VECTRESET: debug registers kept) so it starts from the new vector table. */
int core_load_elf(struct sim_core *core, const char *path, char *err, size_t errlen);

/* How a stand-alone run ended (core_run_standalone, core_run_unattached; bench-sim prints it as
 * an `end` line, docs/sim.md). */
enum core_end {
	CORE_END_DONE = 0,   /* BKPT #4, the DONE marker (docs/markers.md) */
	CORE_END_STOPPED,    /* core_end_run() was called: bench-sim --until-uart saw its mark */
	CORE_END_SPIN,       /* core_stuck(): a branch to itself that nothing can ever preempt */
	CORE_END_SLEEP,      /* WFI/WFE with nothing left to wake the core */
	CORE_END_LOCKUP,     /* lockup (Armv7-M ARM B1.5.15) */
	CORE_END_HALTED,     /* core_run_unattached: a debug halt, with no debugger to resume it */
	CORE_END_MAX_CYCLES, /* max_cycles elapsed first */
	CORE_END_ERROR,      /* the built-in debugger could not reach a debug register */
};
struct core_end_info {
	enum core_end why;
	uint32_t pc;     /* where the core stopped (the spinning branch, the WFI's successor, ...) */
	uint32_t cyccnt; /* DWT_CYCCNT then */
	int exc;         /* the active exception (IPSR; 0: thread mode) */
};
/* How often (in cycles) a stand-alone run asks core_stuck(): the end of a spin is found within
 * this many cycles of its start. */
#define CORE_STUCK_SLICE 65536u

/* Stand-alone mode (no OpenOCD): a built-in debugger sets C_DEBUGEN, and at each halt prints
 *   halt pc=0x%08x imm=%u cyccnt=%u reason=<bkpt|dwt|vcatch|halted|lockup>
 * to `out`, calls on_halt(ctx) unless it is NULL (bench-sim --ledger prints the interval's
 * ledger there), then resumes past the BKPT. It returns at BKPT #4 (the "done" marker,
 * docs/markers.md), at a core_end_run(), when the core can go no further (core_stuck, or asleep
 * with nothing to wake it), on lockup or when max_cycles elapse, and says which in *end. */
enum core_end core_run_standalone(struct sim_core *core, uint64_t max_cycles, void *out /* FILE * */,
                                  void (*on_halt)(void *ctx), void *ctx, struct core_end_info *end);
/* Stand-alone with no debugger at all (bench-sim --standalone --no-debugger): C_DEBUGEN stays 0, so
 * the firmware's markers take DebugMonitor/HardFault, as on a board without a probe. Ends as
 * core_run_standalone does (a debug halt ends it too: CORE_END_HALTED). */
enum core_end core_run_unattached(struct sim_core *core, uint64_t max_cycles, struct core_end_info *end);

#endif /* SIM_CORE_H */
