/* The JTAG-DP's scan chains as the TAP's data registers (see jtag_dp.h). */
#include "wire/jtag_dp.h"

#include "dap/dp.h"

static unsigned dr_length(void *ctx, unsigned ir)
{
	(void)ctx;
	return dp_scan_length(ir);
}

static uint64_t dr_capture(void *ctx, unsigned ir)
{
	return dp_scan_capture(ctx, ir);
}

static void dr_update(void *ctx, unsigned ir, uint64_t value)
{
	dp_scan_update(ctx, ir, value);
}

const struct jtag_dr_ops dp_jtag_ops = {
    .length = dr_length,
    .capture = dr_capture,
    .update = dr_update,
};
