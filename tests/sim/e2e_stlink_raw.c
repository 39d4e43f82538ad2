/* End-to-end tests of bench-sim's ST-LINK port with raw stlink-server clients: bad input
 * (badinput) and the command line (cli), then stock OpenOCD on the same bench-sim
 * (e2e_stlink_board.h). The board paths' own tests are in e2e_stlink.c.
 * Usage: e2e_stlink_raw badinput dap BENCH_SIM FIRMWARE_DIR
 *        e2e_stlink_raw cli dap BENCH_SIM FIRMWARE_DIR E2E_STLINK (its perf HALTS check) */
#include "e2e_stlink_board.h"

/* ---- raw stlink-server clients (bad input, command line) ------------------------------------- */

static void st_send(int fd, const void *buf, size_t n)
{
	E2E_CHECK(send(fd, buf, n, MSG_NOSIGNAL) == (ssize_t)n, "raw send: %s", strerror(errno));
}

/* Reads exactly n bytes within 2 s; returns how many came before the peer closed or time ran out. */
static size_t st_recv(int fd, uint8_t *buf, size_t n)
{
	size_t got = 0;
	double deadline = e2e_now() + 2.0;
	while (got < n && e2e_now() < deadline) {
		struct pollfd pfd = {.fd = fd, .events = POLLIN};
		if (poll(&pfd, 1, 100) <= 0)
			continue;
		ssize_t r = recv(fd, buf + got, n - got, 0);
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	return got;
}

static uint32_t le32(const uint8_t *b)
{
	return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

/* True when the server closed the connection (within 2 s). */
static bool st_closed(int fd)
{
	uint8_t c;
	return st_recv(fd, &c, 1) == 0;
}

/* GET_SERVER_VERSION then OPEN_DEV, as stlink_tcp_open() does; returns the connect id. */
static uint32_t st_open(int fd)
{
	uint8_t rep[16];
	const uint8_t ver[4] = {0x06, 0x01, 0, 0};
	st_send(fd, ver, sizeof(ver));
	E2E_CHECK(st_recv(fd, rep, 16) == 16 && le32(rep) == 3, "GET_SERVER_VERSION: no API 3 reply");
	const uint8_t open_dev[8] = {0x03, 0, 0, 0, 1, 0, 0, 0};
	st_send(fd, open_dev, sizeof(open_dev));
	E2E_CHECK(st_recv(fd, rep, 8) == 8 && le32(rep) == 1, "OPEN_DEV: status 0x%x", le32(rep));
	return le32(rep + 4);
}

/* SEND_USB_CMD reading `size` bytes: returns the TCP status, the data in out. */
static uint32_t st_usb_read(int fd, uint32_t cid, const uint8_t *cmd, size_t cmd_len, uint32_t size, uint8_t *out)
{
	uint8_t h[32] = {0x05}, rep[4 + 64];
	h[4] = (uint8_t)cid, h[5] = (uint8_t)(cid >> 8), h[6] = (uint8_t)(cid >> 16), h[7] = (uint8_t)(cid >> 24);
	memcpy(h + 8, cmd, cmd_len);
	h[24] = 1;
	h[28] = (uint8_t)size;
	st_send(fd, h, sizeof(h));
	E2E_CHECK(size <= 64 && st_recv(fd, rep, 4 + size) == 4 + size, "SEND_USB_CMD: short reply");
	memcpy(out, rep + 4, size);
	return le32(rep);
}

static int test_badinput(const char *sim_bin, const char *fw_dir)
{
	struct board b = {
	    .path = PATH_DAP, .sim_bin = sim_bin, .fw_dir = fw_dir, .tcl = -1, .ctl = -1, .verbose = true};
	snprintf(fw_elf, sizeof(fw_elf), "%s/marker_loop.elf", fw_dir);
	/* bench-sim runs with --quiet for the others; here its messages are the point, the
	 * informational ones included (a bad client must still be one line). */
	sim_start(&b, fw_elf);
	uint8_t rep[64];

	/* 1. Garbage: not a stlink-server request. Status CMD_NOT_AVAILABLE, then the client is dropped. */
	int fd = e2e_connect(b.port, 2000);
	st_send(fd, "hello\n", 6);
	E2E_CHECK(st_recv(fd, rep, 4) == 4 && le32(rep) == 0x1053, "garbage: no CMD_NOT_AVAILABLE status");
	E2E_CHECK(st_closed(fd), "garbage: the client was not dropped");
	close(fd);
	sim_log_has(&b, "ST-LINK client: not a stlink-server request (first byte 0x68 of 6 received); dropped");

	/* 2. A truncated request: half a SEND_USB_CMD header, then silence. bench-sim keeps serving
	 * (the control port answers, a second ST-LINK client is refused), then the client leaves. */
	fd = e2e_connect(b.port, 2000);
	const uint8_t half[12] = {0x05, 0, 0, 0, 0x1D, 0x5B, 0, 0, 0xF2, 0x07, 0, 0};
	st_send(fd, half, sizeof(half));
	usleep(50000);
	E2E_CHECK(strncmp(ctl(&b, "stats"), "instructions=", 13) == 0, "control port dead with a truncated request");
	int fd2 = e2e_connect(b.port, 2000);
	E2E_CHECK(fd2 >= 0 && st_closed(fd2), "a second ST-LINK client was not refused");
	close(fd2);
	sim_log_has(&b, "a second ST-LINK client connected while one is active; refused");
	close(fd);
	sim_log_has(&b,
	            "ST-LINK client disconnected in the middle of a command (12 bytes of it received, command 0x05)");

	/* 3. A command larger than any ST-LINK accepts: a 100000-byte write, then a 20000-byte read. */
	fd = e2e_connect(b.port, 2000);
	uint32_t cid = st_open(fd);
	uint8_t big[32] = {0x05, 0, 0, 0, (uint8_t)cid, (uint8_t)(cid >> 8), 0, 0, 0xF2, 0x08};
	big[24] = 0, big[28] = 0xA0, big[29] = 0x86, big[30] = 0x01; /* 100000 */
	st_send(fd, big, sizeof(big));
	E2E_CHECK(st_recv(fd, rep, 4) == 4 && le32(rep) == 0x1053 && st_closed(fd), "oversize write: not refused");
	close(fd);
	sim_log_has(&b, "a write larger than an ST-LINK's 6144-byte buffer");
	fd = e2e_connect(b.port, 2000);
	cid = st_open(fd);
	big[4] = (uint8_t)cid, big[5] = (uint8_t)(cid >> 8), big[9] = 0x07, big[24] = 1;
	big[28] = 0x20, big[29] = 0x4E, big[30] = 0; /* 20000 */
	st_send(fd, big, sizeof(big));
	E2E_CHECK(st_recv(fd, rep, 4) == 4 && le32(rep) == 0x1053 && st_closed(fd), "oversize read: not refused");
	close(fd);
	sim_log_has(&b, "a read larger than any ST-LINK reply");

	/* 4. An unknown ST-LINK command: answered 0x81 as the probe does; the client stays. */
	fd = e2e_connect(b.port, 2000);
	cid = st_open(fd);
	const uint8_t unknown[2] = {0xF2, 0x99};
	E2E_CHECK(st_usb_read(fd, cid, unknown, 2, 2, rep) == 1 && rep[0] == 0x81, "unknown F2 99: status %02x",
	          rep[0]);
	sim_log_has(&b, "ST-LINK client sent command f2 99 00 00, not one this STLINK-V3 knows; answered 0x81");
	const uint8_t mode[1] = {0xF5};
	E2E_CHECK(st_usb_read(fd, cid, mode, 1, 2, rep) == 1 && rep[0] == 1, "GET_CURRENT_MODE after: %02x", rep[0]);
	/* A USB command with the wrong connect id: BAD_PARAMETER, still with the bytes asked for. */
	E2E_CHECK(st_usb_read(fd, cid + 1, mode, 1, 2, rep) == 0x1002, "wrong connect id: not BAD_PARAMETER");

	/* 5. A client gone in the middle of a write's data phase. The NRST pulse before it resets the
	 * chip: the firmware, run without a debugger, starts over and its BKPT escalates to HardFault
	 * again, one more exception. */
	uint64_t exc = ctl_stat(&b, "exceptions");
	const uint8_t nrst[3] = {0xF2, 0x3C, 0x02};
	E2E_CHECK(st_usb_read(fd, cid, nrst, 3, 2, rep) == 1 && rep[0] == 0x80, "DRIVE_NRST pulse: %02x", rep[0]);
	usleep(50000);
	E2E_CHECK(ctl_stat(&b, "exceptions") == exc + 1, "NRST pulse: exceptions %llu -> %llu, wanted one more",
	          (unsigned long long)exc, (unsigned long long)ctl_stat(&b, "exceptions"));
	uint8_t wr[32 + 8] = {0x05, 0, 0, 0, (uint8_t)cid, (uint8_t)(cid >> 8), 0, 0, 0xF2, 0x08, 0, 0x01, 0, 0x20, 64};
	wr[24] = 0, wr[28] = 64;
	st_send(fd, wr, sizeof(wr)); /* 8 of the 64 data bytes */
	close(fd);
	sim_log_has(&b, "ST-LINK client disconnected in the middle of a command (40 bytes of it received");

	/* 6. A client that floods requests and never reads a reply (each GET_SERVER_VERSION answer is
	 * 16 bytes: 64 MiB of answers outgrow any socket buffer). bench-sim must not block in send():
	 * it drops the client with one line after BITBANG_SEND_DEADLINE_MS (before, send() blocked: 5 s a
	 * call, without end for a client reading a byte now and then), the control port answers and the
	 * next client is served. */
	uint64_t dropped_clients = ctl_stat(&b, "stlink_clients");
	fd = e2e_connect(b.port, 2000);
	int small = 4096;
	E2E_CHECK(setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, sizeof(small)) == 0, "SO_RCVBUF: %s", strerror(errno));
	static uint8_t flood[4 * 65536];
	for (size_t i = 0; i < sizeof(flood); i += 4)
		flood[i] = 0x06, flood[i + 1] = 0x01;
	size_t sent = 0;
	double flood_end = e2e_now() + 20.0;
	bool gone = false;
	while (!gone && e2e_now() < flood_end && sent < (size_t)64 << 22) {
		struct pollfd pfd = {.fd = fd, .events = POLLOUT};
		if (poll(&pfd, 1, 100) <= 0)
			continue;
		ssize_t w = send(fd, flood, sizeof(flood), MSG_NOSIGNAL | MSG_DONTWAIT);
		if (w < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
			gone = true; /* EPIPE/ECONNRESET: dropped */
		else if (w > 0)
			sent += (size_t)w;
	}
	E2E_CHECK(gone, "flooding client: not dropped after %zu bytes of requests in 20 s", sent);
	close(fd);
	E2E_CHECK(strncmp(ctl(&b, "stats"), "instructions=", 13) == 0, "control port dead after the flood");
	sim_log_has(&b, "ST-LINK client did not read its replies for 1000 ms (it sends requests without reading the "
	                "answers); dropped");
	fd = e2e_connect(b.port, 2000);
	(void)st_open(fd); /* served: API 3, OPEN_DEV OK */
	close(fd);
	E2E_CHECK(ctl_stat(&b, "stlink_clients") == dropped_clients + 2, "stats: stlink_clients not two more");

	/* One line per bad client: the line saying what it did, no second "dropped; waiting" line (a
	 * client that merely leaves gets that one, so the check is not vacuous). */
	const char *log = sim_log_has(&b, "ST-LINK client disconnected; waiting for the next one");
	E2E_CHECK(!strstr(log, "ST-LINK client dropped;") && !strstr(log, "ST-LINK client failed;"),
	          "a bad client gave a second stderr line:\n%s", log);

	/* 7. OpenOCD still gets a working board: examine, a faulting write, the next access, WAIT acks. */
	ocd_start(&b);
	E2E_CHECK(strstr(e2e_slurp(b.ocd_log), "Cortex-M4 r0p1") != NULL, "examine failed after the bad clients");
	e2e_tcl(b.tcl, "halt");
	const char *r = e2e_tcl(b.tcl, "catch {write_memory 0x30000000 32 {0x12345678}}");
	E2E_CHECK(strcmp(r, "1") == 0, "write to unmapped 0x30000000 did not fail: `%s`", r);
	r = e2e_tcl(b.tcl, "catch {read_memory 0x30000000 32 1}");
	E2E_CHECK(strcmp(r, "1") == 0, "read of unmapped 0x30000000 did not fail: `%s`", r);
	e2e_tcl(b.tcl, "write_memory 0x20000100 32 {0xCAFEF00D}");
	E2E_CHECK(read_word(&b, 0x20000100u) == 0xCAFEF00Du, "SRAM access after the fault failed");
	E2E_CHECK(ctl_stat(&b, "sticky_errors") >= 2, "stats: the faults set no sticky error");
	E2E_CHECK(strcmp(ctl(&b, "dap-wait 3"), "ok dap-wait 3") == 0, "dap-wait refused");
	E2E_CHECK(read_word(&b, 0x20000100u) == 0xCAFEF00Du, "read after WAIT acks returned wrong data");
	e2e_tcl(b.tcl, "reset halt; resume");
	expect_halted_at(&b, FW_MARKER_BEGIN, "run after the bad input");
	/* An OpenOCD killed mid-session, then another. */
	(void)kill(-b.ocd, SIGKILL);
	(void)e2e_stop(b.ocd);
	close(b.tcl);
	ocd_start(&b);
	E2E_CHECK(strstr(e2e_slurp(b.ocd_log), "Cortex-M4 r0p1") != NULL, "examine failed after a killed OpenOCD");
	board_down(&b);
	printf("ok: garbage, truncated request, second client, oversize write/read, unknown command, wrong connect "
	       "id, NRST, gone mid-write, flood without reading (dropped after %zu bytes), faulting access, WAIT, "
	       "killed OpenOCD\n",
	       sent);
	return 0;
}

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

/* --stlink-port: usage, a taken port, both ports served at once, one client at a time, serving
 * again after a client leaves. */
static int test_cli(const char *sim_bin, const char *fw_dir, const char *e2e_stlink)
{
	const char *err = NULL;
	char *bad[] = {NULL, "--stlink-port", "70000", NULL};
	E2E_CHECK(run_sim(sim_bin, bad, &err) == 2 && strstr(err, "bad port `70000`"), "--stlink-port 70000: %s", err);
	char *help[] = {NULL, "--help", NULL};
	E2E_CHECK(run_sim(sim_bin, help, &err) == 0 && strstr(err, "--stlink-port N"), "--help lacks --stlink-port");
	E2E_CHECK(strstr(err, "--no-spin         sleep in poll() between JTAG or ST-LINK requests") != NULL,
	          "--help: --no-spin does not name both ports:\n%s", err);
	/* e2e_stlink's perf HALTS: 0 (atoi() of junk too) would divide by zero; refused before any board
	 * starts. */
	char *zero[] = {NULL, "perf", "dap", (char *)sim_bin, (char *)fw_dir, "0", NULL};
	E2E_CHECK(run_sim(e2e_stlink, zero, &err) == 2 && strstr(err, "HALTS `0`: give a whole number of marker halts"),
	          "perf with HALTS 0: %s", err);

	/* --stlink-port and --jtag-port together: stlink-port first, then jtag-port. */
	struct board b = {.path = PATH_DAP, .sim_bin = sim_bin, .tcl = -1, .ctl = -1};
	snprintf(b.sim_log, sizeof(b.sim_log), "%s/bench-sim.log", e2e_dir);
	char *argv[] = {(char *)sim_bin, "--stlink-port", "0", "--jtag-port", "0", "--ctl-port", "0", NULL};
	int out = -1;
	b.sim = e2e_spawn(argv, &out, b.sim_log);
	char line[128];
	unsigned sp = 0, jp = 0, cp = 0;
	E2E_CHECK(e2e_read_line(out, line, sizeof(line), 10000) == 0 && sscanf(line, "stlink-port %u", &sp) == 1,
	          "first line `%s`, wanted stlink-port N", line);
	E2E_CHECK(e2e_read_line(out, line, sizeof(line), 10000) == 0 && sscanf(line, "jtag-port %u", &jp) == 1,
	          "second line `%s`, wanted jtag-port N", line);
	E2E_CHECK(e2e_read_line(out, line, sizeof(line), 10000) == 0 && sscanf(line, "ctl-port %u", &cp) == 1,
	          "third line `%s`, wanted ctl-port N", line);
	close(out);
	b.port = (uint16_t)sp, b.ctl_port = (uint16_t)cp;
	b.ctl = e2e_connect(b.ctl_port, 5000);

	char port[16];
	snprintf(port, sizeof(port), "%u", sp);
	char *taken[] = {NULL, "--stlink-port", port, NULL};
	E2E_CHECK(run_sim(sim_bin, taken, &err) == 1 && strstr(err, "pick another --stlink-port"), "taken port: %s",
	          err);

	/* Both served at once: an ST-LINK client and a JTAG client, interleaved. */
	int st = e2e_connect(b.port, 2000), jt = e2e_connect((uint16_t)jp, 2000);
	uint32_t cid = st_open(st);
	E2E_CHECK(send(jt, "2626262626040R", 14, MSG_NOSIGNAL) == 14, "send");
	uint8_t rep[16];
	E2E_CHECK(st_recv(jt, rep, 1) == 1 && rep[0] == '0', "JTAG client not served beside the ST-LINK client");
	const uint8_t idcodes[2] = {0xF2, 0x31}, enter[3] = {0xF2, 0x30, 0xA3};
	E2E_CHECK(st_usb_read(st, cid, enter, 3, 2, rep) == 1 && rep[0] == 0x80, "APIV2_ENTER SWD: %02x", rep[0]);
	E2E_CHECK(st_usb_read(st, cid, idcodes, 2, 12, rep) == 1 && rep[0] == 0x80 && le32(rep + 4) == 0x2BA01477u,
	          "READ_IDCODES: 0x%08x, wanted the SW-DP's 0x2ba01477", le32(rep + 4));
	close(jt);
	/* One ST-LINK client at a time; after it leaves the next is served. */
	int st2 = e2e_connect(b.port, 2000);
	E2E_CHECK(st2 >= 0 && st_closed(st2), "a second ST-LINK client was not refused");
	close(st2);
	close(st);
	usleep(50000);
	st = e2e_connect(b.port, 2000);
	cid = st_open(st);
	E2E_CHECK(st_usb_read(st, cid, enter, 3, 2, rep) == 1 && rep[0] == 0x80, "the next client is not served");
	close(st);
	E2E_CHECK(ctl_stat(&b, "stlink_clients") == 2, "stats: stlink_clients %llu, wanted 2 (the refused one is not)",
	          (unsigned long long)ctl_stat(&b, "stlink_clients"));
	int status = e2e_stop(b.sim);
	E2E_CHECK(status >= 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0, "SIGTERM: status %d", status);
	close(b.ctl);
	printf("ok: --stlink-port usage and taken port, with --jtag-port at once, one client at a time, next client\n");
	return 0;
}

int main(int argc, char **argv)
{
	bool cli = argc == 6 && strcmp(argv[1], "cli") == 0;
	if (!(cli || (argc == 5 && strcmp(argv[1], "badinput") == 0)) || strcmp(argv[2], "dap") != 0) {
		fprintf(stderr,
		        "usage: %s badinput dap BENCH_SIM FIRMWARE_DIR | cli dap BENCH_SIM FIRMWARE_DIR E2E_STLINK\n",
		        argv[0]);
		return 2;
	}
	e2e_init(120);
	setvbuf(stdout, NULL, _IOLBF, 0);
	int rc = cli ? test_cli(argv[3], argv[4], argv[5]) : test_badinput(argv[3], argv[4]);
	if (rc == 0) {
		char cmd[400];
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", e2e_dir);
		if (system(cmd) != 0)
			fprintf(stderr, "could not remove %s\n", e2e_dir);
	}
	return rc;
}
