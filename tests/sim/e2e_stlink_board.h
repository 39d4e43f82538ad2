/* The virtual board for tests/sim/e2e_stlink.c and e2e_stlink_raw.c: bench-sim with its control
 * port, stock OpenOCD over one of the paths (dap, hla, jtag; e2e_stlink.c's comment says how each is
 * started), and the TCL and control-port helpers the tests share. Header-only, as e2e_util.h: each
 * test is one executable, and not every one uses every helper. */
#ifndef TESTS_SIM_E2E_STLINK_BOARD_H
#define TESTS_SIM_E2E_STLINK_BOARD_H

#include "e2e_util.h"

#pragma GCC diagnostic ignored "-Wunused-function"

#define FW_START        0x08000040u
#define FW_MARKER_BEGIN 0x08000056u
#define FW_MARKER_END   0x08000120u
#define FW_BP_HERE      0x08000124u
#define FW_HANG         0x0800012Au
#define FW_WP_STORE     0x08000138u
#define FW_WP_AFTER     0x0800013Cu
#define FW_WP_ADDR      0x20000200u
#define FW_NNOPS        100u
#define DWT_CYCCNT      0xE0001004u
#define DWT_FUNCTION0   0xE0001028u
#define DBGMCU_CR       0xE0042004u
#define DBGMCU_APB1_FZ  0xE0042008u
#define RCC_CR          0x40023800u
#define RCC_CFGR        0x40023808u
#define FLASH_ACR       0x40023C00u

enum path { PATH_DAP, PATH_HLA, PATH_JTAG };
static const char *const path_names[] = {"dap", "hla", "jtag"};

struct board {
	enum path path;
	const char *sim_bin;
	const char *fw_dir;
	pid_t sim, ocd;
	uint16_t port, ctl_port, tcl_port, gdb_port; /* port: the ST-LINK's, or the JTAG port */
	char sim_log[300], ocd_log[300];
	int tcl, ctl;
	bool discovery_cfg; /* dap through boards/stm32f4-discovery/openocd.cfg (reset_config srst_only) */
	bool verbose;       /* bench-sim without --quiet: its informational lines too */
};

static char fw_elf[400];

static void sim_start(struct board *b, const char *elf)
{
	snprintf(b->sim_log, sizeof(b->sim_log), "%s/bench-sim.log", e2e_dir);
	bool st = b->path != PATH_JTAG;
	char *argv[12] = {(char *)b->sim_bin, st ? "--stlink-port" : "--jtag-port", "0", "--ctl-port", "0", "--quiet"};
	int n = b->verbose ? 5 : 6;
	if (elf) {
		argv[n++] = "--elf";
		argv[n++] = (char *)elf;
	}
	argv[n] = NULL;
	int out = -1;
	b->sim = e2e_spawn(argv, &out, b->sim_log);
	char line[128], want[32];
	unsigned port = 0;
	snprintf(want, sizeof(want), "%s %%u", st ? "stlink-port" : "jtag-port");
	E2E_CHECK(e2e_read_line(out, line, sizeof(line), 10000) == 0 && sscanf(line, want, &port) == 1,
	          "bench-sim did not print `%s N` first (got `%s`); log:\n%s", st ? "stlink-port" : "jtag-port", line,
	          e2e_slurp(b->sim_log));
	b->port = (uint16_t)port;
	E2E_CHECK(e2e_read_line(out, line, sizeof(line), 10000) == 0 && sscanf(line, "ctl-port %u", &port) == 1,
	          "bench-sim did not print `ctl-port N` second (got `%s`)", line);
	b->ctl_port = (uint16_t)port;
	close(out);
	b->ctl = e2e_connect(b->ctl_port, 5000);
	E2E_CHECK(b->ctl >= 0, "cannot connect to the control port %u", b->ctl_port);
}

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
	snprintf(pat, sizeof(pat), " %s=", key);
	const char *p = strstr(s, pat);
	E2E_CHECK(p != NULL, "stats lacks %s: %s", key, s);
	return strtoull(p + strlen(pat), NULL, 10);
}

/* The stock invocations of the issue, one line added to each. */
static void ocd_start(struct board *b)
{
	char port[64], set_tcl[32], set_gdb[32];
	snprintf(b->ocd_log, sizeof(b->ocd_log), "%s/openocd.log", e2e_dir);
	b->tcl_port = e2e_free_port();
	b->gdb_port = e2e_free_port();
	snprintf(set_tcl, sizeof(set_tcl), "tcl_port %u", b->tcl_port);
	snprintf(set_gdb, sizeof(set_gdb), "gdb_port %u", b->gdb_port);
	char *argv[20] = {"openocd"};
	int n = 1;
#define ARG(x) (argv[n++] = (char *)(x))
	if (b->path == PATH_DAP && b->discovery_cfg) {
		/* A real Discovery's configuration, unchanged: its default dapdirect_swd and its
		 * `reset_config srst_only` (stm32f4x.cfg's 100 ms srst delay included); the backend line
		 * still comes before init. */
		snprintf(port, sizeof(port), "st-link backend tcp %u", b->port);
		ARG("-f"), ARG(E2E_SOURCE_DIR "/boards/stm32f4-discovery/openocd.cfg"), ARG("-c"), ARG(port);
	} else if (b->path == PATH_DAP) {
		snprintf(port, sizeof(port), "st-link backend tcp %u", b->port);
		ARG("-f"), ARG("interface/stlink-dap.cfg"), ARG("-c"), ARG(port), ARG("-c"),
		    ARG("transport select dapdirect_swd"), ARG("-f"), ARG("target/stm32f4x.cfg");
	} else if (b->path == PATH_HLA) {
		snprintf(port, sizeof(port), "hla_stlink_backend tcp %u", b->port);
		ARG("-f"), ARG("board/stm32f4discovery.cfg"), ARG("-c"), ARG(port);
	} else {
		snprintf(port, sizeof(port), "set SIM_JTAG_PORT %u", b->port);
		ARG("-c"), ARG(port), ARG("-f"), ARG(E2E_SOURCE_DIR "/boards/sim-stm32f4/openocd.cfg");
	}
	ARG("-c"), ARG(set_tcl), ARG("-c"), ARG(set_gdb), ARG("-c"), ARG("telnet_port disabled");
#undef ARG
	argv[n] = NULL;
	b->ocd = e2e_spawn(argv, NULL, b->ocd_log);
	b->tcl = e2e_connect(b->tcl_port, 10000);
	E2E_CHECK(b->tcl >= 0, "OpenOCD's TCL port %u never answered; log:\n%s", b->tcl_port, e2e_slurp(b->ocd_log));
	(void)e2e_tcl(b->tcl, "expr 0"); /* the first reply comes after init (examine) */
}

static void ocd_stop(struct board *b)
{
	if (b->tcl >= 0)
		close(b->tcl);
	b->tcl = -1;
	(void)e2e_stop(b->ocd);
	b->ocd = 0;
}

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
	E2E_CHECK(strcmp(r, "halted") == 0, "%s [%s]: target state `%s`, wanted halted", what, path_names[b->path], r);
	uint32_t got = reg(b, "pc");
	E2E_CHECK(got == pc, "%s [%s]: pc 0x%08x, wanted 0x%08x", what, path_names[b->path], got, pc);
}

static void board_up_cfg(struct board *b, enum path path, const char *sim_bin, const char *fw_dir, bool programmed,
                         bool discovery_cfg)
{
	*b = (struct board){
	    .path = path, .sim_bin = sim_bin, .fw_dir = fw_dir, .tcl = -1, .ctl = -1, .discovery_cfg = discovery_cfg};
	snprintf(fw_elf, sizeof(fw_elf), "%s/marker_loop.elf", fw_dir);
	sim_start(b, programmed ? fw_elf : NULL);
	ocd_start(b);
	const char *log = e2e_slurp(b->ocd_log);
	E2E_CHECK(strstr(log, "Cortex-M4 r0p1") != NULL, "examine did not find a Cortex-M4 r0p1; OpenOCD log:\n%s",
	          log);
	if (path == PATH_DAP)
		E2E_CHECK(strstr(log, "SWD DPIDR 0x2ba01477") != NULL, "no SW-DP DPIDR 0x2ba01477 in the log:\n%s",
		          log);
	if (path != PATH_JTAG)
		E2E_CHECK(strstr(log, "STLINK V3J7M3B5S1 (API v3) VID:PID 0483:374F") != NULL &&
		              strstr(log, "stlink-server API v3") != NULL,
		          "OpenOCD did not see an STLINK-V3 behind stlink-server API v3:\n%s", log);
}

static void board_up(struct board *b, enum path path, const char *sim_bin, const char *fw_dir, bool programmed)
{
	board_up_cfg(b, path, sim_bin, fw_dir, programmed, false);
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

static void program_firmware(struct board *b)
{
	const char *r =
	    e2e_tcl(b->tcl, "reset halt; if {[catch {program %s/marker_loop.elf verify} e]} {set e} else {set ok OK}",
	            b->fw_dir);
	E2E_CHECK(strcmp(r, "OK") == 0, "program marker_loop.elf verify [%s]: `%s`; OpenOCD log:\n%s",
	          path_names[b->path], r, e2e_slurp(b->ocd_log));
	E2E_CHECK(strstr(e2e_slurp(b->ocd_log), "Verified OK") != NULL, "program: no `Verified OK` in the log");
	e2e_tcl(b->tcl, "reset halt");
	expect_halted_at(b, FW_START, "reset halt after program");
}

/* bench-sim's stderr log has `what` (it writes its line after it answered). */
static const char *sim_log_has(struct board *b, const char *what)
{
	usleep(100000);
	const char *log = e2e_slurp(b->sim_log);
	E2E_CHECK(strstr(log, what) != NULL, "bench-sim log lacks `%s`:\n%s", what, log);
	return log;
}

#endif /* TESTS_SIM_E2E_STLINK_BOARD_H */
