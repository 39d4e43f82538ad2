/* The state of one run, shared by run.c (set-up and tear-down) and run_loop.c (halt to halt).
 * Not a public header: callers use run.h. */
#ifndef HOST_RUN_PRIV_H
#define HOST_RUN_PRIV_H

#include <limits.h>

#include "firmware/board.h"
#include "base/clock.h"
#include "firmware/elf.h"
#include "session/openocd_proc.h"
#include "session/proc.h"
#include "run/progress.h"
#include "run/run.h"
#include "transport/backend.h"

#define RUN_DWT_CYCCNT         0xE0001004u /* Armv7-M ARM C1.8.6 */
#define RUN_DWT_CTRL           0xE0001000u /* C1.8.7 */
#define RUN_DWT_CTRL_CYCCNTENA 0x1u
#define RUN_DWT_CTRL_NOCYCCNT  (1u << 25)
#define RUN_DEMCR_TRCENA       (1u << 24) /* C1.6.5 */
#define RUN_MAX_PENDING        64
#define RUN_BKPT_SIZE          2u /* BKPT #imm is a 16-bit Thumb instruction (A7.7.17) */
/* bench_ctl fields (docs/markers.md) */
#define RUN_CTL_MAGIC      0x42434854u
#define RUN_CTL_OFF_MAGIC  0u
#define RUN_CTL_OFF_STOP   8u
#define RUN_CTL_OFF_STATUS 16u

enum run_mode {
	RUN_MODE_MARKERS,    /* the target halts on its BKPT markers */
	RUN_MODE_BP_MARKERS, /* hardware breakpoints at the marker sites (--bp-markers, or no halt on BKPT) */
	RUN_MODE_SYMBOLS,    /* hardware breakpoints at --start and --stop */
};

struct run_pending {
	uint16_t id;
	bool valid;
	uint32_t cyccnt;
	uint64_t host_ms;
	uint64_t sim_cycles; /* bench-sim's cycle count at BEGIN (when sim_clock_fd >= 0) */
};

/* Where the wall time of a run goes (BENCH_STATS=1, perf/bench_run.sh). */
enum run_phase {
	RUN_PHASE_SIM,    /* bench-sim listening (virtual board) */
	RUN_PHASE_OCD,    /* OpenOCD's TCL port accepts */
	RUN_PHASE_ANSWER, /* OpenOCD answered (its init: JTAG scan, examine, done) */
	RUN_PHASE_LOAD,   /* firmware verified or programmed */
	RUN_PHASE_RESET,  /* first reset halt and fault catches */
	RUN_PHASE_CAL,    /* first calibration pair taken */
	RUN_PHASE_LOOP,   /* the marker loop ended */
	RUN_PHASE_STOP,   /* OpenOCD and bench-sim stopped */
	RUN_PHASE_COUNT
};

struct run_ctx {
	const struct run_opts *o;
	struct bench_report *rep;
	struct bench_error *err;
	struct elf_file elf;
	char firmware_abs[PATH_MAX];
	bool elf_open;
	struct board board;
	bool have_board;
	struct backend bk;
	bool bk_open;
	struct openocd_proc ocd;
	bool ocd_started;
	int sim_clock_fd; /* bench-sim's control port (host/session/sim_clock.h) or -1; valid once ocd_started */
	struct proc *qemu;
	char work_dir[PATH_MAX];
	bool own_work_dir;

	enum run_mode mode;
	bool has_sync, has_ctl;
	bool no_counter; /* the target has no readable cycle counter: halts, but no samples */
	uint32_t ctl_addr;
	uint32_t sym_start, sym_stop;
	uint32_t input_addr[RUN_MAX_SWEEPS];
	unsigned input_size[RUN_MAX_SWEEPS];

	/* where the run is */
	size_t n_combos, per_combo, total_iters, sync_count, done_iters;
	bool cur_warm, stopping;
	struct bench_arg cur_args[RUN_MAX_SWEEPS];
	size_t n_cur_args;
	struct run_pending pend[RUN_MAX_PENDING];
	uint32_t cal_begin;
	bool cal_valid, calibrated;
	int64_t overhead;
	const struct marker *last_marker;
	size_t samples_taken;
	size_t halts; /* marker halts, for BENCH_STATS */
	struct progress prog;
	uint64_t last_poll_ms;
	bool preloaded; /* bench started bench-sim with this very ELF (--elf): nothing to load or verify */
	size_t poll_reads, poll_failures; /* --poll reads of the region table, and how many failed */
	char poll_error[256];             /* the first failure's message */
	/* BENCH_STATS=1: when each phase of the run ended, ms since run_measure() began (0: not reached). */
	uint64_t t0_ms, phase_ms[RUN_PHASE_COUNT];
};

static inline void run_phase_done(struct run_ctx *c, enum run_phase ph)
{
	if (!c->phase_ms[ph])
		c->phase_ms[ph] = clock_now_ms() - c->t0_ms;
}

/* Program, reset and measure until done; 0 or a negated bench_err (c->err filled). */
int run_loop(struct run_ctx *c);
int run_interrupted(struct run_ctx *c);
/* 0 while every child bench started runs; else fails with BENCH_E_CONNECT naming the one that exited. */
int run_check_children(struct run_ctx *c);

#endif /* HOST_RUN_PRIV_H */
