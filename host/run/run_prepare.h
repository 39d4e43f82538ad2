/* One run's context (struct run_ctx), shared by run.c and run_prepare.c, and the checks run.c makes
 * before it measures (run_prepare.c). Private to run/. */
#ifndef HOST_RUN_RUN_PREPARE_H
#define HOST_RUN_RUN_PREPARE_H

#include <limits.h>
#include <stdbool.h>

#include "base/error.h"
#include "firmware/board.h"
#include "firmware/elf.h"
#include "profile/profile.h"
#include "profile/profile_sample.h"
#include "results/results.h"
#include "run/loop.h"
#include "run/run_opts.h"
#include "run/run_measures.h"
#include "run/run_profile.h"
#include "session/session.h"

/* One run: the firmware as read, the board, the session that reaches it, the loop that measures. */
struct run_ctx {
	const struct run_opts *o;
	struct bench_report *rep;
	struct bench_error *err;
	struct elf_file elf;
	char firmware_abs[PATH_MAX];
	bool elf_open;
	struct board board;
	bool have_board;
	struct session sess;
	bool sess_open;
	struct loop_config cfg;
	struct loop_opts loop_opts; /* what of run_opts the loop reads (cfg.o) */
	struct loop loop;
	struct run_phases phases;
	bool uart_live; /* UART lines count from the first reset halt on (before it: the board's power-on run) */
	/* --profile: the PC samples of each stretch, and what takes them */
	struct profile prof;
	struct profile_sampler sampler;
	struct run_measures meas; /* --stack, --code-size (run_measures.h) */
	/* --profile on the virtual board: its exact cycle ledger instead (docs/profile.md) */
	bool exact;
	struct run_exact rx;
	bool rx_open;
};

/* Opens the ELF and reads what the loop needs of it: markers or --start/--stop, bench_ctl,
 * SystemCoreClock, the input symbols. */
int run_prepare_firmware(struct run_ctx *c);
/* Loads the board (unless attached with --openocd/--gdb) and checks the options against it and
 * the ELF's core family. */
int run_prepare_board(struct run_ctx *c);
/* An image for another core: refused, or measured with a warning. */
int run_check_core(struct run_ctx *c);
/* The counter the board names, once the session is open (BK_CAP_CYCCNT), or none. */
int run_choose_counter(struct run_ctx *c);

#endif /* HOST_RUN_RUN_PREPARE_H */
