/* bench-sim --ledger (ledger.c): the cycle ledger's totals by reason over a stand-alone run, the
 * model's own instrument for comparing it with silicon (docs/cycle-model.md "The cycle ledger"). */
#ifndef SIM_LEDGER_H
#define SIM_LEDGER_H

#include <stdint.h>
#include <stdio.h>

#include "core/core.h"

struct sim_ledger {
	uint64_t by_why[CORE_CHARGE_N];  /* cycles charged under each reason since sim_ledger_start() */
	uint64_t at_halt[CORE_CHARGE_N]; /* by_why at the last sim_ledger_halt() */
	uint64_t start;                  /* the core's cycle count then */
	FILE *out;                       /* where sim_ledger_halt() prints */
};

/* Zeroes the totals and hands every charge of `core` to them from now on. */
void sim_ledger_start(struct sim_ledger *l, struct sim_core *core, FILE *out);

/* At each marker halt of the stand-alone run (core_run_standalone's on_halt; ctx: the ledger):
 * prints `ledger-since-last REASON=CYCLES ...`, the reasons with cycles since the previous halt
 * (or the start), in list order: the cycles of a BEGIN..END stretch by reason on its END line. */
void sim_ledger_halt(void *ctx);

/* Prints the totals to `out`, one `ledger REASON CYCLES SHARE%` line per reason with cycles and
 * `ledger total CYCLES`, and, unless json_path is NULL, writes them as JSON there. Returns 0, or
 * -1 with a message when the file cannot be written or the total is not the cycles the core
 * counted since the start (a charge outside the ledger: the model's bug, never a figure to trust). */
int sim_ledger_report(const struct sim_ledger *l, struct sim_core *core, FILE *out, const char *json_path);

#endif /* SIM_LEDGER_H */
