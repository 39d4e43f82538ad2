/* GDB remote protocol framing (GDB manual, appendix E.1 "Overview"): packets $payload#cs with a
 * modulo-256 checksum, '}' escapes (byte ^ 0x20), run-length encoding ("x*N": N-29 more copies of
 * x), '+'/'-' acknowledgements until QStartNoAckMode, and %notification#cs packets (E.9).
 * The parser is a pure byte-at-a-time state machine so it can be tested on recorded streams;
 * struct rsp_link adds acks and retransmission on top of rsp_io. */
#ifndef HOST_TRANSPORT_RSP_PACKET_H
#define HOST_TRANSPORT_RSP_PACKET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "transport/rsp_io.h"

enum rsp_frame {
	RSP_FRAME_NONE = 0, /* byte consumed, nothing complete yet */
	RSP_FRAME_ACK,      /* '+' */
	RSP_FRAME_NACK,     /* '-': the peer wants the last packet again */
	RSP_FRAME_PACKET,   /* $...#cs with a good checksum; payload in data/len */
	RSP_FRAME_NOTIFY,   /* %...#cs with a good checksum; payload in data/len */
	RSP_FRAME_BAD_CSUM, /* a complete packet whose checksum did not match */
	RSP_FRAME_ERROR,    /* a packet we cannot decode (too long, bad RLE count, bad hex); see msg */
};

struct rsp_parser {
	int state;
	bool notify;
	uint8_t sum, csum;
	char *data; /* decoded payload, NUL-terminated (binary replies may hold NULs: use len) */
	size_t len, cap, max;
	size_t garbage; /* bytes outside any packet since the last frame */
	char garbage_preview[33];
	char msg[128];
};

int rsp_parser_init(struct rsp_parser *p, size_t max_payload);
void rsp_parser_free(struct rsp_parser *p);
enum rsp_frame rsp_parser_feed(struct rsp_parser *p, uint8_t byte);

/* Frames payload as $payload#cs (or %...# when prefix is '%'), escaping '#', '$', '}' and '*'.
 * Returns the number of bytes written to out, 0 when outcap is too small (2*len + 4 always fits). */
size_t rsp_packet_encode(char prefix, const void *payload, size_t len, char *out, size_t outcap);

/* Lower-case hex of len bytes into out (2*len+1 bytes, NUL-terminated). */
void rsp_hex_encode(const void *data, size_t len, char *out);
/* Decodes exactly 2*len hex digits; -1 on a non-hex digit. */
int rsp_hex_decode(const char *hex, void *out, size_t len);

/* A connection with acknowledgements: the middle layer the commands in gdb_rsp.c use. */
struct rsp_link {
	struct rsp_io io;
	struct rsp_parser parser;
	bool noack;           /* after QStartNoAckMode: no '+'/'-' either way */
	unsigned timeout_ms;  /* per exchange */
	size_t notifications; /* %Stop and friends seen and skipped (we never enable non-stop mode) */
	char *out;            /* scratch for framing, 2*max+4 bytes */
	size_t outcap;
};

int rsp_link_init(struct rsp_link *l, size_t max_payload, unsigned timeout_ms, struct bench_error *err);
void rsp_link_free(struct rsp_link *l);
/* Sends one packet; unless noack, waits for '+' and resends on '-' (up to 3 times). */
int rsp_link_send(struct rsp_link *l, const void *payload, size_t len, struct bench_error *err);
/* Sends a bare byte outside any packet (0x03 interrupts a running target, E.8). */
int rsp_link_send_byte(struct rsp_link *l, uint8_t byte, struct bench_error *err);
/* Receives the next $packet before deadline_ms, acks it (unless noack), NAKs bad checksums and
 * skips notifications. The payload is in l->parser.data / l->parser.len until the next call.
 * BENCH_E_PROTOCOL when the stream is not the GDB protocol (the message quotes what came). */
int rsp_link_recv(struct rsp_link *l, uint64_t deadline_ms, struct bench_error *err);

#endif /* HOST_TRANSPORT_RSP_PACKET_H */
