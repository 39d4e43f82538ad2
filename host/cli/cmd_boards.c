/* bench boards [--boards-dir DIR]: the boards bench knows, the folder they come from and how to pick
 * another, where bench-sim and the target runtime are (docs/install.md). Exit 0; 2 when there is no
 * boards folder or a board file is broken. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/datadir.h"
#include "cli/args.h"
#include "cli/cmd.h"
#include "firmware/board.h"
#include "session/openocd_proc.h"

static int print_boards(const char *root, const char *origin, struct bench_error *err)
{
	char names[4096], *save = NULL;
	struct board b;
	size_t n = board_list(root, names, sizeof(names));

	if (n == 0)
		return bench_fail(err, BENCH_E_BOARD,
		                  "no boards in %s: pass --boards-dir DIR or set BENCH_BOARDS_DIR to a folder of "
		                  "board folders (docs/boards.md)",
		                  root);
	printf("boards in %s (%s; --boards-dir DIR or BENCH_BOARDS_DIR picks another folder):\n", root, origin);
	for (char *name = strtok_r(names, ", ", &save); name; name = strtok_r(NULL, ", ", &save)) {
		if (board_load(root, name, &b, err) < 0)
			return -1;
		printf("  %-20s %-8s %s\n", b.name, b.virtual_board ? "virtual" : b.backend,
		       b.description[0] ? b.description : b.mcu);
	}
	return 0;
}

int cmd_boards(int argc, char **argv)
{
	const char *dir = NULL, *origin = "from --boards-dir";
	char sim[PATH_MAX], data[PATH_MAX], tried[2 * PATH_MAX + 16];
	struct bench_error err;
	int rc;

	static const struct option longopts[] = {
	    {"boards-dir", required_argument, NULL, 256}, {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
	struct cli_args a;
	const char *val;

	bench_error_clear(&err);
	cli_args_start(&a, "boards", argc, argv, "h", longopts);
	while ((rc = cli_args_next(&a, &val, &err)) != CLI_ARG_END) {
		if (rc == 256) {
			dir = val;
		} else if (rc == 'h') {
			fputs("usage: bench boards [--boards-dir DIR]\n"
			      "  lists the boards `bench run --board NAME` takes, the folder they come from\n"
			      "  (--boards-dir, else $BENCH_BOARDS_DIR, else share/probebench/boards next to bench),\n"
			      "  and where bench-sim and the target runtime (bench.h, bench.c) are\n",
			      stdout);
			return 0;
		} else {
			return cli_args_unexpected(&a, rc, val, &err);
		}
	}
	if (!dir) {
		const char *env = getenv("BENCH_BOARDS_DIR");
		origin = env && *env ? "from BENCH_BOARDS_DIR" : "next to bench";
		dir = board_root();
	}
	if (!dir) {
		fprintf(stderr,
		        "bench: no boards folder next to bench (looked for %s): pass --boards-dir DIR or set "
		        "BENCH_BOARDS_DIR\n",
		        board_root_tried());
		return bench_exit_code(BENCH_E_BOARD);
	}
	rc = print_boards(dir, origin, &err);
	if (rc == 0) {
		if (openocd_find_sim(sim, sizeof(sim), &err) == 0)
			printf("bench-sim: %s\n", sim);
		else
			printf("bench-sim: %s\n", err.msg);
		if (datadir_find(data, sizeof(data), tried, sizeof(tried)) == 0)
			printf("target runtime: %s/target (src/bench.c, include/bench.h; docs/integrate.md)\n", data);
		else
			printf("target runtime: not found (looked in %s)\n", tried);
		bench_error_clear(&err);
	}
	if (rc == 0 && fflush(stdout) != 0)
		rc = bench_fail(&err, BENCH_E_IO, "writing the board list failed");
	if (rc < 0) {
		fprintf(stderr, "bench: %s\n", err.msg);
		return bench_exit_code(err.kind);
	}
	return 0;
}
