/* bench-sim's command line (args.c): the options main.c runs with, parsed from argv. docs/sim.md
 * lists them. */
#ifndef SIM_ARGS_H
#define SIM_ARGS_H

#include <stdbool.h>
#include <stdint.h>

#include "core/core.h"

struct sim_options {
	long stlink_port; /* -1: not given */
	long jtag_port;   /* -1: not given */
	const char *jtag_socket;
	long ctl_port;   /* -1: none */
	int wait_states; /* -1: auto (FLASH_ACR.LATENCY) */
	bool trace;
	const char *elf;
	bool standalone;
	bool no_debugger;
	uint64_t max_cycles;
	bool quiet;
	bool spin;
	bool no_spin;
	enum sim_memory_blocks memory_blocks;
	bool ledger;                  /* --ledger: print the cycles by reason after a stand-alone run */
	const char *ledger_file;      /* --ledger=FILE: and write them there as JSON; NULL: not */
	const char *record;           /* --record=PATH: halt records (record.h); NULL: off */
	const char *until_uart;       /* --until-uart STRING: end the stand-alone run once a USART sent it */
	enum sim_unaligned unaligned; /* --unaligned[=M]: how unaligned accesses are found (TRM 3.3.2) */
};

/* The --help text. */
extern const char sim_usage_text[];

/* Parses argv into *o: 0 to run, 1 for --help (print sim_usage_text), -1 on bad usage (the
 * message printed, exit 2). */
int sim_parse_args(int argc, char **argv, struct sim_options *o);
/* A number (decimal or 0x hex) no larger than max: 0, or -1 when it is not one. */
int sim_parse_u64(const char *s, uint64_t max, uint64_t *out);

#endif /* SIM_ARGS_H */
