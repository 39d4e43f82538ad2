/* stlink-server's TCP framing (see stlink_server.h). Request and reply sizes: OpenOCD 0.12
 * src/jtag/drivers/stlink_usb.c, stlink_tcp_open() (server version, refresh, device count and
 * info, open), stlink_tcp_close() and stlink_tcp_xfer_noerrcheck() (SEND_USB_CMD). */
#include "wire/stlink_server.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "bus/msg.h"
#include "wire/bitbang.h"

#define TCP_REFRESH_DEVICE_LIST 0x00u
#define TCP_GET_NB_DEV          0x01u
#define TCP_GET_DEV_INFO        0x02u
#define TCP_OPEN_DEV            0x03u
#define TCP_CLOSE_DEV           0x04u
#define TCP_SEND_USB_CMD        0x05u
#define TCP_GET_SERVER_VERSION  0x06u

#define SS_OK                0x00000001u
#define SS_BAD_PARAMETER     0x00001002u
#define SS_CMD_NOT_AVAILABLE 0x00001053u

#define DIR_WRITE 0u
#define DIR_READ  1u
#define DIR_SWO   3u

#define DEVICE_ID     1u
#define CONNECT_ID    0x5B1Du
#define SERVER_MAJOR  2u /* the stlink-server release whose API is 3 */
#define SERVER_MINOR  1u
#define SERVER_BUILD  1u
#define DEV_SERIAL    "BENCHSIM0000000000000001"
#define DEV_INFO_SIZE 45u

void stlink_server_init(struct stlink_server *s, struct stlink_probe *probe, bool quiet)
{
	s->listen_fd = -1;
	s->client = -1;
	s->quiet = quiet;
	s->opened = false;
	s->connect_id = 0;
	s->probe = probe;
	s->in_len = 0;
	s->stats = (struct stlink_server_stats){0};
}

int stlink_server_listen(struct stlink_server *s, uint16_t port, uint16_t *bound, char *err, size_t errlen)
{
	s->listen_fd = bitbang_listen_tcp(port, bound, err, errlen);
	return s->listen_fd < 0 ? -1 : 0;
}

/* why: the line to print for a plain disconnect (skipped under --quiet), or NULL when the caller
 * already printed the one line that says what the client did: one line per bad client. */
static void drop(struct stlink_server *s, const char *why)
{
	if (s->client < 0)
		return;
	if (why && !s->quiet)
		sim_msg("ST-LINK client %s; waiting for the next one", why);
	close(s->client);
	s->client = -1;
	s->in_len = 0;
	s->opened = false;
}

void stlink_server_accept(struct stlink_server *s)
{
	int fd = bitbang_accept(s->listen_fd);
	if (fd < 0)
		return;
	if (s->client >= 0) {
		sim_msg("a second ST-LINK client connected while one is active; refused (one debugger at a time)");
		close(fd);
		return;
	}
	s->client = fd;
	s->in_len = 0;
	s->opened = false;
	s->stats.clients++;
	/* stlink-server opens the USB device afresh for each client: the probe starts as after power-up. */
	stlink_probe_reset(s->probe);
	if (!s->quiet)
		sim_msg("ST-LINK client connected");
}

void stlink_server_close(struct stlink_server *s)
{
	if (s->client >= 0)
		close(s->client);
	if (s->listen_fd >= 0)
		close(s->listen_fd);
	s->client = s->listen_fd = -1;
}

static uint32_t get32(const uint8_t *b)
{
	return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static void put32(uint8_t *b, uint32_t v)
{
	b[0] = (uint8_t)v;
	b[1] = (uint8_t)(v >> 8);
	b[2] = (uint8_t)(v >> 16);
	b[3] = (uint8_t)(v >> 24);
}

/* How many bytes the request starting at in[0] needs, 0 when that is not known yet (a
 * SEND_USB_CMD header still arriving), or -1 when in[0] starts no request (*why says so). */
static long request_length(const struct stlink_server *s, const char **why)
{
	switch (s->in[0]) {
	case TCP_REFRESH_DEVICE_LIST:
		return 2;
	case TCP_GET_NB_DEV:
		return 1;
	case TCP_GET_DEV_INFO:
	case TCP_OPEN_DEV:
	case TCP_CLOSE_DEV:
		return 8;
	case TCP_GET_SERVER_VERSION:
		return 4;
	case TCP_SEND_USB_CMD:
		break;
	default:
		*why = "not a stlink-server request";
		return -1;
	}
	if (s->in_len < STLINK_TCP_HEADER)
		return 0;
	uint8_t dir = s->in[24];
	uint32_t size = get32(s->in + 28);
	if (dir != DIR_WRITE && dir != DIR_READ && dir != DIR_SWO) {
		*why = "a SEND_USB_CMD direction other than 0 (write), 1 (read) or 3 (SWO)";
		return -1;
	}
	if (dir == DIR_WRITE && size > STLINK_DATA_MAX) {
		*why = "a write larger than an ST-LINK's 6144-byte buffer";
		return -1;
	}
	if (dir != DIR_WRITE && size > STLINK_REPLY_MAX) {
		*why = "a read larger than any ST-LINK reply (9816 bytes)";
		return -1;
	}
	return (long)STLINK_TCP_HEADER + (dir == DIR_WRITE ? (long)size : 0);
}

/* SEND_USB_CMD: the probe executes the command; the reply is the status and, when reading, `size`
 * bytes (all of them even on error: the client reads them before the status). */
static size_t usb_command(struct stlink_server *s, const uint8_t *req, uint8_t *out)
{
	uint8_t dir = req[24];
	uint32_t size = get32(req + 28);
	uint32_t rlen = dir == DIR_WRITE ? 0 : size;
	memset(out, 0, 4u + rlen);
	if (!s->opened || get32(req + 4) != s->connect_id) {
		sim_msg("ST-LINK client sent a USB command without OPEN_DEV (connect id 0x%x); answered BAD_PARAMETER",
		        (unsigned)get32(req + 4));
		put32(out, SS_BAD_PARAMETER);
		return 4u + rlen;
	}
	put32(out, SS_OK);
	if (dir == DIR_SWO)
		return 4u + rlen; /* no SWO capture: zeros */
	const uint8_t *cmd = req + 8;
	if (stlink_execute(s->probe, cmd, req + STLINK_TCP_HEADER, dir == DIR_WRITE ? size : 0, out + 4, rlen) !=
	    STLINK_EXEC_OK)
		sim_msg("ST-LINK client sent command %02x %02x %02x %02x, not one this STLINK-V3 knows; answered 0x81 "
		        "(STLINK_DEBUG_ERR_FAULT)",
		        cmd[0], cmd[1], cmd[2], cmd[3]);
	return 4u + rlen;
}

/* Answers the complete request at req[0..len) into out; returns the reply's length. */
static size_t answer(struct stlink_server *s, const uint8_t *req, uint8_t *out)
{
	switch (req[0]) {
	case TCP_GET_SERVER_VERSION:
		put32(out, STLINK_SERVER_API);
		put32(out + 4, SERVER_MAJOR);
		put32(out + 8, SERVER_MINOR);
		put32(out + 12, SERVER_BUILD);
		return 16;
	case TCP_GET_NB_DEV:
		put32(out, 1);
		return 4;
	case TCP_GET_DEV_INFO:
		memset(out, 0, DEV_INFO_SIZE);
		put32(out, req[1] == 0 ? SS_OK : SS_BAD_PARAMETER);
		put32(out + 4, DEVICE_ID);
		memcpy(out + 8, DEV_SERIAL, sizeof(DEV_SERIAL) - 1);
		out[40] = (uint8_t)STLINK_VID;
		out[41] = (uint8_t)(STLINK_VID >> 8);
		out[42] = (uint8_t)STLINK_PID;
		out[43] = (uint8_t)(STLINK_PID >> 8);
		out[44] = 0; /* not in use by another client */
		return DEV_INFO_SIZE;
	case TCP_OPEN_DEV:
		s->opened = get32(req + 4) == DEVICE_ID;
		s->connect_id = CONNECT_ID;
		put32(out, s->opened ? SS_OK : SS_BAD_PARAMETER);
		put32(out + 4, s->opened ? CONNECT_ID : 0);
		return 8;
	case TCP_CLOSE_DEV:
		s->opened = false;
		put32(out, SS_OK);
		return 4;
	case TCP_REFRESH_DEVICE_LIST:
		put32(out, SS_OK);
		return 4;
	default:
		return usb_command(s, req, out);
	}
}

/* A reply could not be sent: the client left, or stopped reading (its socket buffer stayed full
 * for BITBANG_SEND_DEADLINE_MS). Dropping it keeps the core and the control port running. */
static bool send_failed(struct stlink_server *s)
{
	if (errno == ETIMEDOUT)
		sim_msg("ST-LINK client did not read its replies for %ld ms (it sends requests without reading the "
		        "answers); "
		        "dropped",
		        (long)BITBANG_SEND_DEADLINE_MS);
	else
		sim_msg("ST-LINK client: send: %s; dropped", strerror(errno));
	s->stats.dropped++;
	drop(s, NULL);
	return false;
}

bool stlink_server_serve(struct stlink_server *s, int flags)
{
	ssize_t n = recv(s->client, s->in + s->in_len, sizeof(s->in) - s->in_len, flags);
	if (n == 0 || (n < 0 && errno == ECONNRESET)) {
		if (s->in_len > 0)
			sim_msg(
			    "ST-LINK client disconnected in the middle of a command (%zu bytes of it received, command "
			    "0x%02x); dropped",
			    s->in_len, s->in[0]);
		drop(s, s->in_len > 0 ? NULL : "disconnected");
		return false;
	}
	if (n < 0) {
		if (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)
			return false;
		sim_msg("ST-LINK client: recv: %s; dropped", strerror(errno));
		drop(s, NULL);
		return false;
	}
	s->in_len += (size_t)n;
	size_t used = 0, out_len = 0;
	bool served = false;
	while (used < s->in_len) {
		const char *why = NULL;
		uint8_t *req = s->in + used;
		/* request_length() looks at s->in: move what is left to the front first. */
		if (used > 0) {
			memmove(s->in, req, s->in_len - used);
			s->in_len -= used;
			used = 0;
			req = s->in;
		}
		long need = request_length(s, &why);
		if (need < 0) {
			sim_msg("ST-LINK client: %s (first byte 0x%02x of %zu received); dropped", why, req[0],
			        s->in_len);
			put32(s->out + out_len, SS_CMD_NOT_AVAILABLE);
			(void)bitbang_send_all(s->client, s->out, out_len + 4);
			s->stats.dropped++;
			drop(s, NULL);
			return false;
		}
		if (need == 0 || (size_t)need > s->in_len)
			break; /* the rest of the request is still on its way */
		if (out_len + 4u + STLINK_REPLY_MAX > sizeof(s->out)) {
			/* A client that sends requests without reading replies: answer what we have first
			 * (bounded: send_failed() drops a client that does not take them in time). */
			if (bitbang_send_all(s->client, s->out, out_len) < 0)
				return send_failed(s);
			out_len = 0;
		}
		out_len += answer(s, req, s->out + out_len);
		s->stats.round_trips++;
		served = true;
		used = (size_t)need;
	}
	if (used > 0) {
		memmove(s->in, s->in + used, s->in_len - used);
		s->in_len -= used;
	}
	if (out_len > 0 && bitbang_send_all(s->client, s->out, out_len) < 0)
		return send_failed(s);
	return served;
}
