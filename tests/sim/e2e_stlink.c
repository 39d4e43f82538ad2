/* End-to-end tests of the virtual board over each way stock OpenOCD 0.12 reaches it:
 *   dap   its ST-LINK through the st-link driver, dapdirect_swd, with the stock scripts plus one line:
 *         -f interface/stlink-dap.cfg -c "st-link backend tcp N" -c "transport select dapdirect_swd"
 *         -f target/stm32f4x.cfg (exactly; resets through AIRCR.SYSRESETREQ, as that script does
 *         without SRST)
 *   hla   its ST-LINK through the hla driver: -f board/stm32f4discovery.cfg -c "hla_stlink_backend tcp N"
 *         (resets through the probe's NRST: the board file's reset_config srst_only)
 *   jtag  remote_bitbang, boards/sim-stm32f4/openocd.cfg with SIM_JTAG_PORT
 * and, for dap, what a real Discovery runs by default (mode srst): boards/stm32f4-discovery/openocd.cfg
 * (dapdirect_swd, reset_config srst_only: resets through the probe's NRST) -c "st-link backend tcp N".
 * Usage: e2e_stlink suite|program|gdb|perf PATH BENCH_SIM FIRMWARE_DIR [HALTS]
 *        e2e_stlink srst|round_trips dap BENCH_SIM FIRMWARE_DIR
 * (bad input and the command line of the ST-LINK port: e2e_stlink_raw.c; the shared board helpers:
 * e2e_stlink_board.h)
 * The firmware is tests/firmware/dap/marker_loop.S (bkpt #1; 100 NOPs; bkpt #2; r4++; bp_here; and
 * wp_store for the watchpoint). perf prints the figures perf/bench_stlink.sh reports. */
#include "e2e_stlink_board.h"

/* Examine and its events, reset halt, BKPT, CYCCNT, plain resume past a BKPT, hardware breakpoint
 * and watchpoint, reset run, step. */
static int test_suite(enum path path, const char *sim_bin, const char *fw_dir)
{
	struct board b;
	board_up(&b, path, sim_bin, fw_dir, true);
	/* target/stm32f4x.cfg's examine-end event (the jtag path's board file has none). */
	if (path != PATH_JTAG) {
		E2E_CHECK((read_word(&b, DBGMCU_CR) & 7u) == 7u,
		          "examine-end did not set DBGMCU_CR DBG_SLEEP/STOP/STANDBY");
		E2E_CHECK((read_word(&b, DBGMCU_APB1_FZ) & 0x1800u) == 0x1800u,
		          "examine-end did not freeze the watchdogs");
		/* reset-init's clock set-up: PLL on and locked, FLASH_ACR prefetch + 2 wait states, the
		 * system clock switched to the PLL (RM0090 7.3.1, 7.3.3, 3.9.1). */
		e2e_tcl(b.tcl, "reset init");
		E2E_CHECK((read_word(&b, RCC_CR) & 0x03000000u) == 0x03000000u, "reset-init: PLL not on and ready");
		E2E_CHECK((read_word(&b, RCC_CFGR) & 0xFu) == 0xAu, "reset-init: system clock not switched to the PLL");
		E2E_CHECK((read_word(&b, FLASH_ACR) & 0x107u) == 0x102u, "reset-init: FLASH_ACR not PRFTEN | 2 WS");
		/* Both of stm32f4x.cfg's flash banks probe: the main flash and the OTP area. */
		const char *fp = e2e_tcl(b.tcl, "flash probe 0; flash probe 1; flash banks");
		E2E_CHECK(strstr(fp, "0x08000000") && strstr(fp, "0x1fff7800"), "flash banks after probing: `%s`", fp);
		E2E_CHECK(strstr(e2e_slurp(b.ocd_log), "flash size = 1024 KiB") != NULL, "flash bank probing: no size");
	}
	e2e_tcl(b.tcl, "reset halt");
	expect_halted_at(&b, FW_START, "reset halt");

	e2e_tcl(b.tcl, "resume");
	expect_halted_at(&b, FW_MARKER_BEGIN, "run to bkpt #1");
	uint32_t c1 = read_word(&b, DWT_CYCCNT);
	e2e_tcl(b.tcl, "resume");
	expect_halted_at(&b, FW_MARKER_END, "resume past bkpt #1");
	uint32_t c2 = read_word(&b, DWT_CYCCNT);
	E2E_CHECK(c2 - c1 == FW_NNOPS, "[%s] CYCCNT difference %u between the markers, wanted %u", path_names[path],
	          c2 - c1, FW_NNOPS);
	E2E_CHECK(strstr(e2e_slurp(b.ocd_log), "halted due to breakpoint") != NULL, "no breakpoint halt in the log");

	const char *r = e2e_tcl(b.tcl, "bp 0x%08x 2 hw", FW_BP_HERE);
	E2E_CHECK(strstr(r, "breakpoint set at 0x08000124") != NULL, "bp: `%s`", r);
	e2e_tcl(b.tcl, "resume");
	expect_halted_at(&b, FW_BP_HERE, "hardware breakpoint");
	E2E_CHECK(reg(&b, "r4") == 1, "[%s] r4 %u at bp_here, wanted 1", path_names[path], reg(&b, "r4"));
	e2e_tcl(b.tcl, "rbp 0x%08x", FW_BP_HERE);

	/* A DWT write watchpoint: the store at wp_store completes and the core halts. Data watchpoints
	 * are imprecise on Armv7-M (ARM DDI 0403E C1.8.1: the debug event may be taken some
	 * instructions later), so the halt may come at wp_after or one branch later, at hang. */
	e2e_tcl(b.tcl, "wp 0x%08x 4 w", FW_WP_ADDR);
	e2e_tcl(b.tcl, "resume 0x%08x", FW_WP_STORE);
	r = e2e_tcl(b.tcl, "wait_halt 2000; stm32f4x.cpu curstate");
	E2E_CHECK(strcmp(r, "halted") == 0, "write watchpoint [%s]: target state `%s`", path_names[path], r);
	uint32_t wpc = reg(&b, "pc");
	E2E_CHECK(wpc == FW_WP_AFTER || wpc == FW_HANG, "write watchpoint [%s]: pc 0x%08x, wanted 0x%08x or 0x%08x",
	          path_names[path], wpc, FW_WP_AFTER, FW_HANG);
	/* OpenOCD's hla target calls every halt it did not request a breakpoint
	 * (hla_target.c adapter_examine_debug_reason()); the comparator's MATCHED bit (C1.8.17) says
	 * which it was. The others read DFSR and the comparators themselves. */
	if (path == PATH_HLA)
		E2E_CHECK(read_word(&b, DWT_FUNCTION0) & (1u << 24),
		          "DWT_FUNCTION0.MATCHED not set after the watchpoint");
	else
		E2E_CHECK(strstr(e2e_slurp(b.ocd_log), "halted due to watchpoint") != NULL,
		          "no watchpoint halt in the log");
	E2E_CHECK(read_word(&b, FW_WP_ADDR) == 1, "the watched store did not happen");
	e2e_tcl(b.tcl, "rwp 0x%08x", FW_WP_ADDR);

	/* reset run from `hang` (see e2e_openocd.c test_tcl: no BKPT may carry C_HALT into the reset). */
	e2e_tcl(b.tcl, "resume 0x%08x", FW_HANG);
	e2e_tcl(b.tcl, "reset run");
	expect_halted_at(&b, FW_MARKER_BEGIN, "reset run to bkpt #1");
	E2E_CHECK(reg(&b, "r4") == 0, "[%s] r4 %u after reset run, wanted 0", path_names[path], reg(&b, "r4"));

	e2e_tcl(b.tcl, "reg pc 0x%08x", FW_BP_HERE);
	e2e_tcl(b.tcl, "step");
	expect_halted_at(&b, FW_BP_HERE + 2, "step over nop");
	e2e_tcl(b.tcl, "step");
	expect_halted_at(&b, FW_MARKER_BEGIN, "step over b loop");

	if (path != PATH_JTAG) {
		uint64_t rt = ctl_stat(&b, "stlink_round_trips"), cmds = ctl_stat(&b, "stlink_commands");
		E2E_CHECK(rt > 100 && cmds > 100 && ctl_stat(&b, "bitbang_round_trips") == 0,
		          "stats: stlink_round_trips=%llu stlink_commands=%llu (the JTAG port must be unused)",
		          (unsigned long long)rt, (unsigned long long)cmds);
	}
	board_down(&b);
	printf("ok [%s]: examine (+ events, reset init, flash probe), reset halt, bkpt, CYCCNT=%u, resume, hw bp, "
	       "watchpoint, reset run, step\n",
	       path_names[path], c2 - c1);
	return 0;
}

/* program + verify into blank flash (bench-sim started empty) through the stm32f2x driver. */
static int test_program(enum path path, const char *sim_bin, const char *fw_dir)
{
	struct board b;
	board_up(&b, path, sim_bin, fw_dir, false);
	E2E_CHECK(read_word(&b, 0x08000000u) == 0xFFFFFFFFu, "flash is not blank at the start");
	program_firmware(&b);
	e2e_tcl(b.tcl, "resume");
	expect_halted_at(&b, FW_MARKER_BEGIN, "run the programmed image to bkpt #1");
	uint32_t c1 = read_word(&b, DWT_CYCCNT);
	e2e_tcl(b.tcl, "resume");
	expect_halted_at(&b, FW_MARKER_END, "resume to bkpt #2");
	uint32_t c2 = read_word(&b, DWT_CYCCNT);
	E2E_CHECK(c2 - c1 == FW_NNOPS, "CYCCNT difference %u, wanted %u", c2 - c1, FW_NNOPS);
	board_down(&b);
	printf("ok [%s]: program + verify into blank flash, run, CYCCNT=%u\n", path_names[path], c2 - c1);
	return 0;
}

static int test_gdb(enum path path, const char *sim_bin, const char *fw_dir)
{
	struct board b;
	board_up(&b, path, sim_bin, fw_dir, false);
	e2e_gdb_marker_loop(b.gdb_port, fw_dir, 60000);
	board_down(&b);
	printf("ok [%s]: gdb load, break, continue x3, info registers\n", path_names[path]);
	return 0;
}

/* What users' Discoveries run by default: boards/stm32f4-discovery/openocd.cfg over dapdirect_swd
 * with its `reset_config srst_only`, so every reset is the probe's NRST (DRIVE_NRST), not
 * AIRCR.SYSRESETREQ. Blank flash: program + verify, reset halt, the markers, reset run. */
static int test_srst(const char *sim_bin, const char *fw_dir)
{
	struct board b;
	board_up_cfg(&b, PATH_DAP, sim_bin, fw_dir, false, true);
	E2E_CHECK(read_word(&b, 0x08000000u) == 0xFFFFFFFFu, "flash is not blank at the start");
	uint64_t n0 = ctl_stat(&b, "nrst_resets");
	program_firmware(&b); /* reset halt, program (reset init) verify, reset halt: at the reset vector */
	uint64_t n1 = ctl_stat(&b, "nrst_resets");
	E2E_CHECK(n1 >= n0 + 2, "program with srst_only: nrst_resets %llu -> %llu, wanted the resets through NRST",
	          (unsigned long long)n0, (unsigned long long)n1);
	e2e_tcl(b.tcl, "reset halt");
	expect_halted_at(&b, FW_START, "reset halt (srst_only)");
	E2E_CHECK(ctl_stat(&b, "nrst_resets") == n1 + 1, "reset halt: not one NRST reset");
	e2e_tcl(b.tcl, "resume");
	expect_halted_at(&b, FW_MARKER_BEGIN, "run to bkpt #1 (srst_only)");
	uint32_t c1 = read_word(&b, DWT_CYCCNT);
	e2e_tcl(b.tcl, "resume");
	expect_halted_at(&b, FW_MARKER_END, "resume past bkpt #1 (srst_only)");
	uint32_t c2 = read_word(&b, DWT_CYCCNT);
	E2E_CHECK(c2 - c1 == FW_NNOPS, "CYCCNT difference %u between the markers, wanted %u", c2 - c1, FW_NNOPS);
	e2e_tcl(b.tcl, "resume 0x%08x", FW_HANG);
	e2e_tcl(b.tcl, "reset run");
	expect_halted_at(&b, FW_MARKER_BEGIN, "reset run to bkpt #1 (srst_only)");
	E2E_CHECK(reg(&b, "r4") == 0, "r4 %u after reset run, wanted 0", reg(&b, "r4"));
	E2E_CHECK(ctl_stat(&b, "nrst_resets") == n1 + 2, "reset run: not one NRST reset");
	board_down(&b);
	printf("ok [dap, boards/stm32f4-discovery/openocd.cfg, srst_only]: program+verify, reset halt, CYCCNT=%u, "
	       "reset run; %llu NRST resets\n",
	       c2 - c1, (unsigned long long)(n1 + 2 - n0));
	return 0;
}

/* Round trips per marker halt on dap: OpenOCD 0.12 batches the halt's DAP accesses with RW_MISC
 * (stlink_usb.c stlink_usb_rw_misc_*(), used from stlink-server API v3 and firmware V3J2): the
 * stand-in measured 39 round trips a halt, hla 70, jtag 225. A probe version or server API that
 * loses the batching costs more round trips and fails here. The halts are those of perf's
 * marker_rate(): `resume; wait_halt; read_memory CYCCNT`, with OpenOCD's polling on as bench runs
 * it (with `poll off` the same halt measured 30: the halt event's handling is then skipped). */
#define ROUND_TRIPS_PER_HALT 39u
static int test_round_trips(const char *sim_bin, const char *fw_dir)
{
	struct board b;
	board_up(&b, PATH_DAP, sim_bin, fw_dir, true);
	e2e_tcl(b.tcl, "reset halt");
	e2e_tcl(b.tcl, "resume");
	expect_halted_at(&b, FW_MARKER_BEGIN, "first marker");
	uint32_t begin = read_word(&b, DWT_CYCCNT);
	enum { HALTS = 40 };
	uint64_t rt_min = UINT64_MAX, rt_max = 0, misc_min = UINT64_MAX;
	for (int i = 0; i < HALTS; i++) {
		uint64_t rt0 = ctl_stat(&b, "stlink_round_trips"), m0 = ctl_stat(&b, "stlink_misc_batches");
		const char *r = e2e_tcl(b.tcl, "resume; wait_halt 1000; read_memory 0x%08x 32 1", DWT_CYCCNT);
		uint32_t c = (uint32_t)strtoul(r, NULL, 0);
		if (i % 2 == 0)
			E2E_CHECK(c - begin == FW_NNOPS, "marker pair %d: %u cycles, wanted %u", i / 2, c - begin,
			          FW_NNOPS);
		begin = c;
		uint64_t rt = ctl_stat(&b, "stlink_round_trips") - rt0, m = ctl_stat(&b, "stlink_misc_batches") - m0;
		rt_min = rt < rt_min ? rt : rt_min;
		rt_max = rt > rt_max ? rt : rt_max;
		misc_min = m < misc_min ? m : misc_min;
	}
	board_down(&b);
	printf("round trips per marker halt over dap: %llu-%llu, RW_MISC batches per halt >= %llu\n",
	       (unsigned long long)rt_min, (unsigned long long)rt_max, (unsigned long long)misc_min);
	E2E_CHECK(misc_min >= 1, "a marker halt without an RW_MISC batch: OpenOCD no longer batches (API v3, V3J2+)");
	/* Exact on an idle machine (39 every halt, measured). OpenOCD's background poll (every 100 ms:
	 * a DHCSR read) may land inside one halt's window on a loaded one: a few more, never 70. */
	E2E_CHECK(rt_min == ROUND_TRIPS_PER_HALT && rt_max <= ROUND_TRIPS_PER_HALT + 6,
	          "marker halts took %llu-%llu round trips over dap, wanted %u (at most %u with a background poll; "
	          "hla takes 70)",
	          (unsigned long long)rt_min, (unsigned long long)rt_max, ROUND_TRIPS_PER_HALT,
	          ROUND_TRIPS_PER_HALT + 6);
	return 0;
}

/* ---- perf: marker halts per second, CPU and round trips per halt, per path ------------------- */

struct rate {
	double hz, cpu_ocd_ms, cpu_sim_ms, round_trips;
};

/* `resume; wait_halt; read_memory CYCCNT` alternating between the two markers, every pair checked
 * to be the 100 NOPs; the other figures over the same halts. */
static struct rate marker_rate(enum path path, const char *sim_bin, const char *fw_dir, int halts)
{
	struct board b;
	struct rate out;
	board_up(&b, path, sim_bin, fw_dir, true);
	e2e_tcl(b.tcl, "reset halt");
	e2e_tcl(b.tcl, "resume");
	expect_halted_at(&b, FW_MARKER_BEGIN, "first marker");
	uint32_t begin = read_word(&b, DWT_CYCCNT);
	const char *rt_key = path == PATH_JTAG ? "bitbang_round_trips" : "stlink_round_trips";
	uint64_t rt0 = ctl_stat(&b, rt_key);
	double ocd0 = e2e_cpu_seconds(b.ocd), sim0 = e2e_cpu_seconds(b.sim), t0 = e2e_now();
	for (int i = 0; i < halts; i++) {
		const char *r = e2e_tcl(b.tcl, "resume; wait_halt 1000; read_memory 0x%08x 32 1", DWT_CYCCNT);
		uint32_t c = (uint32_t)strtoul(r, NULL, 0);
		if (i % 2 == 0)
			E2E_CHECK(c - begin == FW_NNOPS, "[%s] marker pair %d: %u cycles, wanted %u", path_names[path],
			          i / 2, c - begin, FW_NNOPS);
		begin = c;
	}
	out.hz = halts / (e2e_now() - t0);
	out.cpu_ocd_ms = (e2e_cpu_seconds(b.ocd) - ocd0) * 1000.0 / halts;
	out.cpu_sim_ms = (e2e_cpu_seconds(b.sim) - sim0) * 1000.0 / halts;
	out.round_trips = (double)(ctl_stat(&b, rt_key) - rt0) / halts;
	board_down(&b);
	return out;
}

static double ratio(double v, double base)
{
	return base > 0 ? v / base : 0.0;
}

/* Every figure against the jtag path of the same run (perf/run.sh: baseline= and ratio= on each
 * line); the marker-rate target of issue 11 says whether it was met. */
static int perf(const char *sim_bin, const char *fw_dir, int halts)
{
	struct rate r[3];
	for (int p = 0; p < 3; p++)
		r[p] = marker_rate((enum path)p, sim_bin, fw_dir, halts);
	const struct rate *j = &r[PATH_JTAG];
	for (int p = 0; p < 3; p++) {
		const char *n = path_names[p];
		char target[160];
		if (p == PATH_DAP) {
			bool met = r[p].hz >= 600.0 && r[p].hz >= 4.0 * j->hz;
			snprintf(target, sizeof(target),
			         ">=600/s and >=4x the jtag figure (baseline: jtag, same run): %s",
			         met ? "met" : "NOT met");
		} else {
			snprintf(target, sizeof(target), "(none; baseline: jtag, same run)");
		}
		printf("figure: marker_halts_%s value=%.1f unit=1/s baseline=%.1f ratio=%.2f target=%s\n", n, r[p].hz,
		       j->hz, ratio(r[p].hz, j->hz), target);
		printf("figure: marker_halt_cpu_openocd_%s value=%.3f unit=ms baseline=%.3f ratio=%.2f target=(none; "
		       "OpenOCD's CPU per halt; baseline: jtag, same run)\n",
		       n, r[p].cpu_ocd_ms, j->cpu_ocd_ms, ratio(r[p].cpu_ocd_ms, j->cpu_ocd_ms));
		printf("figure: marker_halt_cpu_sim_%s value=%.3f unit=ms baseline=%.3f ratio=%.2f target=(none; "
		       "bench-sim's CPU per halt; baseline: jtag, same run)\n",
		       n, r[p].cpu_sim_ms, j->cpu_sim_ms, ratio(r[p].cpu_sim_ms, j->cpu_sim_ms));
		printf("figure: marker_halt_round_trips_%s value=%.1f unit=1 baseline=%.1f ratio=%.2f target=(none; %s "
		       "request/reply round trips per halt; baseline: jtag, same run)\n",
		       n, r[p].round_trips, j->round_trips, ratio(r[p].round_trips, j->round_trips),
		       p == PATH_JTAG ? "remote_bitbang" : "stlink-server");
	}
	printf("target: dap marker halts >= 600/s: %s (%.1f/s)\n", r[PATH_DAP].hz >= 600.0 ? "met" : "NOT met",
	       r[PATH_DAP].hz);
	printf("target: dap marker halts >= 4x jtag: %s (%.2fx)\n", r[PATH_DAP].hz >= 4.0 * j->hz ? "met" : "NOT met",
	       ratio(r[PATH_DAP].hz, j->hz));
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 5) {
		fprintf(stderr,
		        "usage: %s suite|program|gdb|srst|round_trips|perf dap|hla|jtag BENCH_SIM "
		        "FIRMWARE_DIR [HALTS]\n",
		        argv[0]);
		return 2;
	}
	int path = -1;
	for (int i = 0; i < 3; i++)
		if (strcmp(argv[2], path_names[i]) == 0)
			path = i;
	if (path < 0) {
		fprintf(stderr, "%s: path `%s`: give dap, hla or jtag\n", argv[0], argv[2]);
		return 2;
	}
	/* HALTS: a count of marker halts; 0 or junk would divide by zero (atoi() says 0 for both). */
	long halts = 300;
	if (argc > 5) {
		char *end = NULL;
		errno = 0;
		halts = strtol(argv[5], &end, 10);
		if (errno || end == argv[5] || *end || halts < 2 || halts > 1000000) {
			fprintf(stderr, "%s: HALTS `%s`: give a whole number of marker halts from 2 to 1000000\n",
			        argv[0], argv[5]);
			return 2;
		}
	}
	bool long_run = strcmp(argv[1], "perf") == 0 || strcmp(argv[1], "program") == 0;
	e2e_init(long_run ? 300 : 120);
	setvbuf(stdout, NULL, _IOLBF, 0);
	int rc = 2;
	if (strcmp(argv[1], "suite") == 0)
		rc = test_suite((enum path)path, argv[3], argv[4]);
	else if (strcmp(argv[1], "program") == 0)
		rc = test_program((enum path)path, argv[3], argv[4]);
	else if (strcmp(argv[1], "gdb") == 0)
		rc = test_gdb((enum path)path, argv[3], argv[4]);
	else if (strcmp(argv[1], "srst") == 0 && path == PATH_DAP)
		rc = test_srst(argv[3], argv[4]);
	else if (strcmp(argv[1], "round_trips") == 0 && path == PATH_DAP)
		rc = test_round_trips(argv[3], argv[4]);
	else if (strcmp(argv[1], "perf") == 0)
		rc = perf(argv[3], argv[4], (int)halts);
	if (rc == 0) {
		char cmd[400];
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", e2e_dir);
		if (system(cmd) != 0)
			fprintf(stderr, "could not remove %s\n", e2e_dir);
	}
	return rc;
}
