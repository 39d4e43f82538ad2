/* bench: measure how many cycles code takes on a microcontroller, through a debug probe.
 * The sub-command table (after git's commands[]); each command lives in cmd_<name>.c. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli/cmd.h"

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
};

static const struct command commands[] = {
    {"run", cmd_run, "measure a firmware's marked code: bench run FIRMWARE.elf [--board NAME]"},
    {"regions", cmd_regions, "list the profile-point regions a firmware declares"},
    {"probes", cmd_probes, "list attached debug probes (ST-LINK, CMSIS-DAP, J-Link)"},
    {"boards", cmd_boards, "list the boards and the folder they come from, bench-sim, the target runtime"},
    {"compare", cmd_compare, "compare two JSON reports: bench compare BASE.json NEW.json"},
    {"report", cmd_report, "render a JSON report: bench report RUN.json --html FILE"},
};

static void usage(FILE *out)
{
	fprintf(out, "usage: bench <command> [options]\n\ncommands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(out, "  %-9s %s\n", commands[i].name, commands[i].help);
	fprintf(out, "\n`bench <command> --help` shows a command's options; docs/ has the manual.\n");
}

static int dispatch(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
		printf("bench %s\n", BENCH_VERSION);
		return 0;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "bench: unknown command '%s': run `bench --help` for the list\n", argv[1]);
	return 2;
}

int main(int argc, char **argv)
{
	int code = dispatch(argc, argv);

	/* What a command printed may still sit in stdio's buffer (--help, a listing): a full disk or
	 * a closed file found only at exit would otherwise end in 0 with nothing written
	 * (`bench --help > /dev/full`). Exit 6 as any failed write (docs/exit-codes.md). */
	errno = 0;
	if ((fflush(stdout) != 0 || ferror(stdout)) && code == 0) {
		fprintf(stderr, "bench: writing to stdout failed (%s): check the disk or the file it goes to\n",
		        errno ? strerror(errno) : "write error");
		code = 6;
	}
	return code;
}
