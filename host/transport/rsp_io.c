/* TCP byte I/O with deadlines for the GDB remote protocol (see rsp_io.h). Non-blocking socket +
 * poll(): a server that accepts and then says nothing costs at most the caller's deadline. */
#include "transport/rsp_io.h"
#include "base/clock.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static int remaining_ms(uint64_t deadline_ms)
{
	uint64_t now = clock_now_ms();

	if (now >= deadline_ms)
		return 0;
	return deadline_ms - now > BENCH_CANCEL_SLICE_MS ? (int)BENCH_CANCEL_SLICE_MS : (int)(deadline_ms - now);
}

/* A poll that returned 0 before the deadline only ended its slice. */
static bool slice_ended(uint64_t deadline_ms)
{
	return clock_now_ms() < deadline_ms;
}

/* Splits "HOST:PORT"; the last colon separates the port so "[::1]:3333" style is not needed. */
static int split_host_port(const char *hp, char *host, size_t hostlen, char *port, size_t portlen,
                           struct bench_error *err)
{
	const char *colon = strrchr(hp, ':');
	const char *p = colon ? colon + 1 : hp;
	size_t hl = colon ? (size_t)(colon - hp) : 0;

	if (*p == '\0' || strspn(p, "0123456789") != strlen(p) || strlen(p) >= portlen || atoi(p) <= 0 ||
	    atoi(p) > 65535)
		return bench_fail(err, BENCH_E_USAGE, "bad gdbserver address '%s': give HOST:PORT, e.g. localhost:3333",
		                  hp);
	if (hl >= hostlen)
		return bench_fail(err, BENCH_E_USAGE, "gdbserver host name too long in '%s'", hp);
	if (hl == 0) {
		(void)snprintf(host, hostlen, "127.0.0.1");
	} else {
		memcpy(host, hp, hl);
		host[hl] = '\0';
	}
	(void)snprintf(port, portlen, "%s", p);
	return 0;
}

/* One non-blocking connect() attempt with a deadline; returns the fd or -errno. */
static int connect_one(const struct addrinfo *ai, uint64_t deadline_ms)
{
	int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, ai->ai_protocol);
	int soerr = 0;
	socklen_t sl = sizeof(soerr);

	if (fd < 0)
		return -errno;
	if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0)
		return fd;
	if (errno != EINPROGRESS) {
		int e = errno;
		close(fd);
		return -e;
	}
	for (;;) {
		struct pollfd pfd = {.fd = fd, .events = POLLOUT};
		int n = poll(&pfd, 1, remaining_ms(deadline_ms));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			close(fd);
			return n == 0 ? -ETIMEDOUT : -errno;
		}
		break;
	}
	if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &sl) != 0 || soerr != 0) {
		close(fd);
		return -(soerr ? soerr : EIO);
	}
	return fd;
}

int rsp_io_connect(struct rsp_io *io, const char *host_port, unsigned timeout_ms, struct bench_error *err)
{
	char host[256], port[8];
	struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM};
	struct addrinfo *res = NULL;
	uint64_t deadline = clock_now_ms() + timeout_ms;
	int rc, fd = -ECONNREFUSED, one = 1;

	memset(io, 0, sizeof(*io));
	io->fd = -1;
	rc = split_host_port(host_port, host, sizeof(host), port, sizeof(port), err);
	if (rc < 0)
		return rc;
	rc = getaddrinfo(host, port, &hints, &res);
	if (rc != 0)
		return bench_fail(err, BENCH_E_CONNECT, "cannot resolve gdbserver host '%s': %s", host,
		                  gai_strerror(rc));
	for (const struct addrinfo *ai = res; ai; ai = ai->ai_next) {
		fd = connect_one(ai, deadline);
		if (fd >= 0)
			break;
	}
	freeaddrinfo(res);
	if (fd < 0)
		return bench_fail(err, BENCH_E_CONNECT,
		                  "cannot connect to gdbserver %s:%s: %s: start it first (e.g. openocd on :3333, "
		                  "qemu -gdb tcp::1234) or check --gdb",
		                  host, port, strerror(-fd));
	/* Packets are small and strictly request/reply: Nagle would add 40 ms per exchange. */
	if (setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)) != 0) {
		int e = errno;
		close(fd);
		return bench_fail(err, BENCH_E_CONNECT, "setsockopt(TCP_NODELAY) on %s:%s: %s", host, port,
		                  strerror(e));
	}
	io->fd = fd;
	(void)snprintf(io->peer, sizeof(io->peer), "%.80s:%s", host, port);
	return 0;
}

void rsp_io_from_fd(struct rsp_io *io, int fd, const char *peer)
{
	int fl;

	memset(io, 0, sizeof(*io));
	io->fd = fd;
	(void)snprintf(io->peer, sizeof(io->peer), "%s", peer ? peer : "peer");
	/* If this fails the socket stays blocking: poll() before every read still bounds the wait. */
	fl = fcntl(fd, F_GETFL);
	if (fl >= 0 && fcntl(fd, F_SETFL, fl | O_NONBLOCK) != 0)
		return;
}

void rsp_io_close(struct rsp_io *io)
{
	if (io->fd >= 0)
		close(io->fd);
	io->fd = -1;
	io->pos = io->len = 0;
}

int rsp_io_write(struct rsp_io *io, const void *data, size_t len, uint64_t deadline_ms, struct bench_error *err)
{
	const uint8_t *p = data;

	while (len > 0) {
		ssize_t n = send(io->fd, p, len, MSG_NOSIGNAL);

		if (n > 0) {
			p += n;
			len -= (size_t)n;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			struct pollfd pfd = {.fd = io->fd, .events = POLLOUT};
			int r = poll(&pfd, 1, remaining_ms(deadline_ms));

			if (bench_cancelled(io->cancel))
				return bench_fail(err, BENCH_E_INTERRUPTED, "interrupted");
			if (r == 0 && slice_ended(deadline_ms))
				continue;
			if (r == 0)
				return bench_fail(err, BENCH_E_TIMEOUT, "gdbserver %s stopped reading our packets",
				                  io->peer);
			if (r < 0 && errno != EINTR)
				return bench_fail(err, BENCH_E_CONNECT, "poll on %s: %s", io->peer, strerror(errno));
			continue;
		}
		return bench_fail(err, BENCH_E_CONNECT, "connection to gdbserver %s lost while sending: %s", io->peer,
		                  n < 0 ? strerror(errno) : "closed");
	}
	return 0;
}

size_t rsp_io_pending(const struct rsp_io *io)
{
	return io->len - io->pos;
}

int rsp_io_getc(struct rsp_io *io, uint64_t deadline_ms, struct bench_error *err)
{
	while (io->pos == io->len) {
		struct pollfd pfd = {.fd = io->fd, .events = POLLIN};
		int r = poll(&pfd, 1, remaining_ms(deadline_ms));
		ssize_t n;

		if (bench_cancelled(io->cancel))
			return bench_fail(err, BENCH_E_INTERRUPTED, "interrupted");
		if (r < 0 && errno == EINTR)
			continue;
		if (r == 0 && slice_ended(deadline_ms))
			continue;
		if (r < 0)
			return bench_fail(err, BENCH_E_CONNECT, "poll on %s: %s", io->peer, strerror(errno));
		if (r == 0)
			return bench_fail(err, BENCH_E_TIMEOUT, "gdbserver %s did not answer in time", io->peer);
		n = recv(io->fd, io->buf, sizeof(io->buf), 0);
		if (n < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK))
			continue;
		if (n < 0)
			return bench_fail(err, BENCH_E_CONNECT, "connection to gdbserver %s lost: %s", io->peer,
			                  strerror(errno));
		if (n == 0)
			return bench_fail(err, BENCH_E_CONNECT, "gdbserver %s closed the connection", io->peer);
		io->pos = 0;
		io->len = (size_t)n;
	}
	return io->buf[io->pos++];
}
