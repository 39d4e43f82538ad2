/* OpenOCD's remote_bitbang wire protocol, the server side (OpenOCD 0.12.0
 * doc/manual/jtag/drivers/remote_bitbang.txt and src/jtag/drivers/remote_bitbang.c): one ASCII
 * byte per request,
 *   '0'-'7'  write TCK/TMS/TDI = bits 2/1/0 of (byte - '0')
 *   'R'      read: reply '0' or '1' with the TDO level
 *   'r'-'u'  reset: TRST/SRST = bits 1/0 of (byte - 'r')
 *   'B' 'b'  blink LED on / off
 *   'Q'      quit: the client closes the connection
 * The client queues up to 512 bytes, several reads among them, before it waits for the replies, so
 * a receive buffer is parsed whole and answered with one send (one round trip per buffer).
 * Also here: the listening sockets (TCP on 127.0.0.1 with TCP_NODELAY, and Unix-domain), shared
 * with the control interface. */
#ifndef SIM_BITBANG_H
#define SIM_BITBANG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wire/jtag.h"

enum bitbang_status {
	BITBANG_OK = 0,
	BITBANG_QUIT,      /* 'Q': everything before it was done; drop the client */
	BITBANG_MALFORMED, /* a byte outside the protocol; everything before it was done */
};

/* What to do on the reset requests: trst resets the TAP here already; srst is the chip's NRST. */
typedef void (*bitbang_reset_fn)(void *ctx, bool trst, bool srst);

struct bitbang_stats {
	uint64_t buffers; /* receive buffers parsed */
	uint64_t bytes_in;
	uint64_t round_trips; /* buffers that asked for TDO, so got a reply */
	uint64_t reads;       /* 'R' requests */
	uint64_t tck_edges;   /* rising edges of TCK */
};

struct bitbang {
	struct jtag_tap *tap;
	bool tck; /* the last TCK level written: the TAP clocks on 0 -> 1 */
	bool srst;
	bool led;
	bitbang_reset_fn reset;
	void *reset_ctx;
	struct bitbang_stats stats;
};

void bitbang_init(struct bitbang *bb, struct jtag_tap *tap, bitbang_reset_fn reset, void *reset_ctx);
/* A new client: TCK low, TAP in Test-Logic-Reset (a client that vanished mid-scan leaves nothing
 * behind; OpenOCD starts every session with a TMS reset sequence anyway). SRST is left as it is. */
void bitbang_new_client(struct bitbang *bb);

/* Parses in[0..n) and writes one reply byte per 'R' to out (room for n bytes), *out_len of them.
 * *used is how many input bytes were consumed: n, or on QUIT the bytes up to and including 'Q', or
 * on MALFORMED the offset of the bad byte. */
enum bitbang_status bitbang_feed(struct bitbang *bb, const uint8_t *in, size_t n, uint8_t *out, size_t *out_len,
                                 size_t *used);

/* Listening sockets (non-blocking, close-on-exec). Return the fd, or -1 with a message in err.
 * bitbang_listen_tcp binds 127.0.0.1:port (0: a free port) and stores the port in *bound. */
int bitbang_listen_tcp(uint16_t port, uint16_t *bound, char *err, size_t errlen);
/* Binds a Unix-domain stream socket at path, replacing a stale socket file left there. */
int bitbang_listen_unix(const char *path, char *err, size_t errlen);
/* Accepts one client (blocking, close-on-exec, TCP_NODELAY when TCP). -1 when none was pending. */
int bitbang_accept(int listen_fd);
/* Sends all of buf (MSG_NOSIGNAL) within BITBANG_SEND_DEADLINE_MS in all. 0, or -1 when the client
 * is gone, or with errno ETIMEDOUT when it did not take the bytes in time (it stopped reading). */
#define BITBANG_SEND_DEADLINE_MS 1000L
int bitbang_send_all(int fd, const uint8_t *buf, size_t len);

#endif /* SIM_BITBANG_H */
