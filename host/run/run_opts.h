/* The options of one `bench run` (struct run_opts): what cli/run_args.c parses, run.c measures with
 * and run_prepare.c, run_measures.c check. A header of types alone, so those files share them
 * without including run.h, which declares run_measure(). */
#ifndef HOST_RUN_RUN_OPTS_H
#define HOST_RUN_RUN_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "run/sweep.h"

#define RUN_MAX_SIM_OPTS 8

struct junit_limits; /* report/junit.h */

struct run_opts {
	const char *firmware;   /* the ELF */
	const char *board;      /* NULL: the virtual board (bench-sim + OpenOCD) */
	const char *boards_dir; /* NULL: board_root() */
	const char *probe;      /* probe serial (OpenOCD `adapter serial`) */
	const char *transport;  /* "dap", "hla", "jtag"; NULL: the board's (board.json "transport") */
	const char *openocd;    /* "HOST:PORT" of a running OpenOCD's TCL port: attach, start nothing */
	const char *gdb;        /* "HOST:PORT" of a gdbserver: use the RSP backend */
	unsigned repeat;        /* measured iterations per input (default 10) */
	unsigned warmup;        /* iterations run but not recorded, per input (default 1) */
	struct run_sweep sweeps[RUN_MAX_SWEEPS]; /* inputs: the cartesian product, first sweep outermost */
	size_t n_sweeps;
	unsigned timeout_ms;   /* per marker-to-marker stretch (default RUN_DEFAULT_TIMEOUT_MS) */
	const char *json;      /* --json FILE: written atomically, also on failure */
	const char *start_sym; /* --start SYM --stop SYM: breakpoint mode on symbols, no markers needed */
	const char *stop_sym;
	bool bp_markers;         /* --bp-markers: plant hardware breakpoints at the marker sites */
	unsigned poll_ms;        /* --poll MS: read the region table while running; 0: only at DONE */
	bool no_regions;         /* --no-regions: skip the region table */
	bool icount;             /* --icount: QEMU boards also count instructions between markers (unit
	                          * "instructions", never cycles; docs/gdb.md) */
	bool no_load;            /* --no-load: the target already holds this firmware; do not program it */
	const char *work_dir;    /* logs and sockets; NULL: a fresh directory under $TMPDIR, removed after */
	uint16_t tcl_port;       /* 0: the one OpenOCD binds for `tcl_port 0` */
	const char *openocd_bin; /* NULL: $BENCH_OPENOCD or "openocd" */
	const char *sim_bin;     /* NULL: found next to bench */
	/* --sim-opt: options for the virtual board's bench-sim, each split at spaces (docs/run.md). */
	const char *sim_opts[RUN_MAX_SIM_OPTS];
	size_t n_sim_opts;
	bool progress;      /* show a progress bar (cmd_run sets it on a TTY) */
	bool quiet;         /* no console table */
	bool uart;          /* --uart: echo the firmware's UART lines (virtual board) and keep them in the report */
	const char *format; /* console reporter name; NULL: "console" */
	const volatile int *cancel; /* optional: nonzero stops the run as if interrupted (farm threads) */
	bool keep_interrupted;      /* --keep-interrupted: samples that took an exception count in the stats */
	bool mask_irqs;             /* --mask-irqs: DHCSR.C_MASKINTS from each BEGIN halt to its END halt */
	uint64_t clock_hz;          /* --clock-hz: the core clock when the firmware has no SystemCoreClock; 0: board */
	const char *profile;        /* --profile PREFIX: where each stretch's cycles go (docs/profile.md): the
	                             * virtual board's exact ledger, or DWT_PCSR samples on silicon */
	bool profile_sampled;       /* --profile-sampled: sample PCSR on the virtual board too */
	bool stack;                 /* --stack: stack depth of each stretch (docs/run.md "Stack depth") */
	const char *stack_limit;    /* --stack-limit ADDR: the lowest stack address; NULL: from the ELF */
	const char *stack_method;   /* --stack-method paint|exact; NULL: exact on the virtual board, else paint */
	bool code_size;             /* --code-size: bytes of the functions each stretch runs (docs/reports.md) */
	const char *code_method; /* --code-method static|executed; NULL: executed on the virtual board, else static */

	/* Parsed with the rest (cli/run_args.c), used by cmd_run and farm_cmd_run. */
	const char *farm;            /* --farm FILE: every board of the farm (farm.h) */
	struct junit_limits *limits; /* --max-cycles NAME=N go here; NULL: refused */
};

#endif /* HOST_RUN_RUN_OPTS_H */
