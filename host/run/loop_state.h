/* The marker loop's types: its configuration, the hooks it asks the session through, and its state
 * (struct loop). loop.c runs the loop and loop_check.c checks each halt; both include this header
 * and loop_check.h needs nothing else of loop.h, so the two do not include each other. Private to
 * run/. */
#ifndef HOST_RUN_LOOP_STATE_H
#define HOST_RUN_LOOP_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "firmware/code_image.h"
#include "firmware/counters.h"
#include "firmware/elf.h"
#include "results/results.h"
#include "run/progress.h"
#include "run/sweep.h"
#include "transport/backend.h"

#define LOOP_MAX_PENDING 64
#define LOOP_BKPT_SIZE   2u /* BKPT #imm is a 16-bit Thumb instruction (Armv7-M ARM A7.7.17) */

enum loop_mode {
	LOOP_MODE_MARKERS,    /* the target halts on its BKPT markers */
	LOOP_MODE_BP_MARKERS, /* hardware breakpoints at the marker sites (--bp-markers, or no halt on BKPT) */
	LOOP_MODE_SYMBOLS,    /* hardware breakpoints at --start and --stop */
};

/* The options of `bench run` the loop reads; run.c copies them from its struct run_opts
 * (run_measure), so the loop does not depend on the command's whole option set. */
struct loop_opts {
	const char *firmware;                    /* the ELF's path, for messages */
	unsigned repeat;                         /* measured iterations per input */
	unsigned warmup;                         /* iterations run but not recorded, per input */
	struct run_sweep sweeps[RUN_MAX_SWEEPS]; /* the inputs, first sweep outermost */
	size_t n_sweeps;
	unsigned timeout_ms;   /* per marker-to-marker stretch */
	unsigned poll_ms;      /* --poll: read the region table while running; 0: only at DONE */
	const char *start_sym; /* --start/--stop: breakpoint mode on symbols */
	const char *stop_sym;
	bool no_regions; /* skip the region table */
	bool icount;     /* QEMU's instruction count besides the cycles */
	bool no_load;    /* the target already holds the firmware */
	bool progress;   /* a progress bar on stderr */
	bool mask_irqs;  /* DHCSR.C_MASKINTS from each BEGIN to its END */
	bool stack;      /* --stack: paint at BEGIN, scan at END, or the record's lowest SP (loop_stack.h) */
	bool code_size;  /* --code-size: with records, the functions each stretch ran (loop_stack.h) */
};

/* What the virtual board recorded over the interval that ended at the halt the core is in
 * (bench-sim's halt record, session/sim_record.h), as loop_hooks.measures_record gives it. */
struct loop_record {
	uint32_t msp_min, psp_min; /* lowest MSP and PSP, exception stacking included */
	uint64_t exceptions;       /* exceptions entered */
	const uint32_t *pcs;       /* every instruction address that ran, valid until the next call */
	size_t n_pcs;
};

/* What the loop asks of the world around it. */
struct loop_hooks {
	void *ctx;
	/* True stops the run as interrupted (Ctrl-C, a farm's flag). */
	bool (*cancelled)(void *ctx);
	/* 0 while every child process the session started runs; else a negated bench_err saying which
	 * exited. Asked between slices of a halt wait. NULL: nothing to watch. */
	int (*children_alive)(void *ctx, struct bench_error *err);
	/* Optional: a wider clock than the counter (the virtual board's 64-bit cycle count), read at
	 * BEGIN and END to flag a stretch of 2^bits cycles or more as wrapped, to check the counter
	 * against (its difference must equal the clock's), and with it the count of exceptions the
	 * core took, to flag a stretch that took one. NULL: none. */
	int (*wide_clock)(void *ctx, uint64_t *cycles, uint64_t *exceptions, struct bench_error *err);
	/* Optional: how many times the core has been reset, whatever the cause (SYSRESETREQ, NRST,
	 * a watchdog): read after each of bench's own reset halts and at every halt after, so a rise
	 * between two halts is a reset bench did not ask for (docs/reliability.md). NULL: unknown; then
	 * only bench_init()'s once-per-boot calibration shows a restart. */
	int (*resets)(void *ctx, uint64_t *count, struct bench_error *err);
	/* Optional: wide_clock's two counts and the resets count from one answer (the virtual board's
	 * `stats`). When set the loop asks it at most once a halt and takes all three from it (they do
	 * not change while the target is halted): one round trip a halt instead of two at BEGIN and
	 * END. Set it with wide_clock and resets, whose presence still says the board has them; they
	 * are then not asked. NULL: wide_clock and resets are asked on their own. */
	int (*board_stats)(void *ctx, uint64_t *cycles, uint64_t *exceptions, uint64_t *resets,
	                   struct bench_error *err);
	/* Optional: the board's output (the virtual board's UART lines and notes) is read: between slices of a
	 * halt wait, at every halt when `every_halt`, and once after the first reset halt with `first_reset`. */
	void (*board_output)(void *ctx, bool first_reset);
	bool every_halt;
	/* Optional: names a faulting data address on the board (BFAR/MMFAR); false: unknown. */
	bool (*name_addr)(void *ctx, uint32_t addr, char *out, size_t len);
	/* Optional (--profile, profile/profile_sample.h): stands in for backend_resume_sample, with its
	 * contract, when the halt before was a BEGIN marker, sampling the PC while `stretch` runs; given
	 * the run's whole timeout. sample_ctx is its own context. NULL: the plain resume. */
	int (*sampled_resume)(void *sample_ctx, struct backend *bk, const char *stretch, unsigned timeout_ms,
	                      uint32_t sample_addr, struct backend_halt_info *out, uint32_t *sample,
	                      struct bench_error *err);
	void *sample_ctx;
	/* Optional (--stack or --code-size on the virtual board, run/run_measures.h): the record of the
	 * halt the core is in now. NULL: none (the stack is painted, the code size static). */
	int (*measures_record)(void *meas_ctx, struct loop_record *out, struct bench_error *err);
	void *meas_ctx;
	/* Optional (exact --profile on the virtual board, run/run_profile.h): told of every halt the loop
	 * handled, so the board's record of the interval that ended there goes where it belongs: m the
	 * marker (after its handler ran), or NULL with `span` the --start/--stop result a stretch ended
	 * for (NULL: the records so far belong to no stretch); `warm` and args are the iteration's. */
	int (*halt_record)(void *record_ctx, const struct marker *m, const char *span, bool warm,
	                   const struct bench_arg *args, size_t n_args, struct bench_error *err);
	void *record_ctx;
};

/* What the loop measures with: the firmware and the counter, resolved by run.c before it starts. */
struct loop_config {
	const struct loop_opts *o;
	const struct elf_file *elf;
	const char *elf_abs; /* for backend_load */
	enum loop_mode mode;
	bool has_sync, has_ctl;
	uint32_t ctl_addr;
	uint32_t sym_start, sym_stop;
	uint32_t input_addr[RUN_MAX_SWEEPS];
	unsigned input_size[RUN_MAX_SWEEPS];
	/* The counter read at every halt (firmware/counters.h); NULL: none, halts but no samples. */
	const struct counter_desc *counter;
	uint32_t counter_addr; /* where the backend reads it (a CSFR's address for TriCore) */
	bool preloaded;        /* the target already holds the firmware: nothing to load or verify */
	/* What the target has, not which core it is (STYLE.md #3); run.c sets both from the ELF's arch. */
	/* The Cortex-M debug registers DHCSR, DEMCR and CFSR (Armv7-M ARM C1.6): read for faults and the
	 * reset halt, written for --mask-irqs. A TriCore has none. */
	bool cm_debug_regs;
	/* The marker instruction runs as a no-op where the debugger has not made it halt (TriCore DEBUG16
	 * under QEMU): a resume steps over it like any code and the PC is never moved past one. A Cortex-M
	 * BKPT halts by itself and is skipped by a PC write. */
	bool markers_are_nops;
	uint32_t sysclk_addr;              /* the firmware's CMSIS `SystemCoreClock` (4 bytes); 0: it has none */
	uint32_t stack_limit;              /* --stack: the lowest address the stack may reach (firmware/stack.h) */
	const char *stack_limit_from;      /* where it came from, for messages */
	bool stack_exact;                  /* --stack from the virtual board's records, not painted */
	const struct code_image *code_img; /* --code-size from the records: the image's sections */
};

struct loop_pending {
	uint16_t id;
	bool valid;
	uint32_t count;
	uint64_t host_ms;
	uint64_t ran_ms;   /* loop.ran_min_ms at BEGIN */
	uint64_t wide;     /* the wide clock at BEGIN */
	uint64_t icount;   /* QEMU's instruction count at BEGIN (--icount) */
	uint64_t wide_exc; /* the wide clock's exception count at BEGIN */
	uint8_t exccnt;    /* DWT_EXCCNT at BEGIN (no wide clock) */
	bool exccnt_valid;
	uint32_t sp;  /* --stack: SP at BEGIN, painted below */
	bool on_msp;  /* --stack exact: SP at BEGIN is MSP (CONTROL.SPSEL 0 or Handler mode) */
	bool painted; /* --stack painted for this BEGIN (not in a warm-up iteration) */
};

/* The loop's own state: where the run is, what is open, what was measured. */
struct loop {
	const struct loop_config *cfg;
	const struct loop_hooks *hooks;
	enum loop_mode mode; /* cfg->mode, or breakpoint markers on a target that does not halt on BKPT */
	struct backend *bk;
	struct bench_report *rep;
	struct bench_error *err;
	struct run_phases *phases; /* may be NULL */

	size_t n_combos, per_combo, total_iters, sync_count, done_iters;
	bool cur_warm, stopping;
	struct bench_arg cur_args[RUN_MAX_SWEEPS];
	size_t n_cur_args;
	struct loop_pending pend[LOOP_MAX_PENDING];
	uint32_t cal_begin;
	bool cal_valid, calibrated;
	int64_t overhead;
	const struct marker *last_marker;
	size_t samples_taken;
	size_t halts; /* marker halts, for BENCH_STATS */
	struct progress prog;
	uint64_t last_poll_ms;
	size_t poll_reads, poll_failures; /* --poll reads of the region table, and how many failed */
	/* issue 13 (loop_check.c): boots seen in this pass, whether the inputs must be written again
	 * (the target restarted between stretches), and interrupted samples for the warning. */
	size_t boots, restarts, interrupted;
	/* The host's clock against the counter (loop_check_host_clock): the running time each resume
	 * is proven to have had, summed, and the samples flagged wrapped with the first one's note. */
	uint64_t ran_min_ms;
	size_t wrapped;
	char wrap_note[256];
	size_t restarts_in_row; /* restarts since the last END (loop_check_restarted bounds it) */
	size_t idle_halts;      /* marker halts since the last END or new input (loop_check_progress) */
	size_t sync_high;       /* the highest SYNC iteration reached: a SYNC beyond it is progress */
	bool rewrite_inputs;
	uint64_t reset_count; /* the board's reset count at the last halt (resets or board_stats) */
	/* hooks->board_stats's answer at this halt, while stats_fresh (cleared whenever the target may
	 * run: a resume, a reset) */
	bool stats_fresh;
	uint64_t stats_cycles, stats_exc, stats_resets;
	bool sym_open;         /* --start reached, --stop not yet */
	bool ended_since_sync; /* an END was handled since the last SYNC: the iteration has its sample */
	bool clock_read;       /* SystemCoreClock was read (loop_check_clock) */
	/* What bench changes in the debugger's state, each recorded BEFORE the command that changes it
	 * is sent, so loop_check_restore puts it back on every exit path, also when the command was
	 * still in flight (a signal, a timeout, a lost link: issue 26). */
	bool masked;                        /* `cortex_m maskisr on` sent, the original mode not yet back */
	char mask_orig[16];                 /* the debugger's masking mode before bench's first ("auto") */
	uint32_t planted[LOOP_MAX_PENDING]; /* hardware breakpoints bench set or is setting */
	size_t n_planted;
	uint32_t demcr_orig; /* DEMCR before bench set its vector catches */
	bool demcr_saved;
	uint32_t demcr_set; /* DEMCR bits besides the vector catches bench turned on (TRCENA) */
	bool dwt_saved;
	uint32_t dwt_ctrl_orig; /* DWT_CTRL before bench's first write to it (dwt_saved) */
	uint32_t dwt_ctrl_set;  /* DWT_CTRL bits bench turned on that were off (EXCEVTENA, CYCCNTENA) */
	char poll_error[256];   /* the first failure's message */
	bool stack_checked;     /* --stack: the first paint was read back (loop_stack.c) */
};

#endif /* HOST_RUN_LOOP_STATE_H */
