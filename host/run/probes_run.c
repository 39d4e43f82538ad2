/* The probe check of `bench run --board REAL [--probe SERIAL]`, before OpenOCD is started: OpenOCD
 * alone would pick any probe (no serial) or fail with "unable to open" (a wrong one); bench names
 * the attached serials instead (issue 6). Boards without a probe (virtual, QEMU) and attaching to
 * a running server (--openocd, --gdb) are left alone. */
#include <string.h>

#include "firmware/board.h"
#include "session/probes.h"
#include "run/run.h"

int probes_check_run(const struct run_opts *o, struct bench_error *err)
{
	struct board b;
	struct bench_error berr;
	struct probe_list l;
	int rc;

	if (!o->board || o->openocd || o->gdb)
		return 0;
	/* An unknown board is run's to report, with its own message. */
	if (board_load(o->boards_dir, o->board, &b, &berr) < 0 || b.virtual_board || strcmp(b.backend, "openocd"))
		return 0;
	rc = probes_enumerate(&l, err);
	if (rc == 0)
		rc = probes_select(&l, o->probe, err);
	probes_free(&l);
	return rc;
}
