/* bench-sim: the virtual STM32F4 board. Flags, the single-threaded event loop that serves OpenOCD's
 * ST-LINK connection (stlink-server over TCP) and remote_bitbang connection between slices of core
 * execution, the text control interface, and clean shutdown on SIGINT/SIGTERM/`quit`. docs/sim.md
 * is the manual. */
#define _GNU_SOURCE /* ppoll() */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "bus/msg.h"
#include "args.h"
#include "board.h"
#include "wire/bitbang.h"
#include "bus/bus.h"
#include "chip/stm32f4.h"
#include "core/core.h"
#include "dap/dp.h"
#include "ledger.h"
#include "record.h"
#include "run_end.h"
#include "wire/jtag.h"
#include "wire/jtag_dp.h"
#include "wire/stlink_server.h"

/* Cycles per core_run() slice while a client may be waiting: ~2 ms at 100 M instr/s, so a JTAG
 * request waits at most that long while the core runs free. */
#define RUN_SLICE_CYCLES  200000u
#define IO_BUF_SIZE       65536u
#define SCB_AIRCR         0xE000ED0Cu /* Armv7-M ARM B3.2.6 */
#define AIRCR_VECTKEY     0x05FA0000u
#define AIRCR_SYSRESETREQ (1u << 2)
#define MAX_CTL_CLIENTS   4
#define CTL_LINE_MAX      256
#define SPIN_NS           200000u /* 200 us: longer than OpenOCD's think time within a burst */
/* While a client is talking to a running core (OpenOCD polls DHCSR without pause in
 * target_wait_state(), feeds a flash loader's FIFO), slices are short, so a request waits about
 * 0.1 ms instead of a whole slice and both make progress. */
#define TALK_SLICE_CYCLES 10000u
#define TALK_WINDOW_NS    2000000u /* "talking": a request served in the last 2 ms */

struct ctl_client {
	int fd;
	char line[CTL_LINE_MAX];
	size_t len;
};

struct sim {
	struct sim_options opt;
	struct board board;    /* bus, chip, core */
	struct sim_core *core; /* board.core */
	struct sim_rec *rec;   /* --record; NULL: off */
	struct dp dp;
	struct jtag_tap tap;
	struct bitbang bb;
	struct stlink_probe probe;
	struct stlink_server stl;
	int tcp_listen, unix_listen, ctl_listen;
	int client;
	struct ctl_client ctl[MAX_CTL_CLIENTS];
	uint64_t clients_served;
	bool srst_asserted;
	uint64_t nrst_resets; /* NRST released after being held: chip resets through the pin */
	bool spin;
	uint64_t last_served_ns;
	uint8_t in[IO_BUF_SIZE];
	uint8_t out[IO_BUF_SIZE];
	bool quit;
};

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

static void info(const struct sim *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void info(const struct sim *s, const char *fmt, ...)
{
	if (s->opt.quiet)
		return;
	va_list ap;
	va_start(ap, fmt);
	sim_vmsg(fmt, ap);
	va_end(ap);
}

/* The chip's NRST pin, driven by the ST-LINK (DRIVE_NRST: the Discovery wires the probe's T_NRST
 * to it, so `reset_config srst_only` works) or by remote_bitbang 's'/'u' (assert) and 'r'/'t'
 * (release). NRST resets the system but not the debug logic (RM0090 6.1.2, Armv7-M ARM B1.5.7 note
 * on Local reset): the same as AIRCR.SYSRESETREQ, which the core already models, so release does
 * that write; while it is held low the core does not run (event_loop()). */
static void nrst(struct sim *s, bool asserted)
{
	if (asserted) {
		s->srst_asserted = true;
		return;
	}
	if (s->srst_asserted) {
		s->srst_asserted = false;
		s->nrst_resets++;
		if (bus_write(&s->board.bus, SCB_AIRCR, 4, BUS_DEBUG, AIRCR_VECTKEY | AIRCR_SYSRESETREQ) != BUS_OK)
			sim_msg("NRST: AIRCR.SYSRESETREQ write failed; core not reset");
	}
}

static void on_bitbang_reset(void *ctx, bool trst, bool srst)
{
	(void)trst;
	nrst(ctx, srst);
}

static void on_stlink_nrst(void *ctx, bool asserted)
{
	nrst(ctx, asserted);
}

/* The core runs unless NRST holds it in reset. */
static bool runnable(const struct sim *s)
{
	return !s->srst_asserted && core_runnable(s->core);
}

static void drop_client(struct sim *s, const char *why)
{
	if (s->client < 0)
		return;
	if (why) /* NULL: the caller printed the one line saying what the client did */
		info(s, "JTAG client %s; waiting for the next one", why);
	close(s->client);
	s->client = -1;
	bitbang_new_client(&s->bb);
}

/* Reads what the client sent and answers it. flags is 0 after poll() said readable, or
 * MSG_DONTWAIT while spinning. Returns true when a buffer was served and the client is still
 * there. */
static bool serve_client(struct sim *s, int flags)
{
	ssize_t n = recv(s->client, s->in, sizeof(s->in), flags);
	/* A reset is a disconnect too: a client that closes with our replies unread sends RST. */
	if (n == 0 || (n < 0 && errno == ECONNRESET)) {
		/* A clean close outside a scan is what OpenOCD does on exit; inside one it vanished. */
		bool mid_scan = s->tap.state != JTAG_TEST_LOGIC_RESET && s->tap.state != JTAG_RUN_TEST_IDLE;
		if (mid_scan)
			sim_msg("JTAG client disconnected in the middle of a scan (TAP in %s); dropped",
			        jtag_state_name(s->tap.state));
		drop_client(s, mid_scan ? NULL : "disconnected");
		return false;
	}
	if (n < 0) {
		if (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)
			return false;
		sim_msg("JTAG client: recv: %s; dropped", strerror(errno));
		drop_client(s, NULL);
		return false;
	}
	size_t out_len = 0, used = 0;
	enum bitbang_status st = bitbang_feed(&s->bb, s->in, (size_t)n, s->out, &out_len, &used);
	if (out_len > 0 && bitbang_send_all(s->client, s->out, out_len) < 0) {
		if (errno == ETIMEDOUT)
			sim_msg("JTAG client did not read its replies for %ld ms; dropped",
			        (long)BITBANG_SEND_DEADLINE_MS);
		else
			sim_msg("JTAG client: send: %s; dropped", strerror(errno));
		drop_client(s, NULL);
		return false;
	}
	if (st == BITBANG_MALFORMED) {
		sim_msg("JTAG client sent byte 0x%02x, not remote_bitbang protocol (offset %zu of a %zd-byte "
		        "buffer); dropped",
		        s->in[used], used, n);
		drop_client(s, NULL);
		return false;
	}
	if (st == BITBANG_QUIT) {
		drop_client(s, "quit");
		return false;
	}
	return true;
}

static uint64_t now_ns(void)
{
	struct timespec ts;
	if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
		return 0; /* cannot fail for CLOCK_MONOTONIC (POSIX); 0 only shortens a spin or a slice */
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* After a reply, OpenOCD's next request of the same burst follows within tens of microseconds
 * (one round trip per scan: 225 for the 53 registers of a halt). Sleeping in poll() for it costs a
 * scheduler wake-up per round trip, which dominates the round trip, so while the core is halted keep
 * reading without sleeping for up to SPIN_NS, yielding the CPU between tries. Measured back to back
 * with `bench run fut-hardfp.elf --repeat 100` (307 halts): idle machine 5.5 s sleeping, 2.5 s
 * spinning; with two busy loops on the 2 cores, 4.4-4.8 s sleeping, 3.2-4.4 s spinning. Under the
 * heavier load of eight parallel builds spinning was measured slower (40-165 halts/s against 165),
 * hence --no-spin. As soon as a request makes the core runnable (resume, step), return: the core
 * starts at once, as on silicon. */
static bool serve_stlink(struct sim *s, int flags)
{
	return stlink_server_serve(&s->stl, flags);
}

static bool jtag_connected(const struct sim *s)
{
	return s->client >= 0;
}

static bool stlink_connected(const struct sim *s)
{
	return s->stl.client >= 0;
}

/* The same for either debugger connection: serve() reads and answers, connected() says whether the
 * client is still there. An ST-LINK client's next request follows its last reply just as fast. */
static void spin_client(struct sim *s, bool (*serve)(struct sim *, int), bool (*connected)(const struct sim *))
{
	uint64_t deadline = now_ns() + SPIN_NS;
	while (connected(s) && !stop_signal && !runnable(s)) {
		if (serve(s, MSG_DONTWAIT)) {
			s->last_served_ns = now_ns();
			deadline = s->last_served_ns + SPIN_NS;
		} else if (now_ns() > deadline) {
			return;
		} else {
			/* On a loaded machine the client may be waiting for this CPU: let it run. */
			(void)sched_yield();
		}
	}
}

static void accept_jtag(struct sim *s, int lfd)
{
	int fd = bitbang_accept(lfd);
	if (fd < 0)
		return;
	if (s->client >= 0) {
		sim_msg("a second JTAG client connected while one is active; refused (one debugger at a time)");
		close(fd);
		return;
	}
	s->client = fd;
	s->clients_served++;
	bitbang_new_client(&s->bb);
	info(s, "JTAG client connected");
}

static void ctl_reply(struct ctl_client *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void ctl_reply(struct ctl_client *c, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, sizeof(buf) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n > sizeof(buf) - 2)
		n = (int)sizeof(buf) - 2;
	buf[n++] = '\n';
	if (bitbang_send_all(c->fd, (const uint8_t *)buf, (size_t)n) < 0) {
		close(c->fd);
		c->fd = -1;
	}
}

static void ctl_stats(struct sim *s, struct ctl_client *c)
{
	struct core_stats cs = {0};
	if (s->core)
		core_get_stats(s->core, &cs);
	ctl_reply(c,
	          "instructions=%" PRIu64 " cycles=%" PRIu64 " halts=%" PRIu64 " exceptions=%" PRIu64 " resets=%" PRIu64
	          " dap_transactions=%" PRIu64 " bitbang_round_trips=%" PRIu64 " bitbang_buffers=%" PRIu64
	          " bitbang_bytes=%" PRIu64 " sticky_errors=%" PRIu64 " jtag_clients=%" PRIu64
	          " stlink_round_trips=%" PRIu64 " stlink_commands=%" PRIu64 " stlink_clients=%" PRIu64
	          " stlink_misc_batches=%" PRIu64 " nrst_resets=%" PRIu64,
	          cs.instructions, cs.cycles, cs.halts, cs.exceptions, cs.resets, dp_transactions(&s->dp),
	          s->bb.stats.round_trips, s->bb.stats.buffers, s->bb.stats.bytes_in, s->dp.stats.sticky_errors,
	          s->clients_served, s->stl.stats.round_trips, s->probe.stats.commands, s->stl.stats.clients,
	          s->probe.stats.misc_batches, s->nrst_resets);
}

static void ctl_command(struct sim *s, struct ctl_client *c, char *line)
{
	char *arg = strchr(line, ' ');
	if (arg)
		*arg++ = '\0';
	uint64_t v;
	if (strcmp(line, "stats") == 0 && !arg) {
		ctl_stats(s, c);
	} else if (strcmp(line, "wait-states") == 0 && arg && strcmp(arg, "auto") == 0) {
		core_set_wait_states(s->core, -1);
		ctl_reply(c, "ok wait-states auto (%u from FLASH_ACR)", core_wait_states(s->core));
	} else if (strcmp(line, "wait-states") == 0 && arg && sim_parse_u64(arg, 15, &v) == 0) {
		core_set_wait_states(s->core, (int)v);
		ctl_reply(c, "ok wait-states %" PRIu64, v);
	} else if (strcmp(line, "trace") == 0 && arg && (strcmp(arg, "on") == 0 || strcmp(arg, "off") == 0)) {
		core_set_trace(s->core, strcmp(arg, "on") == 0);
		ctl_reply(c, "ok trace %s", arg);
	} else if (strcmp(line, "dap-wait") == 0 && arg && sim_parse_u64(arg, 1000000, &v) == 0) {
		dp_inject_wait(&s->dp, (unsigned)v);
		ctl_reply(c, "ok dap-wait %" PRIu64, v);
	} else if (strcmp(line, "where") == 0 && arg && sim_parse_u64(arg, UINT32_MAX, &v) == 0) {
		char what[160];
		ctl_reply(c, "where 0x%08" PRIx64 " %s", v, stm32f4_describe((uint32_t)v, what, sizeof(what)));
	} else if (strcmp(line, "quit") == 0 && !arg) {
		ctl_reply(c, "ok quit");
		s->quit = true;
	} else {
		ctl_reply(c,
		          "error unknown command `%s%s%s`: try stats, wait-states N|auto, trace on|off, dap-wait N, "
		          "where ADDR, quit",
		          line, arg ? " " : "", arg ? arg : "");
	}
}

static void serve_ctl(struct sim *s, struct ctl_client *c)
{
	char buf[512];
	ssize_t n = recv(c->fd, buf, sizeof(buf), 0);
	if (n <= 0) {
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			return;
		close(c->fd);
		c->fd = -1;
		return;
	}
	for (ssize_t i = 0; i < n && c->fd >= 0; i++) {
		char ch = buf[i];
		if (ch == '\n') {
			c->line[c->len] = '\0';
			if (c->len > 0 && c->line[c->len - 1] == '\r')
				c->line[--c->len] = '\0';
			ctl_command(s, c, c->line);
			c->len = 0;
		} else if (c->len + 1 >= sizeof(c->line)) {
			ctl_reply(c, "error line longer than %d bytes", CTL_LINE_MAX - 1);
			if (c->fd >= 0)
				close(c->fd);
			c->fd = -1;
		} else {
			c->line[c->len++] = ch;
		}
	}
}

static void accept_ctl(struct sim *s)
{
	int fd = bitbang_accept(s->ctl_listen);
	if (fd < 0)
		return;
	for (int i = 0; i < MAX_CTL_CLIENTS; i++) {
		if (s->ctl[i].fd < 0) {
			s->ctl[i] = (struct ctl_client){.fd = fd};
			return;
		}
	}
	const char msg[] = "error too many control clients\n";
	(void)bitbang_send_all(fd, (const uint8_t *)msg, sizeof(msg) - 1);
	close(fd);
}

enum { PFD_TCP, PFD_UNIX, PFD_CTL, PFD_CLIENT, PFD_STL, PFD_STL_CLIENT, PFD_CTL0, PFD_N = PFD_CTL0 + MAX_CTL_CLIENTS };

static int event_loop(struct sim *s, const sigset_t *run_mask)
{
	struct pollfd pfd[PFD_N];
	while (!s->quit && !stop_signal && !(s->rec && core_rec_failed(s->core))) {
		pfd[PFD_TCP] = (struct pollfd){.fd = s->tcp_listen, .events = POLLIN};
		pfd[PFD_UNIX] = (struct pollfd){.fd = s->unix_listen, .events = POLLIN};
		pfd[PFD_CTL] = (struct pollfd){.fd = s->ctl_listen, .events = POLLIN};
		pfd[PFD_CLIENT] = (struct pollfd){.fd = s->client, .events = POLLIN};
		pfd[PFD_STL] = (struct pollfd){.fd = s->stl.listen_fd, .events = POLLIN};
		pfd[PFD_STL_CLIENT] = (struct pollfd){.fd = s->stl.client, .events = POLLIN};
		for (int i = 0; i < MAX_CTL_CLIENTS; i++)
			pfd[PFD_CTL0 + i] = (struct pollfd){.fd = s->ctl[i].fd, .events = POLLIN};
		bool can_run = runnable(s);
		struct timespec zero = {0, 0};
		/* Signals are blocked except inside ppoll(): no race between the flag test and the wait. */
		int n = ppoll(pfd, PFD_N, can_run ? &zero : NULL, run_mask);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			sim_msg("poll: %s", strerror(errno));
			return 1;
		}
		if (n > 0) {
			/* The client first: its request may be what the core is waiting for. */
			if (s->client >= 0 && (pfd[PFD_CLIENT].revents & (POLLIN | POLLHUP | POLLERR)) &&
			    serve_client(s, 0)) {
				s->last_served_ns = now_ns();
				if (s->spin)
					spin_client(s, serve_client, jtag_connected);
			}
			if (s->stl.client >= 0 && (pfd[PFD_STL_CLIENT].revents & (POLLIN | POLLHUP | POLLERR)) &&
			    serve_stlink(s, 0)) {
				s->last_served_ns = now_ns();
				if (s->spin)
					spin_client(s, serve_stlink, stlink_connected);
			}
			if (pfd[PFD_STL].revents & POLLIN)
				stlink_server_accept(&s->stl);
			if (pfd[PFD_TCP].revents & POLLIN)
				accept_jtag(s, s->tcp_listen);
			if (pfd[PFD_UNIX].revents & POLLIN)
				accept_jtag(s, s->unix_listen);
			if (pfd[PFD_CTL].revents & POLLIN)
				accept_ctl(s);
			for (int i = 0; i < MAX_CTL_CLIENTS; i++)
				if (s->ctl[i].fd >= 0 && (pfd[PFD_CTL0 + i].revents & (POLLIN | POLLHUP | POLLERR)))
					serve_ctl(s, &s->ctl[i]);
		}
		if (runnable(s)) {
			bool talking =
			    (s->client >= 0 || s->stl.client >= 0) && now_ns() - s->last_served_ns < TALK_WINDOW_NS;
			(void)core_run(s->core, talking ? TALK_SLICE_CYCLES : RUN_SLICE_CYCLES);
		}
	}
	if (stop_signal)
		info(s, "%s: shutting down", stop_signal == SIGINT ? "SIGINT" : "SIGTERM");
	return 0;
}

static int open_listeners(struct sim *s)
{
	char err[256];
	if (s->opt.stlink_port >= 0) {
		uint16_t port = 0;
		if (stlink_server_listen(&s->stl, (uint16_t)s->opt.stlink_port, &port, err, sizeof(err)) != 0) {
			sim_msg("ST-LINK port: %s: pick another --stlink-port, or 0 for a free one", err);
			return -1;
		}
		printf("stlink-port %u\n", port);
	}
	if (s->opt.jtag_port >= 0) {
		uint16_t port = 0;
		s->tcp_listen = bitbang_listen_tcp((uint16_t)s->opt.jtag_port, &port, err, sizeof(err));
		if (s->tcp_listen < 0) {
			sim_msg("JTAG port: %s: pick another --jtag-port, or 0 for a free one", err);
			return -1;
		}
		printf("jtag-port %u\n", port);
	}
	if (s->opt.jtag_socket) {
		s->unix_listen = bitbang_listen_unix(s->opt.jtag_socket, err, sizeof(err));
		if (s->unix_listen < 0) {
			sim_msg("JTAG socket: %s", err);
			return -1;
		}
		if (s->opt.jtag_port < 0)
			printf("jtag-socket %s\n", s->opt.jtag_socket);
	}
	if (s->opt.ctl_port >= 0) {
		uint16_t port = 0;
		s->ctl_listen = bitbang_listen_tcp((uint16_t)s->opt.ctl_port, &port, err, sizeof(err));
		if (s->ctl_listen < 0) {
			sim_msg("control port: %s: pick another --ctl-port, or 0 for a free one", err);
			return -1;
		}
		printf("ctl-port %u\n", port);
	}
	/* The parent reads these lines to learn the ports: they must not sit in a buffer. */
	if (fflush(stdout) != 0) {
		sim_msg("writing the port lines to stdout failed: %s", strerror(errno));
		return -1;
	}
	return 0;
}

/* -1 when a --record record failed (exit 1). */
static int close_all(struct sim *s)
{
	if (s->client >= 0)
		close(s->client);
	for (int i = 0; i < MAX_CTL_CLIENTS; i++)
		if (s->ctl[i].fd >= 0)
			close(s->ctl[i].fd);
	stlink_server_close(&s->stl);
	if (s->tcp_listen >= 0)
		close(s->tcp_listen);
	if (s->ctl_listen >= 0)
		close(s->ctl_listen);
	if (s->unix_listen >= 0) {
		close(s->unix_listen);
		if (unlink(s->opt.jtag_socket) < 0 && errno != ENOENT)
			sim_msg("removing %s: %s", s->opt.jtag_socket, strerror(errno));
	}
	int rc = sim_rec_finish(s->rec); /* the last halt's record, if nobody read it */
	s->rec = NULL;
	board_free(&s->board);
	s->core = NULL;
	return rc;
}

/* Once per block the firmware uses that the board does not model as silicon: one line in the log, which bench
 * turns into a report warning (host/run/run.c). */
static void on_chip_note(void *ctx, const char *msg)
{
	info(ctx, "note: %s", msg);
}

static int build_board(struct sim *s)
{
	char err[256] = "";
	struct sim_config cfg = {
	    .force_wait_states = s->opt.wait_states >= 0,
	    .memory_blocks = s->opt.memory_blocks,
	    .flash_wait_states = s->opt.wait_states >= 0 ? (unsigned)s->opt.wait_states : 0u,
	    .trace = s->opt.trace,
	    .uart_echo = !s->opt.quiet,
	    .unaligned = s->opt.unaligned,
	};
	if (board_init(&s->board, &cfg, err, sizeof(err)) != 0) {
		sim_msg("creating the core: %s", err);
		return -1;
	}
	s->core = s->board.core;
	stm32f4_on_note(s->board.chip, on_chip_note, s);
	if (s->opt.elf && core_load_elf(s->core, s->opt.elf, err, sizeof(err)) != 0) {
		sim_msg("loading %s: %s", s->opt.elf, err);
		return -1;
	}
	if (s->opt.record && sim_rec_start(&s->rec, s->core, s->opt.record) != 0)
		return -1;
	dp_init(&s->dp, &s->board.bus);
	jtag_init(&s->tap, DP_IR_LEN, DP_IR_IDCODE, &dp_jtag_ops, &s->dp);
	bitbang_init(&s->bb, &s->tap, on_bitbang_reset, s);
	stlink_probe_init(&s->probe, &s->dp, on_stlink_nrst, s);
	return 0;
}

int main(int argc, char **argv)
{
	static struct sim sim; /* large I/O buffers: not on the stack */
	struct sim *s = &sim;
	int r = sim_parse_args(argc, argv, &s->opt);
	if (r != 0) {
		if (r > 0 && (fputs(sim_usage_text, stdout) == EOF || fflush(stdout) != 0))
			return 1;
		return r > 0 ? 0 : 2;
	}
	s->tcp_listen = s->unix_listen = s->ctl_listen = s->client = -1;
	stlink_server_init(&s->stl, &s->probe, s->opt.quiet);
	s->spin = !s->opt.no_spin;
	for (int i = 0; i < MAX_CTL_CLIENTS; i++)
		s->ctl[i].fd = -1;

	/* SIGINT/SIGTERM set a flag; they are only let through inside ppoll() (or the standalone run,
	 * which polls nothing, so it keeps the default action). A closed client must not kill us. */
	sigset_t block, run_mask;
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	struct sigaction sa = {.sa_handler = on_signal};
	sigemptyset(&sa.sa_mask);
	struct sigaction ign = {.sa_handler = SIG_IGN};
	sigemptyset(&ign.sa_mask);
	if (sigaction(SIGPIPE, &ign, NULL) < 0) {
		sim_msg("sigaction: %s", strerror(errno));
		return 1;
	}

	if (build_board(s) != 0) {
		(void)close_all(s);
		return 1;
	}
	if (s->opt.standalone) {
		int rc = sim_run_standalone(&s->board, &s->opt);
		if (close_all(s) != 0 && rc == 0)
			rc = 1;
		return rc;
	}
	if (sigaction(SIGINT, &sa, NULL) < 0 || sigaction(SIGTERM, &sa, NULL) < 0 ||
	    sigprocmask(SIG_BLOCK, &block, &run_mask) < 0) {
		sim_msg("setting up signals: %s", strerror(errno));
		(void)close_all(s);
		return 1;
	}
	sigdelset(&run_mask, SIGINT);
	sigdelset(&run_mask, SIGTERM);
	if (open_listeners(s) != 0) {
		(void)close_all(s);
		return 1;
	}
	r = event_loop(s, &run_mask);
	return close_all(s) != 0 ? 1 : r;
}
