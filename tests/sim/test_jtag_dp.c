/* Unit tests of the TAP (jtag.c), the remote_bitbang parser (bitbang.c) and the JTAG-DP (dp.c),
 * fed with byte streams in the form OpenOCD 0.12 sends them (see dap_rig.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "dap_rig.h"

static int setup(void **state)
{
	*state = rig_new();
	return 0;
}

static int teardown(void **state)
{
	free(*state);
	return 0;
}

static void test_tms_path_states(void **state)
{
	struct rig *r = *state;
	/* 1149.1 figure 6-1: from anywhere, five TMS=1 reach Test-Logic-Reset. */
	for (int i = 0; i < 5; i++)
		rig_bit(r, 1, 0, 0);
	(void)rig_flush(r, NULL);
	assert_int_equal(r->tap.state, JTAG_TEST_LOGIC_RESET);
	const int path[] = {0, 1, 0, 0, 1, 0, 1, 1, 1, 1, 0, 0, 1, 1, 1};
	const enum jtag_state want[] = {JTAG_RUN_TEST_IDLE, JTAG_SELECT_DR, JTAG_CAPTURE_DR, JTAG_SHIFT_DR,
	                                JTAG_EXIT1_DR,      JTAG_PAUSE_DR,  JTAG_EXIT2_DR,   JTAG_UPDATE_DR,
	                                JTAG_SELECT_DR,     JTAG_SELECT_IR, JTAG_CAPTURE_IR, JTAG_SHIFT_IR,
	                                JTAG_EXIT1_IR,      JTAG_UPDATE_IR, JTAG_SELECT_DR};
	for (size_t i = 0; i < sizeof(path) / sizeof(path[0]); i++) {
		rig_bit(r, path[i], 0, 0);
		(void)rig_flush(r, NULL);
		assert_string_equal(jtag_state_name(r->tap.state), jtag_state_name(want[i]));
	}
}

static void test_idcode_after_reset(void **state)
{
	struct rig *r = *state;
	rig_reset_to_idle(r);
	assert_int_equal(r->tap.ir, DP_IR_IDCODE);
	assert_int_equal(rig_scan(r, 0, 0, 32), 0x4BA00477u);
}

static void test_ir_capture_and_bypass(void **state)
{
	struct rig *r = *state;
	rig_reset_to_idle(r);
	/* The IR shifts out its capture value 0b0001 (1149.1 7.1.1). */
	assert_int_equal(rig_scan(r, 1, DP_IR_BYPASS, 4), 0x1);
	assert_int_equal(r->tap.ir, DP_IR_BYPASS);
	/* BYPASS is one bit long: 9 bits in come out one clock late, after the captured 0. */
	assert_int_equal(rig_scan(r, 0, 0xA5, 9), 0xA5u << 1);
	/* Unused instructions select BYPASS too (ADIv5.2 B3.2). */
	rig_ir(r, 0x3);
	assert_int_equal(rig_scan(r, 0, 0x3, 3), 0x6);
}

static void test_power_up_handshake(void **state)
{
	struct rig *r = *state;
	rig_reset_to_idle(r);
	assert_int_equal(rig_read(r, DP_IR_DPACC, DP_REG_CTRL_STAT), 0);
	rig_write(r, DP_IR_DPACC, DP_REG_CTRL_STAT, DP_CTRL_CDBGPWRUPREQ | DP_CTRL_CSYSPWRUPREQ);
	assert_int_equal(rig_read(r, DP_IR_DPACC, DP_REG_CTRL_STAT), 0xF0000000u);
	rig_write(r, DP_IR_DPACC, DP_REG_CTRL_STAT, DP_CTRL_CDBGPWRUPREQ | DP_CTRL_CSYSPWRUPREQ | DP_CTRL_ORUNDETECT);
	assert_int_equal(rig_read(r, DP_IR_DPACC, DP_REG_CTRL_STAT), 0xF0000001u);
	rig_write(r, DP_IR_DPACC, DP_REG_CTRL_STAT, DP_CTRL_CDBGRSTREQ | DP_CTRL_CDBGPWRUPREQ);
	assert_int_equal(rig_read(r, DP_IR_DPACC, DP_REG_CTRL_STAT), 0x3C000000u);
	rig_write(r, DP_IR_DPACC, DP_REG_SELECT, 0x000000F0u);
	assert_int_equal(rig_read(r, DP_IR_DPACC, DP_REG_SELECT), 0x000000F0u);
}

static void test_ap_access_unpowered_is_sticky(void **state)
{
	struct rig *r = *state;
	rig_reset_to_idle(r);
	rig_write(r, DP_IR_DPACC, DP_REG_SELECT, 0xF0);
	assert_int_equal(rig_read(r, DP_IR_APACC, AP_REG_IDR & 0xC), 0);
	assert_int_equal(rig_read(r, DP_IR_DPACC, DP_REG_CTRL_STAT), DP_CTRL_STICKYERR);
	/* Writing 1 clears it (W1C on a JTAG-DP, OpenOCD jtagdp_transaction_endcheck()). */
	rig_write(r, DP_IR_DPACC, DP_REG_CTRL_STAT, DP_CTRL_CDBGPWRUPREQ | DP_CTRL_CSYSPWRUPREQ | DP_CTRL_STICKYERR);
	assert_int_equal(rig_read(r, DP_IR_DPACC, DP_REG_CTRL_STAT), 0xF0000000u);
	assert_int_equal(rig_read(r, DP_IR_APACC, AP_REG_IDR & 0xC), AP_IDR_AHB_AP_M4);
	assert_int_equal(r->dp.stats.sticky_errors, 1);
}

static void test_posted_reads(void **state)
{
	struct rig *r = *state;
	rig_power_up(r);
	memcpy(r->ram, "\x11\x22\x33\x44\x55\x66\x77\x88", 8);
	rig_write(r, DP_IR_APACC, AP_REG_CSW, 0x23000052u); /* word, single increment */
	rig_write(r, DP_IR_APACC, AP_REG_TAR, RIG_RAM_BASE);
	/* The first DRW read shifts out the previous result (the TAR write left 0); each following
	 * scan shifts out the read before it (ADIv5.2 B3.2.2). */
	uint64_t c1 = rig_acc(r, DP_IR_APACC, 1, AP_REG_DRW, 0);
	uint64_t c2 = rig_acc(r, DP_IR_APACC, 1, AP_REG_DRW, 0);
	uint64_t c3 = rig_acc(r, DP_IR_DPACC, 1, DP_REG_RDBUFF, 0);
	uint64_t c4 = rig_acc(r, DP_IR_DPACC, 1, DP_REG_RDBUFF, 0);
	assert_int_equal(c1 & 7, DP_ACK_OK_FAULT);
	assert_int_equal(c2, ((uint64_t)0x44332211u << 3) | DP_ACK_OK_FAULT);
	assert_int_equal(c3, ((uint64_t)0x88776655u << 3) | DP_ACK_OK_FAULT);
	assert_int_equal(c4, DP_ACK_OK_FAULT); /* RDBUFF itself is RAZ */
	assert_int_equal(rig_read(r, DP_IR_APACC, AP_REG_TAR), RIG_RAM_BASE + 8);
	assert_int_equal(dp_transactions(&r->dp),
	                 r->dp.stats.dp_reads + r->dp.stats.dp_writes + r->dp.stats.ap_reads + r->dp.stats.ap_writes);
}

static void test_wait_ack_and_abort(void **state)
{
	struct rig *r = *state;
	rig_power_up(r);
	rig_write(r, DP_IR_DPACC, DP_REG_CTRL_STAT, DP_CTRL_CDBGPWRUPREQ | DP_CTRL_CSYSPWRUPREQ | DP_CTRL_ORUNDETECT);
	rig_write(r, DP_IR_APACC, AP_REG_CSW, 0x23000052u);
	dp_inject_wait(&r->dp, 2);
	/* A WAIT scan is not performed: the TAR write must not land. */
	assert_int_equal(rig_acc(r, DP_IR_APACC, 0, AP_REG_TAR, 0x20000100u) & 7, DP_ACK_WAIT);
	assert_int_equal(r->dp.ap.tar, 0);
	assert_int_equal(rig_acc(r, DP_IR_APACC, 0, AP_REG_TAR, 0x20000100u) & 7, DP_ACK_WAIT);
	assert_int_equal(rig_acc(r, DP_IR_APACC, 0, AP_REG_TAR, 0x20000100u) & 7, DP_ACK_OK_FAULT);
	assert_int_equal(r->dp.ap.tar, 0x20000100u);
	/* With ORUNDETECT, the WAITs set STICKYORUN. */
	assert_int_equal(rig_read(r, DP_IR_DPACC, DP_REG_CTRL_STAT), 0xF0000003u);
	assert_int_equal(r->dp.stats.waits, 2);
	/* DAPABORT cancels pending WAITs. */
	dp_inject_wait(&r->dp, 5);
	rig_ir(r, DP_IR_ABORT);
	(void)rig_scan(r, 0, (uint64_t)1 << 3, 35);
	assert_int_equal(r->dp.stats.aborts, 1);
	assert_int_equal(rig_read(r, DP_IR_APACC, AP_REG_TAR), 0x20000100u);
}

static void test_bitbang_protocol_bytes(void **state)
{
	struct rig *r = *state;
	uint8_t out[64];
	size_t out_len, used;
	/* Blink, resets (TRST resets the TAP), reads outside a shift state read 0. */
	const uint8_t ok[] = "Bb0R4R0stuRr";
	assert_int_equal(bitbang_feed(&r->bb, ok, sizeof(ok) - 1, out, &out_len, &used), BITBANG_OK);
	assert_int_equal(used, sizeof(ok) - 1);
	assert_int_equal(out_len, 3);
	assert_memory_equal(out, "000", 3);
	assert_int_equal(r->resets, 4);
	assert_int_equal(r->last_trst, 0);
	assert_int_equal(r->last_srst, 0);
	assert_false(r->bb.led);
	/* 'Q' ends the stream: bytes after it are not looked at. */
	const uint8_t quit[] = "0R4QR";
	assert_int_equal(bitbang_feed(&r->bb, quit, 5, out, &out_len, &used), BITBANG_QUIT);
	assert_int_equal(used, 4);
	assert_int_equal(out_len, 1);
	/* An unknown byte: everything before it was done, the offset names it. */
	const uint8_t bad[] = "0R4R\x00R";
	assert_int_equal(bitbang_feed(&r->bb, bad, 6, out, &out_len, &used), BITBANG_MALFORMED);
	assert_int_equal(used, 4);
	assert_int_equal(out_len, 2);
	const uint8_t bad2[] = "8";
	assert_int_equal(bitbang_feed(&r->bb, bad2, 1, out, &out_len, &used), BITBANG_MALFORMED);
	assert_int_equal(used, 0);
	/* The TAP clocks on rising TCK edges only: repeated highs are one edge. */
	uint64_t edges = r->bb.stats.tck_edges;
	const uint8_t levels[] = "04444000044";
	assert_int_equal(bitbang_feed(&r->bb, levels, 11, out, &out_len, &used), BITBANG_OK);
	assert_int_equal(r->bb.stats.tck_edges - edges, 2);
}

static void test_new_client_mid_scan(void **state)
{
	struct rig *r = *state;
	rig_reset_to_idle(r);
	rig_ir(r, DP_IR_DPACC);
	/* Leave the TAP in Shift-DR half way through a scan, as a client that vanished. */
	rig_bit(r, 1, 0, 0);
	rig_bit(r, 0, 0, 0);
	rig_bit(r, 0, 0, 0);
	for (int i = 0; i < 10; i++)
		rig_bit(r, 0, 1, 1);
	(void)rig_flush(r, NULL);
	assert_int_equal(r->tap.state, JTAG_SHIFT_DR);
	uint64_t before = dp_transactions(&r->dp);
	bitbang_new_client(&r->bb);
	assert_int_equal(r->tap.state, JTAG_TEST_LOGIC_RESET);
	assert_int_equal(dp_transactions(&r->dp), before); /* the half scan did nothing */
	rig_reset_to_idle(r);
	assert_int_equal(rig_scan(r, 0, 0, 32), DP_IDCODE);
}

static void test_round_trip_stats(void **state)
{
	struct rig *r = *state;
	rig_reset_to_idle(r);
	uint64_t rt = r->bb.stats.round_trips, bufs = r->bb.stats.buffers;
	(void)rig_scan(r, 0, 0, 32);
	(void)rig_scan(r, 0, 0, 32);
	assert_int_equal(r->bb.stats.round_trips - rt, 2);
	assert_int_equal(r->bb.stats.buffers - bufs, 2);
	rig_bit(r, 0, 0, 0);
	(void)rig_flush(r, NULL); /* no read: not a round trip */
	assert_int_equal(r->bb.stats.round_trips - rt, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_tms_path_states, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_idcode_after_reset, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_ir_capture_and_bypass, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_power_up_handshake, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_ap_access_unpowered_is_sticky, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_posted_reads, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_wait_ack_and_abort, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_bitbang_protocol_bytes, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_new_client_mid_scan, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_round_trip_stats, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
