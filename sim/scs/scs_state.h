/* The system-control-space devices' state and their one seam to the core they sit in.
 *
 * exc, scs, systick, debug, dwt, fpb and itm (this folder) are a layer below the unicorn glue
 * (core/): they keep their state in struct scs, which the core holds, and reach the core only
 * through struct scs_core_ops and its context pointer (registers, the cycle count, stopping the
 * run loop, the run state), as pyOCD's component map reaches its CoreSight components. This
 * header is a leaf (it includes no unit's header), so a unit's .c may include it beside the
 * headers of the units it calls without closing an include cycle (scripts/check_layers.py). */
#ifndef SIM_SCS_SCS_STATE_H
#define SIM_SCS_SCS_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sim_bus;
struct cyc_model;

/* The most external interrupts an Armv7-M implementation may have (B3.4.1); core/core.h's
 * CORE_MAX_IRQ is the same number (core.c checks). */
#define SCS_MAX_IRQ  240
#define CORE_MAX_EXC (16 + SCS_MAX_IRQ) /* exception numbers 0..15 are the system's (B1.5.2) */

#define CORE_DWT_NUM_COMP 4 /* DWT comparators (TRM 8.3) */
#define CORE_FPB_NUM_CODE 6 /* FPB instruction comparators (TRM 8.4) */
#define CORE_FPB_NUM_LIT  2 /* FPB literal comparators */

/* The core registers the devices read and write (exception stacking B1.5.6, DCRSR C1.6.4). */
enum scs_regno {
	SCS_REG_R0 = 0, /* r0-r12: SCS_REG_R0 + n */
	SCS_REG_SP = 13,
	SCS_REG_LR,
	SCS_REG_PC,
	SCS_REG_XPSR,
	SCS_REG_MSP,
	SCS_REG_PSP,
	SCS_REG_IPSR,
	SCS_REG_CONTROL,
	SCS_REG_PRIMASK,
	SCS_REG_BASEPRI,
	SCS_REG_FAULTMASK,
	SCS_REG_FPSCR,
	SCS_REG_S0, /* s0-s31: SCS_REG_S0 + n */
	SCS_REG_COUNT = SCS_REG_S0 + 32,
};

/* What the core's run loop is doing (DHCSR.S_HALT, S_SLEEP, S_LOCKUP). */
enum scs_cpu {
	SCS_CPU_RUNNING = 0,
	SCS_CPU_HALTED,
	SCS_CPU_SLEEPING,
	SCS_CPU_LOCKUP,
};

/* A data-address watchpoint the core hooks (DWT FUNCTION 5, 6, 7: C1.8.17). */
struct scs_watch {
	uint32_t lo, hi; /* inclusive */
	bool read, write;
};

/* Where a code address halts (the FPB's breakpoints, C1.11; the DWT's PC matches, C1.8.17). */
enum scs_point {
	SCS_POINT_NONE = 0,
	SCS_POINT_DWT, /* DFSR.DWTTRAP */
	SCS_POINT_FPB, /* DFSR.BKPT */
};

/* The core as the devices see it; `core` is the context every entry gets. */
struct scs_core_ops {
	uint32_t (*reg)(void *core, enum scs_regno r);
	void (*set_reg)(void *core, enum scs_regno r, uint32_t v);
	/* Cycles at the instruction now executing that accesses access_addr (inside an MMIO callback
	 * during emulation), or now outside it. */
	uint64_t (*now)(void *core, uint32_t access_addr);
	/* The count at the start of the current block, untouched by any access (resets, queries). */
	uint64_t (*cycles)(void *core);
	/* Stop the run loop at the next block boundary (something became pending or changed). */
	void (*request_stop)(void *core);
	enum scs_cpu (*cpu)(void *core);
	/* DWT_PCSR while running (C1.8.8): the address of an instruction executed during the last
	 * slice, at a pseudo-random cycle of it (core_clock.c, core_pcsr_sample). */
	uint32_t (*pc_sample)(void *core);
	bool (*locked)(void *core);    /* in lockup (B1.5.15), also while halted */
	void (*halt)(void *core);      /* enter debug state (C1.5) */
	void (*halt_seen)(void *core); /* the debugger reads DHCSR.S_HALT = 1 (bench-sim --record) */
	void (*resume)(void *core);    /* leave it: code the debugger rewrote is translated again */
	void (*sleep)(void *core);     /* SLEEPONEXIT (B1.5.18) */
	void (*lockup)(void *core);    /* stop at 0xEFFFFFFE (B1.5.15) */
	/* Exception entry, return or tail-chain overhead: the cycles under their ledger reason (enum
	 * cyc_why, timing/cycles_why.h), and the next fetch starts empty. */
	void (*charge_exception)(void *core, uint32_t cycles, unsigned why);
	/* An exception was set pending (by a store, when one is executing: the core learns the site). */
	void (*pended)(void *core);
	void (*set_fp_trap)(void *core, bool trap); /* FP instructions stop before they run */
	void (*step)(void *core);                   /* C_STEP (C1.6.3) */
	void (*local_reset)(void *core, bool system);
	/* Replace the code addresses that halt (scs_points_at() says which kind) and the data
	 * watchpoints (dwt_watch_access() is told of each access). Only outside emulation. */
	void (*set_points)(void *core, const uint32_t *pcs, unsigned n_pcs, const struct scs_watch *w, unsigned n_w);
};

/* The debug registers (C1.6); DCRDR and DFSR are rows of the SCS table, reset at power-on only. */
struct debug_state {
	uint32_t dhcsr_ctrl;   /* C_* bits */
	uint32_t dhcsr_sticky; /* S_RETIRE_ST, S_RESET_ST */
	uint32_t dcrdr, demcr, dfsr;
};

/* The exception unit's state (B1.5): one entry per exception number, the NVIC's arrays (B3.4) for
 * the external interrupts, the SCB's system-handler entries. The arrays hold the most an
 * implementation may have; s->num_irq interrupts are wired (struct core_soc). */
struct exc_state {
	bool pending[CORE_MAX_EXC];
	bool active[CORE_MAX_EXC];
	bool enabled[CORE_MAX_EXC];
	uint8_t prio[CORE_MAX_EXC]; /* programmed priority byte (IPR/SHPR) */
	uint8_t prio_mask;          /* the implemented bits of a priority byte (core_soc.prio_bits) */
	bool tail_chain;            /* an exception return just happened: entry costs a tail-chain */
	uint64_t taken;             /* entries and tail-chains since power-on (core_stats.exceptions) */
};

/* The SCB's stored words (B3.2): most are rows of the SCS table (scs.c), which resets them. */
struct scb_state {
	uint32_t vtor, aircr_prigroup, scr, ccr, shcsr, cfsr, hfsr, mmfar, bfar, afsr;
	uint32_t cpacr, fpccr, fpcar, fpdscr;
};

struct systick_state {
	uint32_t csr, rvr;
	uint32_t cvr;  /* value at sync */
	uint64_t sync; /* core cycles at which cvr was valid */
};

struct dwt_state {
	uint32_t ctrl;
	uint32_t cyccnt;   /* value at cyc_sync */
	uint64_t cyc_sync; /* core cycles when cyccnt was last brought up to date */
	uint8_t cpicnt, exccnt, sleepcnt, lsucnt, foldcnt;
	uint32_t comp[CORE_DWT_NUM_COMP], mask[CORE_DWT_NUM_COMP], function[CORE_DWT_NUM_COMP];
	bool wp_hit; /* a watched access happened: halt after this block */
};

struct fpb_state {
	uint32_t ctrl; /* ENABLE bit only; the rest is read-only */
	uint32_t comp[CORE_FPB_NUM_CODE + CORE_FPB_NUM_LIT];
	uint32_t bp[2 * CORE_FPB_NUM_CODE + 2 * CORE_DWT_NUM_COMP]; /* halfword addresses that halt */
	unsigned n_bp;
};

struct itm_state {
	uint32_t ter, tcr, tpr;
	char line[128]; /* the stimulus bytes since the last newline */
	unsigned len;
};

/* The devices, held by the core (struct sim_core.scs). Each unit's fields are read and written by
 * its own file (named beside it); the others call that file's functions, apart from the two
 * predicates below. */
struct scs {
	const struct scs_core_ops *ops;
	void *core;
	struct sim_bus *bus;   /* the core's bus: stacking, vector fetch */
	struct cyc_model *cyc; /* exception overheads (timing/cycles.h) */
	unsigned num_irq;      /* core_soc.num_irq */
	int num_exc;           /* EXC_IRQ0 + num_irq: exceptions 1..num_exc-1 exist */
	bool uart_echo;        /* sim_config.uart_echo: ITM lines printed */
	/* An FPB or DWT comparator or DHCSR.C_DEBUGEN changed: fpb_settle() hands the core the new
	 * halt points before the next slice (never under unicorn). */
	bool points_dirty;
	struct debug_state dbg;       /* debug.c (debug.h), C1.6 */
	struct exc_state exc;         /* exc.c and scs.c, its register face (exc.h), B1.5, B3.4 */
	struct scb_state scb;         /* exc.c and scs.c (exc.h), B3.2 */
	struct systick_state systick; /* systick.c (systick.h), B3.3 */
	struct dwt_state dwt;         /* dwt.c (dwt.h), C1.8 */
	struct fpb_state fpb;         /* fpb.c (fpb.h), C1.11 */
	struct itm_state itm;         /* itm.c (itm.h), C1.7 */
};

static inline uint32_t scs_reg(struct scs *s, enum scs_regno r)
{
	return s->ops->reg(s->core, r);
}

static inline void scs_set_reg(struct scs *s, enum scs_regno r, uint32_t v)
{
	s->ops->set_reg(s->core, r, v);
}

static inline uint64_t scs_now(struct scs *s, uint32_t access_addr)
{
	return s->ops->now(s->core, access_addr);
}

static inline void scs_request_stop(struct scs *s)
{
	s->ops->request_stop(s->core);
}

/* DHCSR.C_DEBUGEN (C1.6.3) and DEMCR.TRCENA (C1.6.5), read by several units: here rather than
 * as calls into debug.c, which calls those units. */
static inline bool debug_enabled(const struct scs *s)
{
	return (s->dbg.dhcsr_ctrl & 1u) != 0;
}

static inline bool debug_trcena(const struct scs *s)
{
	return (s->dbg.demcr & (1u << 24)) != 0;
}

/* A halt point changed: rebuilt by fpb_settle() outside emulation; stop the slice if inside. */
static inline void scs_points_changed(struct scs *s)
{
	s->points_dirty = true;
	s->ops->request_stop(s->core);
}

#endif /* SIM_SCS_SCS_STATE_H */
