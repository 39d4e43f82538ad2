/* Test rig for the debug port: a bus with 4 KiB of RAM at 0x20000000 and the ROM table, the
 * JTAG-DP with its AHB-AP, the TAP and the remote_bitbang parser, driven by byte streams built the
 * way OpenOCD 0.12's bitbang_scan() builds them (src/jtag/drivers/bitbang.c: per bit
 * write(0,tms,tdi), 'R' when capturing, write(1,tms,tdi)). Header-only: each test file is one
 * executable. */
#ifndef TESTS_SIM_DAP_RIG_H
#define TESTS_SIM_DAP_RIG_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dap/ap.h"
#include "wire/bitbang.h"
#include "bus/bus.h"
#include "dap/dp.h"
#include "wire/jtag.h"
#include "wire/jtag_dp.h"
#include "scs/romtable.h"

#define RIG_RAM_BASE 0x20000000u
#define RIG_RAM_SIZE 4096u

struct rig {
	struct sim_bus bus;
	uint8_t ram[RIG_RAM_SIZE];
	struct dp dp;
	struct jtag_tap tap;
	struct bitbang bb;
	uint8_t stream[8192];
	size_t len;
	int resets;
	int last_trst, last_srst;
};

static void rig_on_reset(void *ctx, bool trst, bool srst)
{
	struct rig *r = ctx;
	r->resets++;
	r->last_trst = trst;
	r->last_srst = srst;
}

static inline struct rig *rig_new(void)
{
	struct rig *r = calloc(1, sizeof(*r));
	if (!r)
		abort();
	bus_init(&r->bus);
	const struct bus_region ram = {.name = "ram", .base = RIG_RAM_BASE, .size = RIG_RAM_SIZE, .mem = r->ram};
	if (bus_add_region(&r->bus, &ram) != 0 || romtable_add(&r->bus) != 0)
		abort();
	dp_init(&r->dp, &r->bus);
	jtag_init(&r->tap, DP_IR_LEN, DP_IR_IDCODE, &dp_jtag_ops, &r->dp);
	bitbang_init(&r->bb, &r->tap, rig_on_reset, r);
	return r;
}

static inline void rig_put(struct rig *r, int tck, int tms, int tdi)
{
	if (r->len >= sizeof(r->stream))
		abort();
	r->stream[r->len++] = (uint8_t)('0' + (tck << 2 | tms << 1 | tdi));
}

/* One TCK cycle with this TMS and TDI; with `sample`, an 'R' while TCK is low. */
static inline void rig_bit(struct rig *r, int tms, int tdi, int sample)
{
	rig_put(r, 0, tms, tdi);
	if (sample) {
		if (r->len >= sizeof(r->stream))
			abort();
		r->stream[r->len++] = 'R';
	}
	rig_put(r, 1, tms, tdi);
}

/* Feeds the stream built so far as one buffer; returns the replies as bits, first reply in bit 0. */
static inline uint64_t rig_flush(struct rig *r, size_t *n_replies)
{
	uint8_t out[8192];
	size_t out_len = 0, used = 0;
	enum bitbang_status st = bitbang_feed(&r->bb, r->stream, r->len, out, &out_len, &used);
	if (st != BITBANG_OK || used != r->len)
		abort();
	r->len = 0;
	uint64_t v = 0;
	for (size_t i = 0; i < out_len && i < 64; i++)
		if (out[i] == '1')
			v |= (uint64_t)1 << i;
	if (n_replies)
		*n_replies = out_len;
	return v;
}

/* Five TMS=1 then one TMS=0: Test-Logic-Reset, then Run-Test/Idle (OpenOCD's jtag_add_tlr path). */
static inline void rig_reset_to_idle(struct rig *r)
{
	for (int i = 0; i < 5; i++)
		rig_bit(r, 1, 0, 0);
	rig_bit(r, 0, 0, 0);
	(void)rig_flush(r, NULL);
}

/* A whole scan from Run-Test/Idle back to Run-Test/Idle, as bitbang_scan() plus the state moves.
 * Returns the bits shifted out. */
static inline uint64_t rig_scan(struct rig *r, int ir, uint64_t value, unsigned bits)
{
	rig_bit(r, 1, 0, 0); /* Select-DR */
	if (ir)
		rig_bit(r, 1, 0, 0); /* Select-IR */
	rig_bit(r, 0, 0, 0);         /* Capture */
	rig_bit(r, 0, 0, 0);         /* Shift */
	for (unsigned i = 0; i < bits; i++)
		rig_bit(r, i == bits - 1, (int)((value >> i) & 1), 1); /* last bit moves to Exit1 */
	rig_bit(r, 1, 0, 0);                                           /* Update */
	rig_bit(r, 0, 0, 0);                                           /* Run-Test/Idle */
	size_t n = 0;
	uint64_t v = rig_flush(r, &n);
	if (n != bits)
		abort();
	return v;
}

static inline void rig_ir(struct rig *r, unsigned ir)
{
	(void)rig_scan(r, 1, ir, DP_IR_LEN);
}

/* One DPACC/APACC transaction; returns the 35 captured bits ({ReadResult, ACK}). */
static inline uint64_t rig_acc(struct rig *r, unsigned ir, int rnw, unsigned a, uint32_t data)
{
	if (r->tap.ir != ir)
		rig_ir(r, ir);
	uint64_t in = ((uint64_t)data << 3) | ((uint64_t)((a >> 2) & 3u) << 1) | (unsigned)rnw;
	return rig_scan(r, 0, in, 35);
}

/* A read as OpenOCD does it: the access, then RDBUFF to collect the posted result. */
static inline uint32_t rig_read(struct rig *r, unsigned ir, unsigned a)
{
	(void)rig_acc(r, ir, 1, a, 0);
	uint64_t v = rig_acc(r, DP_IR_DPACC, 1, DP_REG_RDBUFF, 0);
	if ((v & 7u) != DP_ACK_OK_FAULT)
		abort();
	return (uint32_t)(v >> 3);
}

static inline void rig_write(struct rig *r, unsigned ir, unsigned a, uint32_t data)
{
	uint64_t v = rig_acc(r, ir, 0, a, data);
	if ((v & 7u) != DP_ACK_OK_FAULT)
		abort();
}

/* Reset, power-up handshake (OpenOCD dap_dp_init()), SELECT AP 0 bank 0. */
static inline void rig_power_up(struct rig *r)
{
	rig_reset_to_idle(r);
	rig_write(r, DP_IR_DPACC, DP_REG_CTRL_STAT, DP_CTRL_CDBGPWRUPREQ | DP_CTRL_CSYSPWRUPREQ);
	rig_write(r, DP_IR_DPACC, DP_REG_SELECT, 0);
}

#endif /* TESTS_SIM_DAP_RIG_H */
