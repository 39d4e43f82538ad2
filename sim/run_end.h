/* The end of a stand-alone run (bench-sim --standalone): the `end` line that says where and why
 * the firmware stopped, with the symbol from the ELF, and the exit code it gives (docs/sim.md
 * "The end of a stand-alone run"). */
#ifndef SIM_RUN_END_H
#define SIM_RUN_END_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "args.h"
#include "board.h"
#include "core/core.h"

/* Exit codes of bench-sim --standalone (also in sim_usage_text and docs/exit-codes.md). */
enum {
	SIM_EXIT_OK = 0,          /* DONE marker, --until-uart mark, or --no-debugger asleep for good */
	SIM_EXIT_FAIL = 1,        /* lockup, --max-cycles elapsed, a debug halt with no debugger, errors */
	SIM_EXIT_USAGE = 2,       /* bad command line */
	SIM_EXIT_NO_PROGRESS = 3, /* spinning in place (a fault handler's `b .`) or asleep for good */
};

/* The function of `elf` whose symbol covers addr (its start <= addr < start + size; else the
 * nearest function below): "name" or "name+0xOFF" into out. Returns false when the ELF has no
 * symbol table or no function there (out is then ""). */
bool sim_symbol_at(const char *elf, uint32_t addr, char *out, size_t len);

/* The reason's name on the `end` line: "spin", "sleep", "lockup", "uart-mark", ... */
const char *sim_end_name(enum core_end why);

/* Prints `end pc=0x%08x cyccnt=%u reason=R[ exc=E][ symbol=S]` to out (nothing for the DONE
 * marker, whose halt line says it) and, unless quiet, one line on stderr for the reasons a user
 * must act on; returns the exit code. unattached: --no-debugger, where asleep for good is a
 * normal end (0). */
int sim_report_end(FILE *out, const char *elf, const struct core_end_info *e, bool unattached, bool quiet);

/* bench-sim --standalone: runs the board's core to its end (--until-uart's mark on, the ledger
 * when asked), flushes the UART, prints the `end` line; returns the exit code. */
int sim_run_standalone(struct board *b, const struct sim_options *o);

#endif /* SIM_RUN_END_H */
