/* bench-sim's control interface as a second clock (see sim_clock.h). */
#include "session/sim_clock.h"

#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/str.h"

#define SIM_CLOCK_TIMEOUT_MS 2000

int sim_clock_open(uint16_t port, struct bench_error *err)
{
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(port)};
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0)
		return bench_fail(err, BENCH_E_CONNECT, "cannot open a socket for bench-sim's control port: %s",
		                  strerror(errno));
	if (connect(fd, (struct sockaddr *)&a, sizeof(a))) {
		int e = errno;
		close(fd);
		return bench_fail(err, BENCH_E_CONNECT, "cannot reach bench-sim's control port 127.0.0.1:%u: %s",
		                  (unsigned)port, strerror(e));
	}
	return fd;
}

/* One command, one reply line (docs/sim.md "Control interface"). */
static int ctl_request(int fd, const char *cmd, char *line, size_t len, struct bench_error *err)
{
	size_t n = 0, cl = strlen(cmd);

	if (send(fd, cmd, cl, MSG_NOSIGNAL) != (ssize_t)cl)
		return bench_fail(err, BENCH_E_CONNECT, "bench-sim's control port: send: %s", strerror(errno));
	while (n < len - 1 && (n == 0 || line[n - 1] != '\n')) {
		struct pollfd p = {.fd = fd, .events = POLLIN};
		int r = poll(&p, 1, SIM_CLOCK_TIMEOUT_MS);
		ssize_t got;
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return bench_fail(err, BENCH_E_CONNECT, "bench-sim's control port did not answer `%.*s`",
			                  (int)(cl - 1), cmd);
		got = recv(fd, line + n, len - 1 - n, 0);
		if (got <= 0)
			return bench_fail(err, BENCH_E_CONNECT, "bench-sim's control port closed");
		n += (size_t)got;
	}
	line[n] = '\0';
	if (n && line[n - 1] == '\n')
		line[n - 1] = '\0';
	return 0;
}

int sim_clock_where(int fd, uint32_t addr, char *out, size_t len, struct bench_error *err)
{
	char cmd[32], line[256];
	int rc;

	if (str_fmt(cmd, sizeof(cmd), "where 0x%08x\n", addr)) /* 17 characters into 32 */
		return bench_fail(err, BENCH_E_INTERNAL, "bench-sim's where command does not fit");
	if ((rc = ctl_request(fd, cmd, line, sizeof(line), err)))
		return rc;
	/* "where 0x40023000 CRC (0x40023000, modelled)" */
	if (strncmp(line, "where ", 6) || !strchr(line + 6, ' '))
		return bench_fail(err, BENCH_E_PROTOCOL, "bench-sim's `where` reply: %.80s: rebuild bench-sim", line);
	str_fmt_cut(out, len, "%s", strchr(line + 6, ' ') + 1); /* a name for a message */
	return 0;
}

int sim_clock_cycles(int fd, uint64_t *cycles, struct bench_error *err)
{
	uint64_t exceptions;

	return sim_clock_stats(fd, cycles, &exceptions, NULL, err);
}

int sim_clock_stats(int fd, uint64_t *cycles, uint64_t *exceptions, uint64_t *resets, struct bench_error *err)
{
	static const char cmd[] = "stats\n";
	char line[512];
	size_t n = 0;
	const char *at;

	if (send(fd, cmd, sizeof(cmd) - 1, MSG_NOSIGNAL) != (ssize_t)(sizeof(cmd) - 1))
		return bench_fail(err, BENCH_E_CONNECT, "bench-sim's control port: send: %s", strerror(errno));
	/* One reply line per command (docs/sim.md "Control interface"). */
	while (n < sizeof(line) - 1 && (n == 0 || line[n - 1] != '\n')) {
		struct pollfd p = {.fd = fd, .events = POLLIN};
		int r = poll(&p, 1, SIM_CLOCK_TIMEOUT_MS);
		ssize_t got;
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return bench_fail(err, BENCH_E_CONNECT, "bench-sim's control port did not answer `stats`");
		got = recv(fd, line + n, sizeof(line) - 1 - n, 0);
		if (got <= 0)
			return bench_fail(err, BENCH_E_CONNECT, "bench-sim's control port closed");
		n += (size_t)got;
	}
	line[n] = '\0';
	at = strstr(line, " cycles=");
	if (!at || sscanf(at + 8, "%" SCNu64, cycles) != 1)
		return bench_fail(err, BENCH_E_PROTOCOL, "bench-sim's `stats` reply lacks cycles=: %.80s", line);
	at = strstr(line, " exceptions=");
	if (!at || sscanf(at + 12, "%" SCNu64, exceptions) != 1)
		return bench_fail(err, BENCH_E_PROTOCOL, "bench-sim's `stats` reply lacks exceptions=: %.80s", line);
	at = strstr(line, " resets=");
	if (resets && (!at || sscanf(at + 8, "%" SCNu64, resets) != 1))
		return bench_fail(err, BENCH_E_PROTOCOL,
		                  "bench-sim's `stats` reply lacks resets=: %.80s: rebuild bench-sim", line);
	return 0;
}

void sim_clock_close(int fd)
{
	if (fd >= 0)
		close(fd);
}
