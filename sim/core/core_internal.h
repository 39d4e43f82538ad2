/* Inside the virtual Cortex-M4F (core.h). Shared by core.c (unicorn glue, run loop), core_blocks.c
 * (per-block cache and cycle accounting), exc.c (exceptions and faults), scs.c (the SCS page as a
 * register table: NVIC, SCB), systick.c, debug.c (DHCSR/DCRSR/DCRDR/DEMCR/DFSR, halting), dwt.c, fpb.c and
 * loader.c. Not for other units: they use core.h and the bus. */
#ifndef SIM_CORE_INTERNAL_H
#define SIM_CORE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <unicorn/unicorn.h>

#include "bus/bitband.h"
#include "bus/bus.h"
#include "core/core.h"
#include "core/cycles.h"

/* Exception numbers (Armv7-M ARM B1.5.2, table B1-4). */
enum {
	EXC_RESET = 1,
	EXC_NMI = 2,
	EXC_HARDFAULT = 3,
	EXC_MEMMANAGE = 4,
	EXC_BUSFAULT = 5,
	EXC_USAGEFAULT = 6,
	EXC_SVCALL = 11,
	EXC_DEBUGMON = 12,
	EXC_PENDSV = 14,
	EXC_SYSTICK = 15,
	EXC_IRQ0 = 16,
};

/* STM32F4: 82 maskable interrupts (RM0090 table 61); the NVIC implements 3 ISER words. */
#define CORE_NUM_IRQ   82
#define CORE_NUM_EXC   (EXC_IRQ0 + CORE_NUM_IRQ)
#define CORE_PRIO_BITS 4 /* STM32F4: 16 priority levels (PM0214 4.3.7) */

/* DHCSR (Armv7-M ARM C1.6.3). */
#define DHCSR_DBGKEY      0xA05F0000u
#define DHCSR_C_DEBUGEN   (1u << 0)
#define DHCSR_C_HALT      (1u << 1)
#define DHCSR_C_STEP      (1u << 2)
#define DHCSR_C_MASKINTS  (1u << 3)
#define DHCSR_C_SNAPSTALL (1u << 5)
#define DHCSR_S_REGRDY    (1u << 16)
#define DHCSR_S_HALT      (1u << 17)
#define DHCSR_S_SLEEP     (1u << 18)
#define DHCSR_S_LOCKUP    (1u << 19)
#define DHCSR_S_RETIRE_ST (1u << 24)
#define DHCSR_S_RESET_ST  (1u << 25)

/* DFSR (C1.6.1). */
#define DFSR_HALTED   (1u << 0)
#define DFSR_BKPT     (1u << 1)
#define DFSR_DWTTRAP  (1u << 2)
#define DFSR_VCATCH   (1u << 3)
#define DFSR_EXTERNAL (1u << 4)

/* DEMCR (C1.6.5). */
#define DEMCR_VC_CORERESET (1u << 0)
#define DEMCR_VC_MMERR     (1u << 4)
#define DEMCR_VC_NOCPERR   (1u << 5)
#define DEMCR_VC_CHKERR    (1u << 6)
#define DEMCR_VC_STATERR   (1u << 7)
#define DEMCR_VC_BUSERR    (1u << 8)
#define DEMCR_VC_INTERR    (1u << 9)
#define DEMCR_VC_HARDERR   (1u << 10)
#define DEMCR_MON_EN       (1u << 16)
#define DEMCR_TRCENA       (1u << 24)
#define DEMCR_WRITABLE     0x010F07F1u

/* CFSR (B3.2.15): MMFSR [7:0], BFSR [15:8], UFSR [31:16]. */
#define CFSR_IBUSERR     (1u << 8)
#define CFSR_PRECISERR   (1u << 9)
#define CFSR_IMPRECISERR (1u << 10)
#define CFSR_UNSTKERR    (1u << 11)
#define CFSR_STKERR      (1u << 12)
#define CFSR_LSPERR      (1u << 13)
#define CFSR_BFARVALID   (1u << 15)
#define CFSR_UNDEFINSTR  (1u << 16)
#define CFSR_INVSTATE    (1u << 17)
#define CFSR_INVPC       (1u << 18)
#define CFSR_NOCP        (1u << 19)
#define CFSR_UNALIGNED   (1u << 24)
#define CFSR_DIVBYZERO   (1u << 25)
/* HFSR (B3.2.16). */
#define HFSR_VECTTBL  (1u << 1)
#define HFSR_FORCED   (1u << 30)
#define HFSR_DEBUGEVT (1u << 31u)

#define CORE_LOCKUP_PC    0xEFFFFFFEu
#define CORE_DWT_NUM_COMP 4
#define CORE_FPB_NUM_CODE 6
#define CORE_FPB_NUM_LIT  2

/* One memory-accessing instruction of a block, for finding which instruction caused an access:
 * unicorn 2.0.1 does not update PC before a load or store, so inside an MMIO callback or an
 * unmapped-access hook the PC is stale; the registers are current (TCG saves globals before a
 * memory operation that may fault). */
struct core_memop {
	uint16_t idx;   /* instruction index in the block */
	uint8_t base;   /* capstone ARM register id of the base (0: none) */
	uint8_t index;  /* index register (0: none) */
	int8_t scale;   /* +1 / -1 */
	uint8_t lshift; /* index shift */
	uint16_t span;  /* bytes accessed from the lowest address */
	int32_t disp;
	bool down; /* LDMDB/STMDB/PUSH: the lowest address is base - span */
};

/* The core's view of one translated block: the cycle model's costs plus what the core needs. */
struct core_blk {
	uint32_t addr, size;
	const struct cyc_block *cb;
	uint8_t *copy; /* the bytes as analysed: rewritten code is detected by comparing */
	struct core_memop *memops;
	uint16_t n_memops;
	uint16_t n_fp; /* FP instructions (NOCP gating, lazy FP stacking) */
	uint32_t *fp_addr;
	uint16_t n_div;
	uint32_t *div_addr;
	bool hooked_div; /* per-address code hooks added for the divides */
	bool fp_hooked;  /* per-address code hooks present for the FP instructions */
	uc_hook *fp_hooks;
	struct core_blk *next; /* hash chain */
};

#define CORE_BLK_HASH 4096

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

struct dwt_state {
	uint32_t ctrl;
	uint32_t cyccnt;   /* value at cyc_sync */
	uint64_t cyc_sync; /* core cycles when cyccnt was last brought up to date */
	uint8_t cpicnt, exccnt, sleepcnt, lsucnt, foldcnt;
	uint32_t comp[CORE_DWT_NUM_COMP], mask[CORE_DWT_NUM_COMP], function[CORE_DWT_NUM_COMP];
	uc_hook wp_hooks[CORE_DWT_NUM_COMP]; /* data-address watchpoints (FUNCTION 5, 6, 7) */
	unsigned n_wp_hooks;
	bool wp_hit; /* a watched access happened: halt after this block */
};

struct fpb_state {
	uint32_t ctrl; /* ENABLE bit only; the rest is read-only */
	uint32_t comp[CORE_FPB_NUM_CODE + CORE_FPB_NUM_LIT];
	uint32_t bp[2 * CORE_FPB_NUM_CODE + 2 * CORE_DWT_NUM_COMP]; /* halfword addresses that halt */
	unsigned n_bp;
	uc_hook hooks[2 * CORE_FPB_NUM_CODE + 2 * CORE_DWT_NUM_COMP];
	unsigned n_hooks;
};

struct systick_state {
	uint32_t csr, rvr;
	uint32_t cvr;  /* value at sync */
	uint64_t sync; /* core cycles at which cvr was valid */
};

struct sim_core {
	struct sim_bus *bus;
	struct bitband bitband[2]; /* the two alias regions' contexts (bus/bitband.h) */
	struct sim_config cfg;
	struct stm32f4 *soc;
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
	bool locked;     /* lockup (B1.5.15): stays across a debug halt */
	bool tail_chain; /* an exception return just happened: entry costs a tail-chain */

	struct core_blk *blk_hash[CORE_BLK_HASH];
	struct core_blk *blk_last;
	uint64_t blocks_translated;
	uint64_t instructions;
	uint64_t halts, exceptions;
	bool fp_trap_on; /* CPACR denies CP10/CP11, or FPCCR.LSPACT: FP instructions trap */

	/* Debug (C1.6). */
	uint32_t dhcsr_ctrl;   /* C_* bits */
	uint32_t dhcsr_sticky; /* S_RETIRE_ST, S_RESET_ST */
	uint32_t dcrdr, demcr, dfsr;

	/* Exceptions (B1.5) and SCB (B3.2). */
	bool pending[CORE_NUM_EXC];
	bool active[CORE_NUM_EXC];
	bool enabled[CORE_NUM_EXC];
	uint8_t prio[CORE_NUM_EXC]; /* programmed priority byte (IPR/SHPR) */
	uint32_t vtor, aircr_prigroup, scr, ccr, shcsr, cfsr, hfsr, mmfar, bfar, afsr;
	uint32_t cpacr, fpccr, fpcar, fpdscr;
	bool event_reg; /* WFE event register (B1.5.18) */
	bool sleep_on_wfe;
	struct systick_state systick;
	struct dwt_state dwt;
	struct fpb_state fpb;
	/* Addresses with a divide hook: one hook per address, kept when a block is dropped and
	 * analysed again (a second hook would charge the divide twice). */
	uint32_t *div_hooked;
	size_t n_div_hooked, cap_div_hooked;
	uc_hook trace_hook;
	uc_hook step_hook; /* code hook on every address, present only during a step */
	/* SysTick expiring inside a block (core_run.c, split_for_tick): the cycle count at which it
	 * expires with TICKINT set during this slice (UINT64_MAX: none), and a code hook on the first
	 * instruction at or after it, present for one slice. */
	uint64_t tick_at;
	uc_hook split_hook;
	uint32_t split_pc;
	uint32_t split_lo, split_hi; /* the hooked block's range */
	unsigned step_insns, step_blocks;
	bool fpb_dirty; /* comparators written by the core during emulation */
	uint32_t itm_ter, itm_tcr, itm_tpr;
	char itm_line[128];
	unsigned itm_len;
};

/* core.c */
uint32_t core_reg(struct sim_core *c, int ucreg);
void core_set_reg(struct sim_core *c, int ucreg, uint32_t v);
uint32_t core_pc(struct sim_core *c);
void core_set_pc(struct sim_core *c, uint32_t pc);
/* Cycles at the instruction now executing (inside a callback during emulation) or now. */
uint64_t core_now(struct sim_core *c, uint32_t access_addr);
/* Asks the run loop to stop at the next block boundary (something became pending). */
void core_request_stop(struct sim_core *c);
/* Block hook, block b about to run: when SysTick expires (c->tick_at) after b's first instruction
 * and before its end, hooks the first instruction at or after the expiry and drops b's
 * translation; true when the caller must stop so b is translated again with the hook. */
bool core_split_for_tick(struct sim_core *c, const struct core_blk *b);
void core_local_reset(struct sim_core *c, bool system);
void core_invalidate_code(struct sim_core *c, uint32_t addr, uint32_t size);
void core_invalidate_all_code(struct sim_core *c);

/* core_run.c */
/* Cycles from now to the next timed event (SysTick, a chip timer), or UINT64_MAX. */
uint64_t core_next_event(struct sim_core *c);
/* C_STEP: one instruction (or a pending exception's entry), then halt with DFSR.HALTED. */
void core_step(struct sim_core *c);

/* core_blocks.c */
struct core_blk *blk_get(struct sim_core *c, uint32_t addr, uint32_t size);
void blk_drop_range(struct sim_core *c, uint32_t addr, uint32_t size);
void blk_drop_all(struct sim_core *c);
/* Drops unicorn's translations of every known block (their code hooks changed). */
void blk_retranslate_all(struct sim_core *c);
/* Drops blocks whose bytes changed since they were analysed; returns how many. */
unsigned blk_check_rewritten(struct sim_core *c);
int blk_index_of(const struct core_blk *b, uint32_t pc);
int blk_find_access(struct sim_core *c, struct core_blk *b, uint32_t addr, int from);
void blk_set_fp_trap(struct sim_core *c, bool on);
void blk_install_hooks(struct sim_core *c, struct core_blk *b);
void blk_free_all(struct sim_core *c);

/* exc.c */
void exc_reset(struct sim_core *c);
int exc_current(struct sim_core *c);
int exc_execution_priority(struct sim_core *c);
/* Highest-priority pending exception that would preempt now, or 0. */
int exc_pending_preempting(struct sim_core *c);
bool exc_any_pending(const struct sim_core *c);
void exc_set_pending(struct sim_core *c, int exc);
/* Takes exception `exc` with return address `ret_pc`; returns cycles charged. */
void exc_take(struct sim_core *c, int exc, uint32_t ret_pc);
/* A synchronous exception (SVC): escalates to HardFault when it cannot be taken now (B1.5.4). */
void exc_take_sync(struct sim_core *c, int exc, uint32_t ret_pc);
void exc_return(struct sim_core *c, uint32_t exc_return);
/* A synchronous fault in the running code: sets the status bits, escalates, takes it. */
void exc_fault(struct sim_core *c, int exc, uint32_t cfsr_bits, uint32_t hfsr_bits, uint32_t pc);
void exc_preserve_lazy_fp(struct sim_core *c);
void exc_update_fp_trap(struct sim_core *c);
int exc_group_priority(const struct sim_core *c, int prio);
bool fp_access_allowed(const struct sim_core *c);
uint32_t core_read_s(struct sim_core *c, unsigned n);
void core_write_s(struct sim_core *c, unsigned n, uint32_t v);

/* scs.c: the SCS page 0xE000E000 as a register table (ICTR, SysTick, NVIC, SCB, FPU, debug registers). */
enum bus_result scs_read(void *ctx, uint32_t off, unsigned size, enum bus_initiator who, uint32_t *v);
enum bus_result scs_write(void *ctx, uint32_t off, unsigned size, enum bus_initiator who, uint32_t v);
/* Puts the stored registers of the table at their reset values: the core's (local reset) or, with
 * debug_domain, the debug registers (power-on reset only, C1.4). */
void scs_reset(struct sim_core *c, bool debug_domain);
/* The manual's name of the register at `off` in the page, or NULL (reserved). */
const char *scs_name(uint32_t off);
/* Checks the table is sorted with no overlaps: -1 with a message in err otherwise. */
int scs_check(char *err, size_t errlen);

/* systick.c: SysTick (B3.3). */
void systick_reset(struct sim_core *c);
/* Cycles from now until SysTick next sets COUNTFLAG, or UINT64_MAX when disabled. */
uint64_t systick_next_event(struct sim_core *c);
/* SysTick counts with TICKINT: its expiry pends the exception (B3.3.3). */
bool systick_tickint(const struct sim_core *c);
/* Brings SysTick to time `now`, pending the exception for each wrap. */
void systick_advance(struct sim_core *c, uint64_t now);
uint32_t systick_csr_read(struct sim_core *c);
void systick_csr_write(struct sim_core *c, uint32_t v);
uint32_t systick_rvr_read(struct sim_core *c);
void systick_rvr_write(struct sim_core *c, uint32_t v);
uint32_t systick_cvr_read(struct sim_core *c);
void systick_cvr_write(struct sim_core *c, uint32_t v);

/* debug.c */
void debug_power_on(struct sim_core *c);
/* The debug registers' behaviour (rows of the SCS table): DHCSR (C1.6.3), DCRSR (C1.6.4), DEMCR (C1.6.5). */
uint32_t debug_dhcsr_read(struct sim_core *c);
void debug_dhcsr_write(struct sim_core *c, enum bus_initiator who, uint32_t v);
void debug_dcrsr_write(struct sim_core *c, enum bus_initiator who, uint32_t v);
void debug_demcr_write(struct sim_core *c, uint32_t v);
/* Enters debug state (C1.5) with the DFSR reason bits. */
void debug_halt(struct sim_core *c, uint32_t dfsr_bits);
bool debug_enabled(const struct sim_core *c);
uint32_t debug_read_core_reg(struct sim_core *c, unsigned sel, bool *ok);
bool debug_write_core_reg(struct sim_core *c, unsigned sel, uint32_t v);

/* dwt.c */
void dwt_power_on(struct sim_core *c);
enum bus_result dwt_read(void *ctx, uint32_t off, unsigned size, enum bus_initiator who, uint32_t *v);
enum bus_result dwt_write(void *ctx, uint32_t off, unsigned size, enum bus_initiator who, uint32_t v);
uint32_t dwt_cyccnt(struct sim_core *c, uint64_t now);
/* Before the enables or the time base change: fold elapsed cycles into CYCCNT. */
void dwt_sync(struct sim_core *c, uint64_t now);
void dwt_count_exception(struct sim_core *c, uint32_t overhead_cycles);
void dwt_count_sleep(struct sim_core *c, uint64_t cycles);
/* The 8-bit counters' share of a block (C1.8.6): CPICNT, LSUCNT, FOLDCNT; `cpi_extra` for a taken
 * branch's refill or a divide. */
void dwt_count_block(struct sim_core *c, const struct cyc_block *cb, uint32_t cpi_extra);
void dwt_count_cpi(struct sim_core *c, uint32_t cycles);
/* Rebuilds the memory hooks of the data-address watchpoints; outside emulation only. */
void dwt_update_watchpoints(struct sim_core *c);

/* fpb.c */
void fpb_power_on(struct sim_core *c);
enum bus_result fpb_read(void *ctx, uint32_t off, unsigned size, enum bus_initiator who, uint32_t *v);
enum bus_result fpb_write(void *ctx, uint32_t off, unsigned size, enum bus_initiator who, uint32_t v);
/* Rebuilds the set of halting addresses from FPB and DWT comparators and the code hooks for them. */
void fpb_update(struct sim_core *c);

/* itm.c: the ITM page (C1.7 of the Cortex-M4 TRM; stimulus ports print when cfg.uart_echo). */
enum bus_result itm_read(void *ctx, uint32_t off, unsigned size, enum bus_initiator who, uint32_t *v);
enum bus_result itm_write(void *ctx, uint32_t off, unsigned size, enum bus_initiator who, uint32_t v);
void itm_flush(struct sim_core *c);

#endif /* SIM_CORE_INTERNAL_H */
