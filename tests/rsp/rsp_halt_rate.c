/* Marker halts per second through one backend, for perf/bench_rsp.sh: loads a firmware whose
 * markers repeat forever (examples/nops.elf: the host never sets bench_ctl.stop), resets it, then
 * times N rounds of what `bench run` does per marker: resume, wait for the halt, read PC and
 * DWT_CYCCNT (Armv7-M ARM C1.8.6, 0xE0001004). Connection and load are outside the timing.
 *   rsp_halt_rate gdb|tcl HOST:PORT FIRMWARE.elf HALTS [--no-load]
 * prints "halts=N seconds=S rate=R" on stdout. --no-load: the firmware is in flash already
 * (bench-sim --elf), only reset it. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "transport/gdb_rsp.h"
#include "base/clock.h"
#include "transport/openocd_tcl.h"
#include "transport/rsp_io.h"

int main(int argc, char **argv)
{
	struct backend bk;
	struct backend_halt_info h;
	struct bench_error err;
	uint32_t cyc;
	uint64_t t0, t1;
	long n;
	int rc;

	bool load = !(argc == 6 && !strcmp(argv[5], "--no-load"));

	if ((argc != 5 && load) || (strcmp(argv[1], "gdb") && strcmp(argv[1], "tcl")) || (n = atol(argv[4])) <= 0) {
		fprintf(stderr, "usage: %s gdb|tcl HOST:PORT FIRMWARE.elf HALTS [--no-load]\n", argv[0]);
		return 2;
	}
	rc = !strcmp(argv[1], "gdb") ? rsp_backend_open(&bk, argv[2], &err) : tcl_backend_open(&bk, argv[2], 0, &err);
	if (rc == 0)
		rc = backend_halt(&bk, &err);
	if (rc == 0)
		rc = backend_reset(&bk, BK_RESET_HALT, &err);
	if (rc == 0 && load)
		rc = backend_load(&bk, argv[3], &err);
	if (rc == 0 && load)
		rc = backend_reset(&bk, BK_RESET_HALT, &err);
	/* one warm-up halt: caches (the RSP backend's BKPT look-ups, OpenOCD's) fill here */
	for (long i = 0; rc == 0 && i < 4; i++)
		rc = backend_resume_sample(&bk, 5000, 0xE0001004u, &h, &cyc, &err);
	t0 = clock_now_ms();
	for (long i = 0; rc == 0 && i < n; i++)
		rc = backend_resume_sample(&bk, 5000, 0xE0001004u, &h, &cyc, &err);
	t1 = clock_now_ms();
	if (rc < 0) {
		fprintf(stderr, "rsp_halt_rate: %s\n", err.msg);
		if (bk.ops)
			backend_close(&bk);
		return 1;
	}
	printf("halts=%ld seconds=%.3f rate=%.1f\n", n, (double)(t1 - t0) / 1000.0,
	       (double)n * 1000.0 / (double)(t1 > t0 ? t1 - t0 : 1));
	backend_close(&bk);
	return 0;
}
