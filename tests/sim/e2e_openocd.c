/* End-to-end tests of bench-sim driven by stock OpenOCD 0.12 (and gdb-multiarch through OpenOCD's
 * GDB port), plus the TCL benchmark perf/bench_tcl.sh runs. Usage:
 *   e2e_openocd tcl|unix|program|gdb|badinput|cli BENCH_SIM FIRMWARE_DIR
 *   e2e_openocd perf BENCH_SIM FIRMWARE_DIR [HALTS]
 * The firmware is tests/firmware/dap/marker_loop.S (bkpt #1; 100 NOPs; bkpt #2; r4++; bp_here). */
#include "e2e_util.h"

#define FW_START        0x08000040u
#define FW_MARKER_BEGIN 0x08000056u
#define FW_MARKER_END   0x08000120u
#define FW_BP_HERE      0x08000124u
#define FW_HANG         0x0800012Au
#define FW_NNOPS        100u
#define DWT_CYCCNT      0xE0001004u

struct board {
	const char *sim_bin;
	const char *fw_dir;
	pid_t sim, ocd;
	uint16_t jtag_port, ctl_port, tcl_port, gdb_port;
	char socket_path[300];
	char sim_log[300], ocd_log[300];
	int tcl;
	int ctl;
};

/* Starts bench-sim; with `elf`, that image is in flash from the start (factory programmed through
 * core_load_elf(), no flash controller involved). */
static void sim_start(struct board *b, bool use_unix, const char *elf)
{
	char jport[16] = "0";
	snprintf(b->sim_log, sizeof(b->sim_log), "%s/bench-sim.log", e2e_dir);
	snprintf(b->socket_path, sizeof(b->socket_path), "%s/jtag.sock", e2e_dir);
	char *argv[12] = {(char *)b->sim_bin, "--jtag-port", jport, "--ctl-port", "0", "--quiet"};
	int n = 6;
	if (elf) {
		argv[n++] = "--elf";
		argv[n++] = (char *)elf;
	}
	if (use_unix) {
		argv[n++] = "--jtag-socket";
		argv[n++] = b->socket_path;
	}
	argv[n] = NULL;
	int out = -1;
	b->sim = e2e_spawn(argv, &out, b->sim_log);
	char line[128];
	unsigned port = 0;
	E2E_CHECK(e2e_read_line(out, line, sizeof(line), 10000) == 0 && sscanf(line, "jtag-port %u", &port) == 1,
	          "bench-sim did not print `jtag-port N` first (got `%s`); log:\n%s", line, e2e_slurp(b->sim_log));
	b->jtag_port = (uint16_t)port;
	E2E_CHECK(e2e_read_line(out, line, sizeof(line), 10000) == 0 && sscanf(line, "ctl-port %u", &port) == 1,
	          "bench-sim did not print `ctl-port N` second (got `%s`)", line);
	b->ctl_port = (uint16_t)port;
	close(out);
	b->ctl = e2e_connect(b->ctl_port, 5000);
	E2E_CHECK(b->ctl >= 0, "cannot connect to the control port %u", b->ctl_port);
}

/* One request line, one reply line on the control interface. */
static const char *ctl(struct board *b, const char *cmd)
{
	static char reply[1024];
	char line[256];
	int n = snprintf(line, sizeof(line), "%s\n", cmd);
	E2E_CHECK(send(b->ctl, line, (size_t)n, MSG_NOSIGNAL) == n, "control send: %s", strerror(errno));
	E2E_CHECK(e2e_read_line(b->ctl, reply, sizeof(reply), 30000) == 0, "no control reply to `%s` in 30 s", cmd);
	return reply;
}

static uint64_t ctl_stat(struct board *b, const char *key)
{
	const char *s = ctl(b, "stats");
	char pat[64];
	snprintf(pat, sizeof(pat), "%s=", key);
	const char *p = strstr(s, pat);
	E2E_CHECK(p != NULL, "stats lacks %s: %s", key, s);
	return strtoull(p + strlen(pat), NULL, 10);
}

static void ocd_start(struct board *b, bool use_unix)
{
	char set_port[340], set_tcl[32], set_gdb[32];
	snprintf(b->ocd_log, sizeof(b->ocd_log), "%s/openocd.log", e2e_dir);
	if (use_unix)
		snprintf(set_port, sizeof(set_port), "set SIM_JTAG_SOCKET %s", b->socket_path);
	else
		snprintf(set_port, sizeof(set_port), "set SIM_JTAG_PORT %u", b->jtag_port);
	b->tcl_port = e2e_free_port();
	b->gdb_port = e2e_free_port();
	snprintf(set_tcl, sizeof(set_tcl), "tcl_port %u", b->tcl_port);
	snprintf(set_gdb, sizeof(set_gdb), "gdb_port %u", b->gdb_port);
	char *argv[] = {"openocd",
	                "-c",
	                set_port,
	                "-f",
	                E2E_SOURCE_DIR "/boards/sim-stm32f4/openocd.cfg",
	                "-c",
	                set_tcl,
	                "-c",
	                set_gdb,
	                "-c",
	                "telnet_port disabled",
	                NULL};
	b->ocd = e2e_spawn(argv, NULL, b->ocd_log);
	b->tcl = e2e_connect(b->tcl_port, 10000);
	E2E_CHECK(b->tcl >= 0, "OpenOCD's TCL port %u never answered; log:\n%s", b->tcl_port, e2e_slurp(b->ocd_log));
	/* The port accepts before `init` (scan chain, examine) is done; the first reply comes after. */
	(void)e2e_tcl(b->tcl, "expr 0");
}

static void ocd_stop(struct board *b)
{
	if (b->tcl >= 0)
		close(b->tcl);
	b->tcl = -1;
	(void)e2e_stop(b->ocd);
	b->ocd = 0;
}

/* The 32-bit value of `reg NAME` ("pc (/32): 0x08000040"). */
static uint32_t reg(struct board *b, const char *name)
{
	const char *r = e2e_tcl(b->tcl, "reg %s", name);
	const char *p = strstr(r, "0x");
	E2E_CHECK(p != NULL, "reg %s: `%s`", name, r);
	return (uint32_t)strtoul(p, NULL, 16);
}

static uint32_t read_word(struct board *b, uint32_t addr)
{
	const char *r = e2e_tcl(b->tcl, "read_memory 0x%08x 32 1", addr);
	char *end = NULL;
	unsigned long v = strtoul(r, &end, 0);
	E2E_CHECK(end && end != r, "read_memory 0x%08x: `%s`", addr, r);
	return (uint32_t)v;
}

static void expect_halted_at(struct board *b, uint32_t pc, const char *what)
{
	const char *r = e2e_tcl(b->tcl, "wait_halt 2000; stm32f4x.cpu curstate");
	E2E_CHECK(strcmp(r, "halted") == 0, "%s: target state `%s`, wanted halted", what, r);
	uint32_t got = reg(b, "pc");
	E2E_CHECK(got == pc, "%s: pc 0x%08x, wanted 0x%08x", what, got, pc);
}

static char fw_elf[400];

/* bench-sim (with the test firmware factory-programmed when `programmed`) and OpenOCD, examined. */
static void board_up(struct board *b, const char *sim_bin, const char *fw_dir, bool use_unix, bool programmed)
{
	*b = (struct board){.sim_bin = sim_bin, .fw_dir = fw_dir, .tcl = -1, .ctl = -1};
	snprintf(fw_elf, sizeof(fw_elf), "%s/marker_loop.elf", fw_dir);
	sim_start(b, use_unix, programmed ? fw_elf : NULL);
	ocd_start(b, use_unix);
	const char *log = e2e_slurp(b->ocd_log);
	E2E_CHECK(strstr(log, "Cortex-M4 r0p1") != NULL, "examine did not find a Cortex-M4 r0p1; OpenOCD log:\n%s",
	          log);
}

static void board_down(struct board *b)
{
	ocd_stop(b);
	const char *r = ctl(b, "quit");
	E2E_CHECK(strcmp(r, "ok quit") == 0, "quit: `%s`", r);
	int st = e2e_stop(b->sim);
	E2E_CHECK(st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0, "bench-sim did not exit 0 after quit (status %d)",
	          st);
	close(b->ctl);
}

/* Flash the test firmware with `program ... verify` and halt at its first instruction. */
static void program_firmware(struct board *b)
{
	const char *r =
	    e2e_tcl(b->tcl, "reset halt; if {[catch {program %s/marker_loop.elf verify} e]} {set e} else {set ok OK}",
	            b->fw_dir);
	E2E_CHECK(strcmp(r, "OK") == 0, "program marker_loop.elf verify: `%s`; OpenOCD log:\n%s", r,
	          e2e_slurp(b->ocd_log));
	E2E_CHECK(strstr(e2e_slurp(b->ocd_log), "Verified OK") != NULL, "program: no `Verified OK` in the log");
	e2e_tcl(b->tcl, "reset halt");
	expect_halted_at(b, FW_START, "reset halt after program");
}

static int test_tcl(const char *sim_bin, const char *fw_dir, bool use_unix)
{
	struct board b;
	board_up(&b, sim_bin, fw_dir, use_unix, true);
	e2e_tcl(b.tcl, "reset halt");
	expect_halted_at(&b, FW_START, "reset halt");

	/* Run to the first BKPT, read CYCCNT; a plain resume continues past the BKPT (OpenOCD's
	 * armv7m_maybe_skip_bkpt_inst) to the second one. */
	e2e_tcl(b.tcl, "resume");
	expect_halted_at(&b, FW_MARKER_BEGIN, "run to bkpt #1");
	uint32_t c1 = read_word(&b, DWT_CYCCNT);
	e2e_tcl(b.tcl, "resume");
	expect_halted_at(&b, FW_MARKER_END, "resume past bkpt #1");
	uint32_t c2 = read_word(&b, DWT_CYCCNT);
	E2E_CHECK(c2 - c1 == FW_NNOPS, "CYCCNT difference %u between the markers, wanted %u", c2 - c1, FW_NNOPS);
	/* OpenOCD reads and clears DFSR at each halt (cortex_m_examine_debug_reason): its verdict is in the log. */
	E2E_CHECK(strstr(e2e_slurp(b.ocd_log), "halted due to breakpoint") != NULL, "no breakpoint halt in the log");

	/* A hardware breakpoint: resume past bkpt #2, halt on bp_here with r4 counted once. */
	const char *r = e2e_tcl(b.tcl, "bp 0x%08x 2 hw", FW_BP_HERE);
	E2E_CHECK(strstr(r, "breakpoint set at 0x08000124") != NULL, "bp: `%s`", r);
	e2e_tcl(b.tcl, "resume");
	expect_halted_at(&b, FW_BP_HERE, "hardware breakpoint");
	E2E_CHECK(reg(&b, "r4") == 1, "r4 %u at bp_here, wanted 1", reg(&b, "r4"));
	e2e_tcl(b.tcl, "rbp 0x%08x", FW_BP_HERE);

	/* reset run: the firmware starts over and halts at bkpt #1 with r4 = 0. OpenOCD lets the core
	 * run between clearing C_HALT and writing AIRCR (cortex_m_assert_reset()); parked at `hang`
	 * it cannot reach a BKPT there and carry C_HALT (which a system reset keeps) into the reset.
	 * (`resume ADDR`, not `reg pc`: OpenOCD writes cached registers back only on resume.) */
	e2e_tcl(b.tcl, "resume 0x%08x", FW_HANG);
	e2e_tcl(b.tcl, "reset run");
	expect_halted_at(&b, FW_MARKER_BEGIN, "reset run to bkpt #1");
	E2E_CHECK(reg(&b, "r4") == 0, "r4 %u after reset run, wanted 0", reg(&b, "r4"));

	/* Step (OpenOCD `step`, DHCSR.C_STEP): the NOP at bp_here, then the branch back to loop. */
	e2e_tcl(b.tcl, "reg pc 0x%08x", FW_BP_HERE);
	e2e_tcl(b.tcl, "step");
	expect_halted_at(&b, FW_BP_HERE + 2, "step over nop");
	e2e_tcl(b.tcl, "step");
	expect_halted_at(&b, FW_MARKER_BEGIN, "step over b loop");

	uint64_t halts = ctl_stat(&b, "halts");
	uint64_t trans = ctl_stat(&b, "dap_transactions");
	E2E_CHECK(halts >= 6 && trans > 1000, "stats: halts=%llu dap_transactions=%llu", (unsigned long long)halts,
	          (unsigned long long)trans);
	board_down(&b);
	printf("ok: examine, reset halt, bkpt, CYCCNT=%u, resume, hw bp, step, reset run%s\n", c2 - c1,
	       use_unix ? " (Unix socket)" : "");
	return 0;
}

static int test_gdb(const char *sim_bin, const char *fw_dir)
{
	struct board b;
	board_up(&b, sim_bin, fw_dir, true, false);
	e2e_gdb_marker_loop(b.gdb_port, fw_dir, 30000);
	board_down(&b);
	printf("ok: gdb load, break, continue x3, info registers\n");
	return 0;
}

/* Flash programming as on a board: `program ... verify` through the stm32f2x driver (its loader
 * runs on the core from the work area and feeds the FLASH controller), then the image runs; an
 * image larger than the flash fails with a message and the board keeps working. */
static int test_program(const char *sim_bin, const char *fw_dir)
{
	struct board b;
	board_up(&b, sim_bin, fw_dir, true, false);
	program_firmware(&b);
	e2e_tcl(b.tcl, "resume");
	expect_halted_at(&b, FW_MARKER_BEGIN, "run the programmed image to bkpt #1");
	uint32_t c1 = read_word(&b, DWT_CYCCNT);
	e2e_tcl(b.tcl, "resume");
	expect_halted_at(&b, FW_MARKER_END, "resume to bkpt #2");
	uint32_t c2 = read_word(&b, DWT_CYCCNT);
	E2E_CHECK(c2 - c1 == FW_NNOPS, "CYCCNT difference %u between the markers, wanted %u", c2 - c1, FW_NNOPS);

	/* OpenOCD 0.12 programs the part of an image that fits and only warns about the rest
	 * (flash_write_unlock_verify(): "no flash bank found"). `verify` would run OpenOCD's CRC
	 * loader over the missing part, fault, and wait out its 20 s timeout as on silicon, so the
	 * test reads past the end of flash directly: an AHB error (sticky), then the board goes on. */
	const char *r = e2e_tcl(b.tcl, "reset halt; catch {program %s/too_big.elf}", fw_dir);
	E2E_CHECK(strcmp(r, "0") == 0, "program too_big.elf: `%s` (OpenOCD 0.12 only warns)", r);
	E2E_CHECK(strstr(e2e_slurp(b.ocd_log), "no flash bank found for address 0x08100000") != NULL,
	          "no message about the part past the end of flash");
	E2E_CHECK(read_word(&b, 0x080FFFFCu) == 0xA5A5A5A5u, "the part inside flash was not programmed");
	r = e2e_tcl(b.tcl, "catch {read_memory 0x08100000 32 1}");
	E2E_CHECK(strcmp(r, "1") == 0, "a read past the end of flash did not fail: `%s`", r);
	program_firmware(&b);
	e2e_tcl(b.tcl, "resume");
	expect_halted_at(&b, FW_MARKER_BEGIN, "run after the failed program");
	board_down(&b);
	printf("ok: program + verify, run, CYCCNT=%u, image past the end of flash, reprogram\n", c2 - c1);
	return 0;
}

/* Raw remote_bitbang bytes to the simulator: returns the reply bytes read (until the socket is
 * closed by the peer or 500 ms pass). */
static size_t raw_bitbang(uint16_t port, const char *bytes, size_t n, bool close_now, char *reply, size_t len)
{
	int fd = e2e_connect(port, 2000);
	E2E_CHECK(fd >= 0, "cannot connect to the JTAG port %u", port);
	E2E_CHECK(send(fd, bytes, n, MSG_NOSIGNAL) == (ssize_t)n, "raw send: %s", strerror(errno));
	size_t got = 0;
	if (!close_now) {
		double deadline = e2e_now() + 0.5;
		while (got < len && e2e_now() < deadline) {
			struct pollfd pfd = {.fd = fd, .events = POLLIN};
			if (poll(&pfd, 1, 100) <= 0)
				continue;
			ssize_t r = recv(fd, reply + got, len - got, 0);
			if (r <= 0)
				break;
			got += (size_t)r;
		}
	}
	close(fd);
	return got;
}

static int test_badinput(const char *sim_bin, const char *fw_dir)
{
	struct board b = {.sim_bin = sim_bin, .fw_dir = fw_dir, .tcl = -1, .ctl = -1};
	snprintf(fw_elf, sizeof(fw_elf), "%s/marker_loop.elf", fw_dir);
	sim_start(&b, false, fw_elf);

	/* 1. A malformed stream: the reads before the bad byte are answered, then the client dropped. */
	char reply[64];
	size_t got = raw_bitbang(b.jtag_port, "0R4R0X4R", 8, false, reply, sizeof(reply));
	E2E_CHECK(got == 2 && memcmp(reply, "00", 2) == 0, "malformed stream: %zu reply bytes, wanted `00`", got);
	/* 2. A client that vanishes in the middle of a DR scan (TLR, RTI, Select-DR, Capture, Shift...). */
	const char mid[] = "2626262626"
	                   "04"
	                   "26"
	                   "04"
	                   "04"
	                   "1R5"
	                   "1R5"
	                   "1R5";
	(void)raw_bitbang(b.jtag_port, mid, sizeof(mid) - 1, true, reply, sizeof(reply));
	usleep(100000);
	const char *log = e2e_slurp(b.sim_log);
	E2E_CHECK(strstr(log, "sent byte 0x58, not remote_bitbang protocol") != NULL,
	          "no clear message for the malformed stream; bench-sim log:\n%s", log);
	E2E_CHECK(strstr(log, "disconnected in the middle of a scan (TAP in Shift-DR)") != NULL,
	          "no clear message for the client gone mid-scan; bench-sim log:\n%s", log);

	/* SRST ('s' then 'r'): a system reset; the firmware, run without a debugger, starts over and
	 * its BKPT escalates to HardFault again: one more exception. */
	uint64_t exc = ctl_stat(&b, "exceptions");
	(void)raw_bitbang(b.jtag_port, "sr", 2, false, reply, sizeof(reply));
	E2E_CHECK(ctl_stat(&b, "exceptions") == exc + 1, "SRST pulse: exceptions %llu -> %llu, wanted one more",
	          (unsigned long long)exc, (unsigned long long)ctl_stat(&b, "exceptions"));

	/* 3. OpenOCD still gets a working board; an OpenOCD killed mid-operation, then another. */
	ocd_start(&b, false);
	E2E_CHECK(strstr(e2e_slurp(b.ocd_log), "Cortex-M4 r0p1") != NULL, "examine failed after bad clients");
	e2e_tcl(b.tcl, "halt");
	(void)kill(-b.ocd, SIGKILL);
	(void)e2e_stop(b.ocd);
	close(b.tcl);
	ocd_start(&b, false);
	E2E_CHECK(strstr(e2e_slurp(b.ocd_log), "Cortex-M4 r0p1") != NULL, "examine failed after a killed OpenOCD");

	/* 4. A debug write to unmapped memory: OpenOCD reports the error, the next access works. */
	e2e_tcl(b.tcl, "halt");
	const char *r = e2e_tcl(b.tcl, "catch {write_memory 0x30000000 32 {0x12345678}}");
	E2E_CHECK(strcmp(r, "1") == 0, "write to unmapped 0x30000000 did not fail: `%s`", r);
	E2E_CHECK(strstr(e2e_slurp(b.ocd_log), "JTAG-DP STICKY ERROR") != NULL, "no sticky error in the OpenOCD log");
	e2e_tcl(b.tcl, "write_memory 0x20000100 32 {0xCAFEF00D}");
	E2E_CHECK(read_word(&b, 0x20000100u) == 0xCAFEF00Du, "SRAM access after the sticky error failed");
	E2E_CHECK(ctl_stat(&b, "sticky_errors") >= 1, "stats: no sticky error counted");

	/* WAIT acks (injected through the control port): OpenOCD retries and reads the right data. */
	E2E_CHECK(strcmp(ctl(&b, "dap-wait 3"), "ok dap-wait 3") == 0, "dap-wait refused");
	E2E_CHECK(read_word(&b, 0x20000100u) == 0xCAFEF00Du, "read after WAIT acks returned wrong data");
	E2E_CHECK(strstr(e2e_slurp(b.ocd_log), "DAP transaction stalled (WAIT)") != NULL, "OpenOCD saw no WAIT");

	/* The core still runs the firmware to its first marker. */
	e2e_tcl(b.tcl, "reset halt; resume");
	expect_halted_at(&b, FW_MARKER_BEGIN, "run after the bad input");

	board_down(&b);
	printf("ok: malformed stream, client gone mid-scan, SRST, killed OpenOCD, unmapped write, WAIT acks\n");
	return 0;
}

/* Runs bench-sim with argv (NULL-terminated, argv[0] ignored) to completion; returns its exit
 * status and its stderr in a static buffer. */
static int run_sim(const char *sim_bin, char **argv, const char **err_out)
{
	char log[300];
	snprintf(log, sizeof(log), "%s/cli.log", e2e_dir);
	argv[0] = (char *)sim_bin;
	pid_t pid = e2e_spawn(argv, NULL, log);
	int st = e2e_wait(pid, 5000);
	*err_out = e2e_slurp(log);
	return st >= 0 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The command line, the control interface, one client at a time, clean shutdown on SIGTERM. */
static int test_cli(const char *sim_bin, const char *fw_dir)
{
	static const struct {
		const char *args[6];
		int status;
		const char *message; /* in stdout+stderr */
	} cases[] = {
	    {{"--help"}, 0, "--jtag-socket P"},
	    {{"--bogus"}, 2, "unknown option `--bogus`"},
	    {{"--jtag-port", "70000"}, 2, "bad port `70000`"},
	    {{"--wait-states", "16"}, 2, "bad --wait-states `16`"},
	    {{"--standalone"}, 2, "--standalone needs --elf FILE"},
	    {{"--elf", "/nonexistent.elf"}, 1, "loading /nonexistent.elf"},
	    {{"extra"}, 2, "unexpected argument `extra`"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *argv[8] = {NULL};
		for (int k = 0; k < 6 && cases[i].args[k]; k++)
			argv[k + 1] = (char *)cases[i].args[k];
		const char *err = NULL;
		int st = run_sim(sim_bin, argv, &err);
		E2E_CHECK(st == cases[i].status, "bench-sim %s: exit %d, wanted %d:\n%s", cases[i].args[0], st,
		          cases[i].status, err);
		E2E_CHECK(strstr(err, cases[i].message) != NULL, "bench-sim %s: no `%s` in:\n%s", cases[i].args[0],
		          cases[i].message, err);
	}

	/* --standalone: the built-in debugger prints each marker halt; marker_loop.elf never reaches
	 * BKPT #4, so --max-cycles ends it with exit 1. 100 NOPs between the markers. */
	char elf[400];
	snprintf(elf, sizeof(elf), "%s/marker_loop.elf", fw_dir);
	char *sa[] = {NULL, "--standalone", "--elf", elf, "--max-cycles", "2000", "--quiet", NULL};
	const char *out = NULL;
	int sst = run_sim(sim_bin, sa, &out);
	const char *p1 = strstr(out, "halt pc=0x08000056 imm=1 cyccnt=");
	const char *p2 = p1 ? strstr(p1, "halt pc=0x08000120 imm=2 cyccnt=") : NULL;
	E2E_CHECK(sst == 1 && p1 && p2, "--standalone --max-cycles 2000: exit %d:\n%s", sst, out);
	unsigned long m1 = strtoul(p1 + 32, NULL, 10), m2 = strtoul(p2 + 32, NULL, 10);
	E2E_CHECK(m2 - m1 == FW_NNOPS, "--standalone: %lu cycles between the markers, wanted %u", m2 - m1, FW_NNOPS);

	struct board b = {.sim_bin = sim_bin, .fw_dir = fw_dir, .tcl = -1, .ctl = -1};
	sim_start(&b, true, NULL);
	/* A port that is taken: exit 1 with a message naming it. */
	char port[16];
	snprintf(port, sizeof(port), "%u", b.jtag_port);
	char *argv[] = {NULL, "--jtag-port", port, NULL};
	const char *err = NULL;
	E2E_CHECK(run_sim(sim_bin, argv, &err) == 1 && strstr(err, "pick another --jtag-port") != NULL,
	          "a taken JTAG port: %s", err);

	E2E_CHECK(strncmp(ctl(&b, "stats"), "instructions=", 13) == 0, "stats reply");
	E2E_CHECK(strcmp(ctl(&b, "wait-states 2"), "ok wait-states 2") == 0, "wait-states");
	E2E_CHECK(strcmp(ctl(&b, "trace off"), "ok trace off") == 0, "trace off");
	E2E_CHECK(strncmp(ctl(&b, "wait-states x"), "error unknown command `wait-states x`", 37) == 0, "bad arg");
	E2E_CHECK(strncmp(ctl(&b, "frobnicate"), "error unknown command `frobnicate`", 34) == 0, "bad command");
	/* What the board has at an address (bench names a fault's BFAR with it, docs/sim.md). */
	E2E_CHECK(strcmp(ctl(&b, "where 0x40023000"), "where 0x40023000 CRC (0x40023000, modelled)") == 0, "where CRC");
	E2E_CHECK(strcmp(ctl(&b, "where 0x40023400"),
	                 "where 0x40023400 a reserved hole in the peripheral map (RM0090 table 1)") == 0,
	          "where hole");

	/* One JTAG client at a time: the second is refused, the first keeps working. */
	int c1 = e2e_connect(b.jtag_port, 2000);
	E2E_CHECK(c1 >= 0, "connect");
	usleep(50000);
	int c2 = e2e_connect(b.jtag_port, 2000);
	E2E_CHECK(c2 >= 0, "connect");
	char buf[8];
	struct pollfd pfd = {.fd = c2, .events = POLLIN};
	E2E_CHECK(poll(&pfd, 1, 2000) == 1 && recv(c2, buf, sizeof(buf), 0) <= 0, "second client not closed");
	close(c2);
	E2E_CHECK(send(c1, "2626262626040R", 14, MSG_NOSIGNAL) == 14, "send");
	pfd.fd = c1;
	E2E_CHECK(poll(&pfd, 1, 2000) == 1 && recv(c1, buf, 1, 0) == 1 && buf[0] == '0', "first client not served");
	close(c1);
	E2E_CHECK(strstr(e2e_slurp(b.sim_log), "second JTAG client connected while one is active; refused"),
	          "no message for the refused client");

	/* SIGTERM: exit 0, the socket file removed. */
	int st = e2e_stop(b.sim);
	E2E_CHECK(st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0, "SIGTERM: status %d", st);
	struct stat sb;
	E2E_CHECK(stat(b.socket_path, &sb) != 0, "the socket file %s is still there", b.socket_path);
	close(b.ctl);
	printf("ok: usage errors, standalone, taken port, control commands, one client at a time, SIGTERM\n");
	return 0;
}

/* Marker halts per second over one transport: `resume; wait_halt; read CYCCNT` alternating
 * between the two markers, each END minus its BEGIN checked to be the 100 NOPs. cpu_ms (when not
 * NULL) gets the CPU milliseconds per halt of OpenOCD [0] and bench-sim [1]: what bounds the rate
 * (docs/sim.md). */
static double marker_rate(const char *sim_bin, const char *fw_dir, bool use_unix, int halts, double *rt_per_halt,
                          double *noop, double *rd, double *cpu_ms)
{
	struct board b;
	board_up(&b, sim_bin, fw_dir, use_unix, true);
	e2e_tcl(b.tcl, "reset halt");
	const int rounds = 2000;
	double t0 = e2e_now();
	for (int i = 0; noop && i < rounds; i++)
		e2e_tcl(b.tcl, "expr 0");
	if (noop)
		*noop = rounds / (e2e_now() - t0);
	t0 = e2e_now();
	for (int i = 0; rd && i < rounds; i++)
		(void)read_word(&b, DWT_CYCCNT);
	if (rd)
		*rd = rounds / (e2e_now() - t0);
	e2e_tcl(b.tcl, "resume");
	expect_halted_at(&b, FW_MARKER_BEGIN, "first marker");
	uint32_t begin = read_word(&b, DWT_CYCCNT);
	uint64_t rt0 = ctl_stat(&b, "bitbang_round_trips");
	double ocd0 = e2e_cpu_seconds(b.ocd), sim0 = e2e_cpu_seconds(b.sim);
	t0 = e2e_now();
	for (int i = 0; i < halts; i++) {
		const char *r = e2e_tcl(b.tcl, "resume; wait_halt 1000; read_memory 0x%08x 32 1", DWT_CYCCNT);
		uint32_t c = (uint32_t)strtoul(r, NULL, 0);
		if (i % 2 == 0)
			E2E_CHECK(c - begin == FW_NNOPS, "marker pair %d: %u cycles, wanted %u", i / 2, c - begin,
			          FW_NNOPS);
		begin = c;
	}
	double hz = halts / (e2e_now() - t0);
	if (cpu_ms) {
		cpu_ms[0] = (e2e_cpu_seconds(b.ocd) - ocd0) * 1000.0 / halts;
		cpu_ms[1] = (e2e_cpu_seconds(b.sim) - sim0) * 1000.0 / halts;
	}
	*rt_per_halt = (double)(ctl_stat(&b, "bitbang_round_trips") - rt0) / halts;
	board_down(&b);
	return hz;
}

/* perf/bench_tcl.sh: prints `figure:` lines (perf/run.sh format). The baseline is OpenOCD's own
 * TCL round trip for `expr 0` (no target involved), measured in the same run. */
static int perf(const char *sim_bin, const char *fw_dir, int halts)
{
	double noop = 0, rd = 0, rt_unix = 0, rt_tcp = 0, cpu_ms[2] = {0, 0};
	double unix_hz = marker_rate(sim_bin, fw_dir, true, halts, &rt_unix, &noop, &rd, cpu_ms);
	double tcp_hz = marker_rate(sim_bin, fw_dir, false, halts, &rt_tcp, NULL, NULL, NULL);
	printf("figure: tcl_noop_round_trips value=%.0f unit=1/s baseline=%.0f ratio=1.00 target=(the baseline: "
	       "OpenOCD answering `expr 0`)\n",
	       noop, noop);
	printf("figure: tcl_read_memory_32 value=%.0f unit=1/s baseline=%.0f ratio=%.3f target=(none; one MEM-AP read "
	       "of DWT_CYCCNT over the Unix socket)\n",
	       rd, noop, rd / noop);
	printf("figure: marker_halts value=%.1f unit=1/s baseline=%.0f ratio=%.4f target=>=200/s (Unix socket, 53 "
	       "registers with FPU, %.0f bitbang round trips/halt)\n",
	       unix_hz, noop, unix_hz / noop, rt_unix);
	printf("figure: marker_halts_tcp value=%.1f unit=1/s baseline=%.0f ratio=%.4f target=(none; the same over TCP, "
	       "%.0f round trips/halt)\n",
	       tcp_hz, noop, tcp_hz / noop, rt_tcp);
	printf("figure: marker_halt_cpu_openocd value=%.2f unit=ms target=(none; OpenOCD's CPU per marker halt, Unix "
	       "socket: one non-blocking read() per TDO sample in remote_bitbang_sample())\n",
	       cpu_ms[0]);
	printf("figure: marker_halt_cpu_sim value=%.2f unit=ms target=(none; bench-sim's CPU per marker halt, Unix "
	       "socket)\n",
	       cpu_ms[1]);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 4) {
		fprintf(stderr, "usage: %s tcl|unix|program|gdb|badinput|cli|perf BENCH_SIM FIRMWARE_DIR [HALTS]\n",
		        argv[0]);
		return 2;
	}
	e2e_init(strcmp(argv[1], "perf") == 0 || strcmp(argv[1], "program") == 0 ? 200 : 90);
	setvbuf(stdout, NULL, _IOLBF, 0);
	int rc;
	if (strcmp(argv[1], "tcl") == 0)
		rc = test_tcl(argv[2], argv[3], false);
	else if (strcmp(argv[1], "unix") == 0)
		rc = test_tcl(argv[2], argv[3], true);
	else if (strcmp(argv[1], "program") == 0)
		rc = test_program(argv[2], argv[3]);
	else if (strcmp(argv[1], "gdb") == 0)
		rc = test_gdb(argv[2], argv[3]);
	else if (strcmp(argv[1], "cli") == 0)
		rc = test_cli(argv[2], argv[3]);
	else if (strcmp(argv[1], "badinput") == 0)
		rc = test_badinput(argv[2], argv[3]);
	else if (strcmp(argv[1], "perf") == 0)
		rc = perf(argv[2], argv[3], argc > 4 ? atoi(argv[4]) : 200);
	else
		rc = 2;
	/* Passed: the work directory is not needed any more. */
	if (rc == 0) {
		char cmd[400];
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", e2e_dir);
		if (system(cmd) != 0)
			fprintf(stderr, "could not remove %s\n", e2e_dir);
	}
	return rc;
}
