/* getopt_long for every sub-command (args.h). getopt keeps its state in optind/optarg/optopt
 * (POSIX), so cli_args_start() resets it: glibc re-initialises fully when optind is 0
 * (getopt(3), NOTES). */
#include "cli/args.h"

#include <stdio.h>
#include <string.h>

void cli_args_start(struct cli_args *a, const char *cmd, int argc, char **argv, const char *shorts,
                    const struct option *longopts)
{
	memset(a, 0, sizeof(*a));
	a->cmd = cmd;
	a->argc = argc;
	a->argv = argv;
	a->shorts = shorts;
	a->longopts = longopts;
	optind = 0;
	opterr = 0; /* bench words its own errors, one line each */
}

const char *cli_args_name(const struct cli_args *a, int val, char *buf, size_t len)
{
	for (const struct option *o = a->longopts; o && o->name; o++)
		if (o->val == val) {
			(void)snprintf(buf, len, "--%s", o->name); /* cut is fine: a message */
			return buf;
		}
	(void)snprintf(buf, len, "-%c", val > 0 && val < 128 ? val : '?');
	return buf;
}

static int flag_given_value(const struct cli_args *a, int val)
{
	for (const struct option *o = a->longopts; o && o->name; o++)
		if (o->val == val)
			return o->has_arg == no_argument;
	return 0;
}

/* "--no" matches --no-regions, --no-load, ...: getopt_long says '?' as for an unknown option
 * (optopt 0); name the candidates instead. */
static int ambiguous(const struct cli_args *a, const char *opt, struct bench_error *err)
{
	size_t n = strcspn(opt + 2, "="), used = 0, hits = 0;
	char list[400] = "";

	for (const struct option *o = a->longopts; o && o->name; o++) {
		if (strncmp(o->name, opt + 2, n))
			continue;
		hits++;
		if (used < sizeof(list)) {
			int w = snprintf(list + used, sizeof(list) - used, "%s--%s", used ? ", " : "", o->name);
			used += w > 0 ? (size_t)w : 0;
		}
	}
	if (hits < 2)
		return 0;
	return bench_fail(err, BENCH_E_USAGE, "option '%.*s' is ambiguous (%s): give more of its name", (int)n + 2, opt,
	                  list);
}

int cli_args_next(struct cli_args *a, const char **val, struct bench_error *err)
{
	/* A leading '-': operands come back in order as 1 (getopt(3): "each nonoption argv-element
	 * is handled as if it were the argument of an option with character code 1"), whatever
	 * POSIXLY_CORRECT says; ':' reports a missing value as ':' instead of '?'. */
	char spec[32], name[80], needs_buf[160];
	const char *opt;
	int c;

	*val = NULL;
	if (a->dashes) {
		if (a->dashes >= a->argc)
			return CLI_ARG_END;
		*val = a->argv[a->dashes++];
		return CLI_ARG_POSITIONAL;
	}
	(void)snprintf(spec, sizeof(spec), "-:%s", a->shorts ? a->shorts : ""); /* a few letters: whole */
	c = getopt_long(a->argc, a->argv, spec, a->longopts, NULL);
	if (c == -1) {
		/* The end, or `--`: getopt leaves optind at the first operand after it. */
		a->dashes = optind > 0 ? optind : a->argc;
		return cli_args_next(a, val, err);
	}
	if (c == 1) {
		*val = optarg;
		return CLI_ARG_POSITIONAL;
	}
	opt = optind > 0 && optind <= a->argc ? a->argv[optind - 1] : "?";
	if (c == ':') {
		const char *needs = a->needs ? a->needs(optopt, needs_buf, sizeof(needs_buf)) : NULL;
		cli_args_name(a, optopt, name, sizeof(name));
		if (needs)
			return bench_fail(err, BENCH_E_USAGE, "%s needs %s", name, needs);
		return bench_fail(err, BENCH_E_USAGE, "%s needs a value: see `bench %s --help`", name, a->cmd);
	}
	if (c == '?') {
		/* glibc sets optopt to the option's val when a flag was given "=value"; 0 when the long
		 * option is unknown or ambiguous; the letter for an unknown short option. */
		if (optopt && flag_given_value(a, optopt) && strchr(opt, '='))
			return bench_fail(err, BENCH_E_USAGE, "%s takes no value: see `bench %s --help`",
			                  cli_args_name(a, optopt, name, sizeof(name)), a->cmd);
		if (optopt && strncmp(opt, "--", 2))
			return bench_fail(err, BENCH_E_USAGE, "unknown option '-%c': see `bench %s --help`", optopt,
			                  a->cmd);
		if (!strncmp(opt, "--", 2) && ambiguous(a, opt, err))
			return -(int)err->kind;
		return bench_fail(err, BENCH_E_USAGE, "unknown option '%s': see `bench %s --help`", opt, a->cmd);
	}
	*val = optarg;
	return c;
}

int cli_args_unexpected(const struct cli_args *a, int rc, const char *val, struct bench_error *err)
{
	if (rc == CLI_ARG_POSITIONAL)
		(void)bench_fail(err, BENCH_E_USAGE, "unexpected argument '%s': see `bench %s --help`", val, a->cmd);
	fprintf(stderr, "bench: %s\n", err->msg);
	return bench_exit_code(err->kind);
}
