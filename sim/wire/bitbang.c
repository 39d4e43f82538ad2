/* remote_bitbang server side (see bitbang.h). The protocol and the client's buffering are OpenOCD
 * 0.12.0's src/jtag/drivers/remote_bitbang.c: remote_bitbang_queue() batches up to 512 bytes,
 * remote_bitbang_sample() queues 'R', remote_bitbang_read_sample() blocks for the replies; and
 * src/jtag/drivers/bitbang.c bitbang_scan(): write(0, tms, tdi), sample, write(1, tms, tdi) per bit,
 * so TDO is sampled while TCK is low, before the rising edge shifts it. */
#include "wire/bitbang.h"

#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

void bitbang_init(struct bitbang *bb, struct jtag_tap *tap, bitbang_reset_fn reset, void *reset_ctx)
{
	bb->tap = tap;
	bb->tck = false;
	bb->srst = false;
	bb->led = false;
	bb->reset = reset;
	bb->reset_ctx = reset_ctx;
	bb->stats = (struct bitbang_stats){0};
}

void bitbang_new_client(struct bitbang *bb)
{
	bb->tck = false;
	jtag_reset(bb->tap);
}

enum bitbang_status bitbang_feed(struct bitbang *bb, const uint8_t *in, size_t n, uint8_t *out, size_t *out_len,
                                 size_t *used)
{
	size_t o = 0;
	size_t i;
	enum bitbang_status st = BITBANG_OK;
	struct jtag_tap *tap = bb->tap;
	bool tck = bb->tck;
	uint64_t edges = 0, reads = 0;
	for (i = 0; i < n; i++) {
		uint8_t c = in[i];
		if (c >= '0' && c <= '7') {
			unsigned v = (unsigned)(c - '0');
			bool new_tck = v & 4u;
			if (new_tck && !tck) {
				jtag_clock(tap, v & 2u, v & 1u);
				edges++;
			}
			tck = new_tck;
		} else if (c == 'R') {
			out[o++] = jtag_tdo(tap) ? '1' : '0';
			reads++;
		} else if (c >= 'r' && c <= 'u') {
			unsigned v = (unsigned)(c - 'r');
			bool trst = v & 2u, srst = v & 1u;
			if (trst)
				jtag_reset(tap);
			bb->srst = srst;
			if (bb->reset)
				bb->reset(bb->reset_ctx, trst, srst);
		} else if (c == 'B' || c == 'b') {
			bb->led = c == 'B';
		} else if (c == 'Q') {
			i++;
			st = BITBANG_QUIT;
			break;
		} else {
			st = BITBANG_MALFORMED;
			break;
		}
	}
	bb->tck = tck;
	bb->stats.buffers++;
	bb->stats.bytes_in += i;
	bb->stats.tck_edges += edges;
	bb->stats.reads += reads;
	if (o > 0)
		bb->stats.round_trips++;
	*out_len = o;
	*used = i;
	return st;
}

static int set_cloexec_nonblock(int fd, bool nonblock)
{
	int fl = fcntl(fd, F_GETFD);
	if (fl < 0 || fcntl(fd, F_SETFD, fl | FD_CLOEXEC) < 0)
		return -1;
	fl = fcntl(fd, F_GETFL);
	if (fl < 0)
		return -1;
	fl = nonblock ? (fl | O_NONBLOCK) : (fl & ~O_NONBLOCK);
	return fcntl(fd, F_SETFL, fl);
}

int bitbang_listen_tcp(uint16_t port, uint16_t *bound, char *err, size_t errlen)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0) {
		(void)snprintf(err, errlen, "socket: %s", strerror(errno));
		return -1;
	}
	int one = 1;
	struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons(port)};
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK); /* never reachable from outside the machine */
	socklen_t salen = sizeof(sa);
	if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) < 0 ||
	    bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 || listen(fd, 4) < 0 ||
	    getsockname(fd, (struct sockaddr *)&sa, &salen) < 0 || set_cloexec_nonblock(fd, true) < 0) {
		(void)snprintf(err, errlen, "listening on 127.0.0.1:%u: %s", port, strerror(errno));
		close(fd);
		return -1;
	}
	*bound = ntohs(sa.sin_port);
	return fd;
}

int bitbang_listen_unix(const char *path, char *err, size_t errlen)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	if (strlen(path) >= sizeof(sa.sun_path)) {
		(void)snprintf(err, errlen, "socket path too long (max %zu bytes): %s", sizeof(sa.sun_path) - 1, path);
		return -1;
	}
	memcpy(sa.sun_path, path, strlen(path) + 1);
	/* A socket file left by an earlier run that died would make bind() fail with EADDRINUSE.
	 * Remove only a socket, never a regular file someone mistyped as the path. */
	struct stat stbuf;
	if (lstat(path, &stbuf) == 0) {
		if (!S_ISSOCK(stbuf.st_mode)) {
			(void)snprintf(err, errlen, "%s exists and is not a socket", path);
			return -1;
		}
		if (unlink(path) < 0) {
			(void)snprintf(err, errlen, "removing stale socket %s: %s", path, strerror(errno));
			return -1;
		}
	}
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);
	if (fd < 0) {
		(void)snprintf(err, errlen, "socket: %s", strerror(errno));
		return -1;
	}
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 || listen(fd, 4) < 0 ||
	    set_cloexec_nonblock(fd, true) < 0) {
		(void)snprintf(err, errlen, "listening on %s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

int bitbang_accept(int listen_fd)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	int fd = accept(listen_fd, (struct sockaddr *)&ss, &len);
	if (fd < 0)
		return -1;
	if (set_cloexec_nonblock(fd, false) < 0) {
		close(fd);
		return -1;
	}
	if (ss.ss_family == AF_INET) {
		/* One small reply per round trip: Nagle would hold each one back for the ACK. */
		int one = 1;
		if (setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)) < 0) {
			close(fd);
			return -1;
		}
	}
	return fd;
}

int bitbang_send_all(int fd, const uint8_t *buf, size_t len)
{
	/* One deadline for the whole reply, not one per send(): a client that reads a byte now and
	 * then must not hold the single-threaded simulator (core, control port) for longer either. */
	struct timespec t0;
	if (clock_gettime(CLOCK_MONOTONIC, &t0) < 0)
		return -1;
	while (len > 0) {
		ssize_t w = send(fd, buf, len, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (w >= 0) {
			buf += w;
			len -= (size_t)w;
			continue;
		}
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN && errno != EWOULDBLOCK)
			return -1;
		struct timespec now;
		if (clock_gettime(CLOCK_MONOTONIC, &now) < 0)
			return -1;
		long spent_ms = (now.tv_sec - t0.tv_sec) * 1000L + (now.tv_nsec - t0.tv_nsec) / 1000000L;
		if (spent_ms >= BITBANG_SEND_DEADLINE_MS) {
			errno = ETIMEDOUT;
			return -1;
		}
		struct pollfd pfd = {.fd = fd, .events = POLLOUT};
		if (poll(&pfd, 1, (int)(BITBANG_SEND_DEADLINE_MS - spent_ms)) < 0 && errno != EINTR)
			return -1;
	}
	return 0;
}
