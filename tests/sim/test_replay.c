/* Replays a recorded OpenOCD 0.12 session (fixtures/README.md) through bitbang.c -> jtag.c -> dp.c
 * -> ap.c and compares the replies with the recording. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#include <cmocka.h>

#include "dap_rig.h"

#define FIXTURE_DIR E2E_SOURCE_DIR "/tests/sim/fixtures/"

static uint8_t *load(const char *name, size_t *len)
{
	FILE *f = fopen(name, "rb");
	assert_non_null(f);
	static uint8_t buf[2][1 << 16];
	static int which;
	uint8_t *b = buf[which++ & 1];
	*len = fread(b, 1, sizeof(buf[0]), f);
	assert_int_equal(fclose(f), 0);
	return b;
}

/* Feeds `in` in chunks of `chunk` bytes (as recv() might cut it); returns replies in out. */
static size_t replay(struct rig *r, const uint8_t *in, size_t n, size_t chunk, uint8_t *out)
{
	size_t o = 0;
	for (size_t i = 0; i < n; i += chunk) {
		size_t len = n - i < chunk ? n - i : chunk;
		size_t out_len = 0, used = 0;
		enum bitbang_status st = bitbang_feed(&r->bb, in + i, len, out + o, &out_len, &used);
		o += out_len;
		if (st == BITBANG_QUIT) {
			assert_int_equal(i + used, n); /* 'Q' is the last byte */
			return o;
		}
		assert_int_equal(st, BITBANG_OK);
		assert_int_equal(used, len);
	}
	fail_msg("the recording does not end with Q");
	return o;
}

static void test_replay_init(void **state)
{
	(void)state;
	size_t n_in = 0, n_rec = 0;
	const uint8_t *in = load(FIXTURE_DIR "openocd-0.12-init.bin", &n_in);
	const uint8_t *rec = load(FIXTURE_DIR "openocd-0.12-init.replies", &n_rec);
	assert_int_equal(n_in, 18874);
	assert_int_equal(n_rec, 4948);
	static const size_t chunks[] = {1, 7, 512, 65536};
	for (size_t c = 0; c < sizeof(chunks) / sizeof(chunks[0]); c++) {
		struct rig *r = rig_new();
		static uint8_t out[1 << 16];
		size_t n_out = replay(r, in, n_in, chunks[c], out);
		assert_int_equal(n_out, n_rec);
		/* Identical for the first 1906 replies (chain scan, IDCODE, DAP power-up, MEM-AP set-up),
		 * then the first reply that carries a core register this rig's bus does not have. */
		size_t same = 0;
		while (same < n_out && out[same] == rec[same])
			same++;
		assert_int_equal(same, 1906);
		/* 122 DAP transactions in the recording; the same count here whatever the data. */
		assert_int_equal(dp_transactions(&r->dp), 122);
		/* Power-up requested with overrun detection (OpenOCD dap_dp_init()). */
		assert_int_equal(dp_ctrl_stat(&r->dp) & 0xF0000001u, 0xF0000001u);
		assert_int_equal(r->bb.stats.reads, 4948);
		free(r);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_replay_init),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
