/* Unit tests of the ST-LINK (wire/stlink_cmd.c), its SW-DP (dap/swdp.c) and stlink-server's TCP
 * framing (wire/stlink_server.c), fed with commands laid out as OpenOCD 0.12's stlink_usb.c builds
 * them, over a bus with 4 KiB of SRAM at 0x20000000 and nothing else (so core debug registers and
 * everything outside the SRAM fault). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "dap/swdp.h"
#include "wire/stlink_server.h"

#define SRAM 0x20000000u

struct rig {
	struct sim_bus bus;
	uint8_t sram[4096];
	struct dp dp;
	struct stlink_probe probe;
	uint8_t reply[256];
	int nrst_low, nrst_high;
};

static void on_nrst(void *ctx, bool asserted)
{
	struct rig *r = ctx;
	if (asserted)
		r->nrst_low++;
	else
		r->nrst_high++;
}

static int setup(void **state)
{
	struct rig *r = calloc(1, sizeof(*r));
	assert_non_null(r);
	bus_init(&r->bus);
	struct bus_region ram = {.name = "sram", .base = SRAM, .size = sizeof(r->sram), .mem = r->sram};
	assert_int_equal(bus_add_region(&r->bus, &ram), 0);
	dp_init(&r->dp, &r->bus);
	stlink_probe_init(&r->probe, &r->dp, on_nrst, r);
	*state = r;
	return 0;
}

static int teardown(void **state)
{
	free(*state);
	return 0;
}

/* Executes cmd (up to 16 bytes) reading rlen bytes; returns the reply. */
static const uint8_t *exec(struct rig *r, const uint8_t *cmd, size_t n, uint32_t rlen)
{
	uint8_t c[STLINK_CMD_SIZE] = {0};
	memcpy(c, cmd, n);
	memset(r->reply, 0, sizeof(r->reply));
	assert_int_equal(stlink_execute(&r->probe, c, NULL, 0, r->reply, rlen), STLINK_EXEC_OK);
	return r->reply;
}

static void exec_write(struct rig *r, const uint8_t *cmd, size_t n, const uint8_t *data, uint32_t len)
{
	uint8_t c[STLINK_CMD_SIZE] = {0};
	memcpy(c, cmd, n);
	assert_int_equal(stlink_execute(&r->probe, c, data, len, NULL, 0), STLINK_EXEC_OK);
}

static uint32_t le32(const uint8_t *b)
{
	return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

/* APIV2_ENTER SWD and INIT_AP 0, as stlink_usb_init_mode() and stlink_usb_open_ap() do. */
static void probe_connect(struct rig *r)
{
	const uint8_t enter[] = {0xF2, 0x30, 0xA3}, init_ap[] = {0xF2, 0x4B, 0};
	assert_int_equal(exec(r, enter, sizeof(enter), 2)[0], STLINK_OK);
	assert_int_equal(exec(r, init_ap, sizeof(init_ap), 2)[0], STLINK_OK);
}

/* READMEM/WRITEMEM command: op, address, length, AP 0, CSW 0. */
static size_t mem_cmd(uint8_t *c, uint8_t op, uint32_t addr, uint16_t len)
{
	c[0] = 0xF2, c[1] = op;
	c[2] = (uint8_t)addr, c[3] = (uint8_t)(addr >> 8), c[4] = (uint8_t)(addr >> 16), c[5] = (uint8_t)(addr >> 24);
	c[6] = (uint8_t)len, c[7] = (uint8_t)(len >> 8);
	return 12;
}

static void test_identity(void **state)
{
	struct rig *r = *state;
	const uint8_t ver[] = {0xF1}, ver_ex[] = {0xFB}, mode[] = {0xF5}, volt[] = {0xF7}, ids[] = {0xF2, 0x31};
	const uint8_t *p = exec(r, ver, 1, 6);
	assert_int_equal(p[0] >> 4, 3); /* V3: x = y = 0, ask GET_VERSION_EX */
	assert_int_equal(p[0] & 0xF, 0);
	p = exec(r, ver_ex, 1, 12);
	assert_int_equal(p[0], 3);
	assert_int_equal(p[2], 7); /* J7 */
	assert_int_equal(le32(p + 8), 0x374F0483u);
	assert_int_equal(exec(r, mode, 1, 2)[0], STLINK_DEV_MASS_MODE);
	p = exec(r, volt, 1, 8);
	assert_int_equal(le32(p), 1000);
	assert_int_equal(le32(p + 4), 1375);
	probe_connect(r);
	assert_int_equal(exec(r, mode, 1, 2)[0], STLINK_DEV_DEBUG_MODE);
	p = exec(r, ids, 2, 12);
	assert_int_equal(p[0], STLINK_OK);
	assert_int_equal(le32(p + 4), SWDP_DPIDR);
	/* Entering SWD powered the debug domains (hla relies on it). */
	const uint8_t ctrl[] = {0xF2, 0x45, 0xFF, 0xFF, 0x04, 0};
	assert_int_equal(le32(exec(r, ctrl, sizeof(ctrl), 8) + 4) & 0xA0000000u, 0xA0000000u);
	const uint8_t idr[] = {0xF2, 0x45, 0, 0, 0xFC, 0};
	assert_int_equal(le32(exec(r, idr, sizeof(idr), 8) + 4), AP_IDR_AHB_AP_M4);
	/* The JTAG mode of the probe is not modelled: a failed connect, not a silent success. */
	const uint8_t enter_jtag[] = {0xF2, 0x30, 0xA4};
	assert_int_equal(exec(r, enter_jtag, sizeof(enter_jtag), 2)[0], STLINK_FAULT);
}

static void test_memory(void **state)
{
	struct rig *r = *state;
	uint8_t c[16] = {0};
	const uint8_t words[8] = {0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88}, bytes[3] = {0xA1, 0xA2, 0xA3};
	const uint8_t status[] = {0xF2, 0x3E};
	/* Before INIT_AP the probe refuses AP memory access (firmware from V2J28). */
	const uint8_t enter[] = {0xF2, 0x30, 0xA3};
	exec(r, enter, sizeof(enter), 2);
	exec_write(r, c, mem_cmd(c, 0x08, SRAM, 8), words, 8);
	assert_int_equal(exec(r, status, 2, 12)[0], STLINK_BAD_AP_ERROR);
	probe_connect(r);
	exec_write(r, c, mem_cmd(c, 0x08, SRAM + 0x10, 8), words, 8);
	assert_int_equal(exec(r, status, 2, 12)[0], STLINK_OK);
	assert_memory_equal(r->sram + 0x10, words, 8);
	assert_memory_equal(exec(r, c, mem_cmd(c, 0x07, SRAM + 0x10, 8), 8), words, 8);
	/* 8-bit writes at an odd address, read back 16 bits at a time (byte lanes, C2.2.6). */
	exec_write(r, c, mem_cmd(c, 0x0D, SRAM + 0x21, 3), bytes, 3);
	const uint8_t *p = exec(r, c, mem_cmd(c, 0x47, SRAM + 0x20, 4), 4);
	assert_int_equal(p[0], 0);
	assert_memory_equal(p + 1, bytes, 3);
	/* A single byte is read as two (stlink_usb_read_mem8()'s read_len fix). */
	assert_int_equal(exec(r, c, mem_cmd(c, 0x0C, SRAM + 0x22, 1), 2)[0], 0xA2);
	/* 32-bit without increment: the same word twice. */
	p = exec(r, c, mem_cmd(c, 0x54, SRAM + 0x14, 8), 8);
	assert_int_equal(le32(p), 0x88776655u);
	assert_int_equal(le32(p + 4), 0x88776655u);
}

/* A faulting access: reported by GETLASTRWSTATUS2 with the address, STICKYERR cleared by the probe,
 * the next access works. */
static void test_fault(void **state)
{
	struct rig *r = *state;
	uint8_t c[16] = {0};
	const uint8_t status[] = {0xF2, 0x3E}, ctrl[] = {0xF2, 0x45, 0xFF, 0xFF, 0x04, 0};
	probe_connect(r);
	exec(r, c, mem_cmd(c, 0x07, 0x30000000u, 8), 8);
	const uint8_t *p = exec(r, status, 2, 12);
	assert_int_equal(p[0], STLINK_SWD_AP_FAULT);
	assert_int_equal(le32(p + 4), 0x30000000u);
	assert_int_equal(le32(exec(r, ctrl, sizeof(ctrl), 8) + 4) & DP_CTRL_STICKY, 0);
	assert_int_equal(r->probe.stats.mem_faults, 1);
	r->sram[0] = 0x5A;
	assert_int_equal(exec(r, c, mem_cmd(c, 0x07, SRAM, 4), 4)[0], 0x5A);
	assert_int_equal(exec(r, status, 2, 12)[0], STLINK_OK);
	/* hla's core register read needs DCRSR, absent here: the status says so. */
	const uint8_t readreg[] = {0xF2, 0x33, 15};
	assert_int_equal(exec(r, readreg, sizeof(readreg), 8)[0], STLINK_SWD_AP_FAULT);
}

/* RW_MISC_OUT then RW_MISC_IN (stlink_usb_misc_rw_segment()): APNUM, a write (ADDRESS + WRITE), a
 * read, and a read that faults. */
static void test_misc(void **state)
{
	struct rig *r = *state;
	probe_connect(r);
	enum { ITEMS = 6 };
	uint8_t out[8 + 4 * ITEMS] = {5, 1, 2, 3, 3, 3, 0, 0};
	const uint32_t vals[ITEMS] = {0, SRAM + 8, 0xCAFEF00Du, SRAM + 8, 0x40000000u, SRAM + 8};
	for (int i = 0; i < ITEMS; i++)
		for (int k = 0; k < 4; k++)
			out[8 + 4 * i + k] = (uint8_t)(vals[i] >> (8 * k));
	const uint8_t misc_out[] = {0xF2, 0x51, ITEMS, 0, 0, 0}, misc_in[] = {0xF2, 0x52};
	exec_write(r, misc_out, sizeof(misc_out), out, sizeof(out));
	const uint8_t *p = exec(r, misc_in, sizeof(misc_in), 8 * ITEMS);
	assert_int_equal(le32(p + 4 * 3), 0xCAFEF00Du);
	for (int i = 0; i < 4; i++)
		assert_int_equal(le32(p + 4 * ITEMS + 4 * i), STLINK_OK);
	assert_int_equal(le32(p + 4 * ITEMS + 4 * 4), STLINK_SWD_AP_FAULT);
	/* After the fault the SW-DP answers FAULT until the sticky flag is cleared: so does the item. */
	assert_int_not_equal(le32(p + 4 * ITEMS + 4 * 5), STLINK_OK);
	assert_int_equal(le32(r->sram + 8), 0xCAFEF00Du);
}

static void test_unknown_and_nrst(void **state)
{
	struct rig *r = *state;
	uint8_t c[STLINK_CMD_SIZE] = {0xF2, 0x99};
	assert_int_equal(stlink_execute(&r->probe, c, NULL, 0, r->reply, 2), STLINK_EXEC_UNKNOWN);
	assert_int_equal(r->reply[0], STLINK_FAULT);
	c[0] = 0xAB;
	assert_int_equal(stlink_execute(&r->probe, c, NULL, 0, r->reply, 2), STLINK_EXEC_UNKNOWN);
	assert_int_equal(r->probe.stats.unknown, 2);
	const uint8_t pulse[] = {0xF2, 0x3C, 2}, low[] = {0xF2, 0x3C, 0}, high[] = {0xF2, 0x3C, 1};
	exec(r, pulse, sizeof(pulse), 2);
	exec(r, low, sizeof(low), 2);
	exec(r, high, sizeof(high), 2);
	assert_int_equal(r->nrst_low, 2);
	assert_int_equal(r->nrst_high, 2);
}

/* SW-DP rules (ADIv5.2 B2.2, B4.2.3): sticky flags read-only in CTRL/STAT, cleared by ABORT, FAULT
 * for AP accesses meanwhile; RDBUFF collects the posted AP read. */
static void test_swdp(void **state)
{
	struct rig *r = *state;
	uint32_t v = 0;
	assert_int_equal(swdp_write(&r->dp, false, 0x4, DP_CTRL_CDBGPWRUPREQ | DP_CTRL_CSYSPWRUPREQ), SWDP_ACK_OK);
	assert_int_equal(swdp_read(&r->dp, true, 0xC, &v), SWDP_ACK_OK); /* DRW at TAR 0: unmapped */
	assert_int_equal(swdp_read(&r->dp, false, 0x4, &v), SWDP_ACK_OK);
	assert_true(v & DP_CTRL_STICKYERR);
	assert_int_equal(swdp_write(&r->dp, false, 0x4, v | DP_CTRL_STICKYERR), SWDP_ACK_FAULT);
	assert_int_equal(swdp_read(&r->dp, true, 0x0, &v), SWDP_ACK_FAULT);
	assert_int_equal(swdp_write(&r->dp, false, 0x0, SWDP_ABORT_STKERRCLR), SWDP_ACK_OK);
	assert_int_equal(swdp_read(&r->dp, false, 0x4, &v), SWDP_ACK_OK);
	assert_false(v & DP_CTRL_STICKYERR);
	assert_int_equal(swdp_write(&r->dp, false, 0x8, 0xF0u), SWDP_ACK_OK); /* SELECT bank 0xF */
	assert_int_equal(swdp_read(&r->dp, true, 0xC, &v), SWDP_ACK_OK);      /* IDR, posted */
	assert_int_equal(swdp_read(&r->dp, false, 0xC, &v), SWDP_ACK_OK);
	assert_int_equal(v, AP_IDR_AHB_AP_M4);
	assert_int_equal(swdp_read(&r->dp, false, 0x8, &v), SWDP_ACK_OK); /* RESEND */
	assert_int_equal(v, AP_IDR_AHB_AP_M4);
	r->dp.inject_wait = 1;
	assert_int_equal(swdp_read(&r->dp, true, 0xC, &v), SWDP_ACK_WAIT);
	assert_int_equal(swdp_read(&r->dp, false, 0x0, &v), SWDP_ACK_OK);
	assert_int_equal(v, SWDP_DPIDR);
}

/* The TCP framing over a socket pair: a request split across two sends is answered once whole;
 * a byte that starts no request drops the client with CMD_NOT_AVAILABLE. */
static void test_server(void **state)
{
	struct rig *r = *state;
	static struct stlink_server srv;
	int sv[2];
	uint8_t rep[64];
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	stlink_server_init(&srv, &r->probe, true);
	srv.client = sv[0];
	const uint8_t version[4] = {0x06, 0x01, 0, 0};
	assert_int_equal(send(sv[1], version, 2, 0), 2);
	assert_false(stlink_server_serve(&srv, 0)); /* half a request: nothing answered yet */
	assert_int_equal(send(sv[1], version + 2, 2, 0), 2);
	assert_true(stlink_server_serve(&srv, 0));
	assert_int_equal(recv(sv[1], rep, sizeof(rep), 0), 16);
	assert_int_equal(le32(rep), STLINK_SERVER_API);
	const uint8_t open_dev[8] = {0x03, 0, 0, 0, 1, 0, 0, 0};
	assert_int_equal(send(sv[1], open_dev, 8, 0), 8);
	assert_true(stlink_server_serve(&srv, 0));
	assert_int_equal(recv(sv[1], rep, sizeof(rep), 0), 8);
	assert_int_equal(le32(rep), 1);
	uint8_t usb[32] = {0x05, 0, 0, 0, rep[4], rep[5], rep[6], rep[7], 0xF5};
	usb[24] = 1, usb[28] = 2;
	assert_int_equal(send(sv[1], usb, 32, 0), 32);
	assert_true(stlink_server_serve(&srv, 0));
	assert_int_equal(recv(sv[1], rep, sizeof(rep), 0), 6);
	assert_int_equal(le32(rep), 1);
	assert_int_equal(rep[4], STLINK_DEV_MASS_MODE);
	assert_int_equal(send(sv[1], "\x42", 1, 0), 1);
	assert_false(stlink_server_serve(&srv, 0));
	assert_int_equal(srv.client, -1);
	assert_int_equal(recv(sv[1], rep, sizeof(rep), 0), 4);
	assert_int_equal(le32(rep), 0x1053u);
	assert_int_equal(recv(sv[1], rep, sizeof(rep), 0), 0); /* closed */
	close(sv[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_identity, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_memory, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_fault, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_misc, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_unknown_and_nrst, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_swdp, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_server, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
