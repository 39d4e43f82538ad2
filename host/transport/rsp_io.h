/* Byte I/O for the GDB remote protocol: one TCP connection, every read and write bounded by a
 * deadline (CLOCK_MONOTONIC milliseconds), so a silent or half-dead server can never hang us.
 * The lowest of the three RSP layers (rsp_io -> rsp_packet -> gdb_rsp). */
#ifndef HOST_TRANSPORT_RSP_IO_H
#define HOST_TRANSPORT_RSP_IO_H

#include <stddef.h>
#include <stdint.h>

#include "base/cancel.h"
#include "base/error.h"

struct rsp_io {
	int fd;
	uint8_t buf[4096]; /* bytes received but not yet consumed */
	size_t pos, len;
	char peer[96]; /* "127.0.0.1:3333", for messages */
	/* NULL or who decides that a wait stops early (BENCH_E_INTERRUPTED), asked between poll slices. */
	const struct bench_cancel *cancel;
};

/* Connects to "HOST:PORT" (":PORT" or "PORT" alone mean 127.0.0.1) within timeout_ms.
 * BENCH_E_CONNECT when nothing listens or the host is unknown, BENCH_E_USAGE for a bad string. */
int rsp_io_connect(struct rsp_io *io, const char *host_port, unsigned timeout_ms, struct bench_error *err);
/* Adopts an already connected stream socket (tests use a socketpair). */
void rsp_io_from_fd(struct rsp_io *io, int fd, const char *peer);
void rsp_io_close(struct rsp_io *io);

/* Writes all len bytes before deadline_ms; BENCH_E_CONNECT when the peer is gone,
 * BENCH_E_TIMEOUT when it stops reading. */
int rsp_io_write(struct rsp_io *io, const void *data, size_t len, uint64_t deadline_ms, struct bench_error *err);
/* Returns the next byte (0..255), or a negated bench_err: BENCH_E_TIMEOUT at the deadline,
 * BENCH_E_CONNECT when the peer closed the connection. */
int rsp_io_getc(struct rsp_io *io, uint64_t deadline_ms, struct bench_error *err);
/* Number of received bytes waiting in the buffer (no system call). */
size_t rsp_io_pending(const struct rsp_io *io);

#endif /* HOST_TRANSPORT_RSP_IO_H */
