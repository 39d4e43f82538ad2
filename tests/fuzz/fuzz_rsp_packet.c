/* libFuzzer target: the GDB remote protocol packet layer (host/transport/rsp_packet.c): the byte-at-a-
 * time frame parser ($...#cs, %...#cs notifications, run-length encoding, '}' escapes, acks) over
 * whatever a gdbserver might send, then the hex decoder on each payload. A payload that decodes is
 * encoded again and must parse back to the same bytes. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "transport/rsp_packet.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void roundtrip(const char *payload, size_t len)
{
	struct rsp_parser p;
	size_t cap = 2 * len + 8;
	char *wire = malloc(cap);
	size_t n;
	enum rsp_frame f = RSP_FRAME_NONE;

	if (!wire)
		return;
	n = rsp_packet_encode('$', payload, len, wire, cap);
	if (n && rsp_parser_init(&p, len + 16) == 0) {
		for (size_t i = 0; i < n; i++)
			f = rsp_parser_feed(&p, (uint8_t)wire[i]);
		if (f != RSP_FRAME_PACKET || p.len != len || memcmp(p.data, payload, len) != 0)
			__builtin_trap(); /* what we encode we must read back unchanged */
		rsp_parser_free(&p);
	}
	free(wire);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rsp_parser p;
	uint8_t bin[256];

	if (rsp_parser_init(&p, 4096))
		return 0;
	for (size_t i = 0; i < size; i++) {
		enum rsp_frame f = rsp_parser_feed(&p, data[i]);
		if (f == RSP_FRAME_PACKET || f == RSP_FRAME_NOTIFY) {
			size_t half = p.len / 2 < sizeof(bin) ? p.len / 2 : sizeof(bin);
			(void)rsp_hex_decode(p.data, bin, half);
			if (p.len < 1024)
				roundtrip(p.data, p.len);
		}
	}
	rsp_parser_free(&p);
	return 0;
}
