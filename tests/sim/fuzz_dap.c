/* libFuzzer target over the virtual board's debug port: arbitrary bytes from a "client" through
 * bitbang.c -> jtag.c -> dp.c -> ap.c onto a bus with RAM and the ROM table (dap_rig.h). Any byte
 * sequence must leave the units consistent: no crash, no sanitizer report, replies only for 'R',
 * parsing stopped exactly at a bad byte or 'Q'. Seeds: fixtures/ (a recorded OpenOCD session). */
#include <stddef.h>
#include <stdint.h>

#include "dap_rig.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rig *r = rig_new();
	static uint8_t out[1 << 16];
	size_t off = 0;
	/* Feed in chunks of varying size, as recv() may cut a stream anywhere. */
	while (off < size) {
		size_t chunk = 1 + (size_t)(data[off] % 97u) * 5u;
		if (chunk > size - off)
			chunk = size - off;
		size_t out_len = 0, used = 0;
		size_t reads = 0;
		for (size_t i = 0; i < chunk; i++)
			reads += data[off + i] == 'R';
		enum bitbang_status st = bitbang_feed(&r->bb, data + off, chunk, out, &out_len, &used);
		if (used > chunk || out_len > reads)
			abort();
		for (size_t i = 0; i < out_len; i++)
			if (out[i] != '0' && out[i] != '1')
				abort();
		if (st == BITBANG_OK && used != chunk)
			abort();
		if (st == BITBANG_QUIT && data[off + used - 1] != 'Q')
			abort();
		if (st != BITBANG_OK) {
			/* The server drops the client; the next one starts from Test-Logic-Reset. */
			bitbang_new_client(&r->bb);
			off += used + (st == BITBANG_MALFORMED);
			continue;
		}
		off += chunk;
	}
	if (r->tap.state >= JTAG_N_STATES)
		abort();
	free(r);
	return 0;
}
