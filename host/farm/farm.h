/* A board farm: several boards on one machine, each behind its own probe, all measuring the same
 * firmware in parallel (`bench run --farm FILE`). The farm file is plain text, one board per line:
 *
 *     # NAME    BOARD              PROBE-SERIAL
 *     disco-1   stm32f4-discovery  066DFF535550755187191037
 *     sim-a     sim-stm32f4
 *
 * Fields are separated by blanks; '#' starts a comment; NAME is [A-Za-z0-9_.-]+ and unique; a
 * real board needs its probe's serial (`bench probes` lists them), a virtual board takes none.
 * Every error names FILE:LINE (docs/ci.md). */
#ifndef HOST_FARM_FARM_H
#define HOST_FARM_FARM_H

#include <stdbool.h>
#include <stddef.h>

#include "base/error.h"
#include "results/results.h"

#define FARM_MAX_BOARDS 32

struct probe_list;
struct run_opts;

struct farm_board {
	char name[32];
	char board[64];
	char serial[128];   /* "" for a virtual board */
	unsigned line;      /* where it was declared */
	bool virtual_board; /* filled by farm_validate */
};

struct farm {
	char path[1024];
	struct farm_board boards[FARM_MAX_BOARDS];
	size_t n;
};

/* Parses TEXT (LEN bytes); PATH names it in messages ("farm.txt:3: ..."). BENCH_E_USAGE on a
 * syntax error, a duplicate name or serial, or a farm without boards. */
int farm_parse(const char *text, size_t len, const char *path, struct farm *out, struct bench_error *err);
int farm_load(const char *path, struct farm *out, struct bench_error *err);
/* Loads every board (boards_dir NULL: board_root()); an unknown board, a real board without a
 * serial, or a virtual one with a serial is BENCH_E_BOARD / BENCH_E_USAGE naming the line. */
int farm_validate(struct farm *f, const char *boards_dir, struct bench_error *err);
/* Every real board's serial must be among PROBES (BENCH_E_USAGE naming the line otherwise). */
int farm_check_serials(const struct farm *f, const struct probe_list *probes, struct bench_error *err);

/* Runs BASE (firmware, repeat, sweeps, ...) on every board at once, one thread and one OpenOCD
 * (own free ports, own work directory) per board, and merges the reports into COMBINED: result
 * names become "<board name>/<result>", the context is the first board's with board "farm" and
 * probe listing the serials; the status is the worst one, the error the first, prefixed with its
 * board. COMBINED must be results_init()ed. Returns 0 or the first board's negated error. */
int farm_run(const struct farm *f, const struct run_opts *base, struct bench_report *combined, struct bench_error *err);

/* `bench run --farm FILE ...`: cmd_run hands its parsed options here when o->farm is set; the
 * --max-cycles limits in o->limits are checked after the run, as a single board's run does. */
int farm_cmd_run(struct run_opts *o);

#endif /* HOST_FARM_FARM_H */
