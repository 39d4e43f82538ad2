/* bench probes [--json]: list the debug probes attached over USB (host/session/probes.c). Exit 0 also when
 * none is attached; 4 when libusb cannot start. */
#include <stdio.h>
#include <string.h>

#include "cli/args.h"
#include "cli/cmd.h"
#include "session/probes.h"

int cmd_probes(int argc, char **argv)
{
	struct probe_list l;
	struct bench_error err;
	bool json = false;
	int rc;

	static const struct option longopts[] = {
	    {"json", no_argument, NULL, 256}, {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
	struct cli_args a;
	const char *val;

	bench_error_clear(&err);
	cli_args_start(&a, "probes", argc, argv, "h", longopts);
	while ((rc = cli_args_next(&a, &val, &err)) != CLI_ARG_END) {
		if (rc == 256) {
			json = true;
		} else if (rc == 'h') {
			fputs("usage: bench probes [--json]\n"
			      "  lists ST-LINK/V2, V2-1, V3, CMSIS-DAP (v1 HID, v2 bulk) and J-Link probes:\n"
			      "  kind, USB id, serial (for `bench run --probe SERIAL` and farm files), bus and port\n",
			      stdout);
			return 0;
		} else {
			return cli_args_unexpected(&a, rc, val, &err);
		}
	}
	rc = probes_enumerate(&l, &err);
	if (rc == 0)
		rc = probes_print(stdout, &l, json, &err);
	if (rc == 0 && fflush(stdout) != 0)
		rc = bench_fail(&err, BENCH_E_IO, "writing the probe list failed");
	probes_free(&l);
	if (rc < 0) {
		fprintf(stderr, "bench: %s\n", err.msg);
		return bench_exit_code(err.kind);
	}
	return 0;
}
