/* ST's stlink-server, the TCP side, as OpenOCD 0.12's `st-link backend tcp PORT` and
 * `hla_stlink_backend tcp PORT` speak it (src/jtag/drivers/stlink_usb.c at v0.12.0:
 * STLINK_TCP_CMD_*, stlink_tcp_open(), stlink_tcp_send_cmd(), stlink_tcp_xfer_noerrcheck()), with
 * one STLINK-V3 attached (stlink_cmd.h). Each request gets one reply; little-endian throughout:
 *   0x06 GET_SERVER_VERSION  4 bytes -> 16: API version, major, minor, build (API 3: OpenOCD batches
 *                                           memory accesses with RW_MISC over TCP only from API 3)
 *   0x00 REFRESH_DEVICE_LIST 2 bytes -> 4: status
 *   0x01 GET_NB_DEV          1 byte  -> 4: number of ST-LINKs (1)
 *   0x02 GET_DEV_INFO        8 bytes -> 45: status, device id, 32-byte serial, VID, PID, in use
 *   0x03 OPEN_DEV            8 bytes -> 8: status, connect id
 *   0x04 CLOSE_DEV           8 bytes -> 4: status
 *   0x05 SEND_USB_CMD        32-byte header {0x05, 0, 0, 0, connect id, the 16-byte ST-LINK command,
 *                            direction (0 write, 1 read, 3 SWO), 0, 0, 0, size} + size bytes when
 *                            writing -> status + size bytes when reading
 * Status 1 is OK (STLINK_TCP_SS_OK). The client reads the whole reply before it looks at the status,
 * so an error reply still carries `size` bytes.
 *
 * bench-sim listens on 127.0.0.1 only and serves one client at a time; after it leaves the next
 * can connect. Bad input (not a command, a command larger than any ST-LINK accepts, a client gone
 * in the middle of one, a client that sends requests but stops reading the replies for
 * BITBANG_SEND_DEADLINE_MS) is one line on stderr and the client is dropped; an unknown ST-LINK command
 * inside SEND_USB_CMD is answered as the probe does (status 0x81) and the client stays. */
#ifndef SIM_STLINK_SERVER_H
#define SIM_STLINK_SERVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wire/stlink_cmd.h"

#define STLINK_TCP_HEADER   32u
#define STLINK_SERVER_IN    (STLINK_TCP_HEADER + STLINK_DATA_MAX)
#define STLINK_SERVER_OUT   (4u + STLINK_REPLY_MAX)
#define STLINK_SERVER_API   3u
#define STLINK_DEFAULT_PORT 7184u /* stlink-server's and OpenOCD's default */

struct stlink_server_stats {
	uint64_t round_trips; /* requests answered (each one client round trip) */
	uint64_t clients;     /* clients accepted */
	uint64_t dropped;     /* clients dropped for bad input or unread replies */
};

struct stlink_server {
	int listen_fd;
	int client;
	bool quiet; /* no informational lines (errors are still printed) */
	bool opened;
	uint32_t connect_id;
	struct stlink_probe *probe;
	size_t in_len;
	uint8_t in[STLINK_SERVER_IN];
	uint8_t out[STLINK_SERVER_OUT];
	struct stlink_server_stats stats;
};

void stlink_server_init(struct stlink_server *s, struct stlink_probe *probe, bool quiet);
/* Listens on 127.0.0.1:port (0: a free one, stored in *bound). 0, or -1 with a message in err. */
int stlink_server_listen(struct stlink_server *s, uint16_t port, uint16_t *bound, char *err, size_t errlen);
/* Accepts a pending connection; a second client while one is active is refused with a message. */
void stlink_server_accept(struct stlink_server *s);
/* Reads what the client sent (recv flags: 0, or MSG_DONTWAIT while spinning) and answers every
 * complete request. True when a request was answered and the client is still there. */
bool stlink_server_serve(struct stlink_server *s, int flags);
void stlink_server_close(struct stlink_server *s);

#endif /* SIM_STLINK_SERVER_H */
