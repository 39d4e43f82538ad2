/* One option parser for every sub-command: getopt_long (glibc), as bench-sim's main.c uses, so
 * `--opt value`, `--opt=value`, `-h` and `--` mean the same to `bench run`, `compare`, `report`,
 * `boards`, `probes` and `regions`, and each error is one line in bench's own words. */
#ifndef HOST_CLI_ARGS_H
#define HOST_CLI_ARGS_H

#include <getopt.h>

#include "base/error.h"

enum {
	CLI_ARG_END = 0,        /* no more arguments */
	CLI_ARG_POSITIONAL = 1, /* a file name or other operand, in *val (also every one after `--`) */
	                        /* an option's struct option .val otherwise: 'h', or 256 and up for long-only options */
};

struct cli_args {
	const char *cmd; /* "run": errors end in "see `bench run --help`" */
	int argc;
	char **argv;                   /* argv[0] is the sub-command's name */
	const char *shorts;            /* short options as getopt wants them ("h", "ho:") */
	const struct option *longopts; /* ends with a zero entry; no .flag pointers */
	/* Optional: the end of "OPT needs ..." for an option whose value is missing, e.g. "a farm file
	 * (docs/ci.md)", written into buf; NULL (or a NULL answer) says "a value: see `bench CMD --help`". */
	const char *(*needs)(int val, char *buf, size_t len);
	int dashes; /* set once `--` was passed: operands left from here */
};

/* Starts parsing argv[1..argc) (resets getopt's state, so a process may parse several times). */
void cli_args_start(struct cli_args *a, const char *cmd, int argc, char **argv, const char *shorts,
                    const struct option *longopts);
/* The next option or operand: CLI_ARG_END, CLI_ARG_POSITIONAL, or the option's .val, with *val
 * its value (NULL for an option without one); or a negated bench_err (BENCH_E_USAGE: an unknown
 * option, a missing value, a value given to a flag). */
int cli_args_next(struct cli_args *a, const char **val, struct bench_error *err);
/* What a command does with what cli_args_next() gave it and it cannot take: RC (an error, or
 * CLI_ARG_POSITIONAL for an operand VAL it has no use for) becomes one line on stderr ("unexpected
 * argument 'VAL': see `bench CMD --help`", or ERR's message) and the exit code of its kind
 * (docs/exit-codes.md). */
int cli_args_unexpected(const struct cli_args *a, int rc, const char *val, struct bench_error *err);
/* The long name of option VAL ("--threshold"), or "-h" for a short-only one, for messages. */
const char *cli_args_name(const struct cli_args *a, int val, char *buf, size_t len);

#endif /* HOST_CLI_ARGS_H */
