/* bench probes [--json]: list the debug probes attached over USB (host/session/probes.c). Exit 0 also when
 * none is attached; 4 when libusb cannot start. */
#include <stdio.h>
#include <string.h>

#include "cli/cmd.h"
#include "session/probes.h"

int cmd_probes(int argc, char **argv)
{
	struct probe_list l;
	struct bench_error err;
	bool json = false;
	int rc;

	bench_error_clear(&err);
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json")) {
			json = true;
		} else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs("usage: bench probes [--json]\n"
			      "  lists ST-LINK/V2, V2-1, V3, CMSIS-DAP (v1 HID, v2 bulk) and J-Link probes:\n"
			      "  kind, USB id, serial (for `bench run --probe SERIAL` and farm files), bus and port\n",
			      stdout);
			return 0;
		} else {
			fprintf(stderr, "bench: unknown option '%s': see `bench probes --help`\n", argv[i]);
			return 2;
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
