/* SW-DP transactions (see swdp.h). References: ADIv5.2 (ARM IHI 0031C) B2.2 DP registers (ABORT
 * B2.2.1, CTRL/STAT B2.2.2, RESEND B2.2.5, RDBUFF B2.2.6, SELECT B2.2.9), B4.1.3 posted AP reads,
 * B4.2.2 ACK, B4.2.3 sticky flags and FAULT; RM0090 38.6.3 for the DPIDR. */
#include "dap/swdp.h"

#define SWDP_REG_DPIDR_ABORT 0x0u
#define SWDP_REG_RESEND      0x8u /* read: RESEND; write: SELECT */

/* An injected WAIT (control `dap-wait N`) answers this transaction and does nothing; with
 * CTRL/STAT.ORUNDETECT set it also sets STICKYORUN (B2.2.2), as on the JTAG-DP. */
static bool take_wait(struct dp *dp)
{
	if (dp->inject_wait == 0)
		return false;
	dp->inject_wait--;
	dp->stats.waits++;
	if (dp->ctrl_stat & DP_CTRL_ORUNDETECT)
		dp->ctrl_stat |= DP_CTRL_STICKYORUN;
	return true;
}

static bool sticky(const struct dp *dp)
{
	return (dp->ctrl_stat & DP_CTRL_STICKY) != 0;
}

enum swdp_ack swdp_read(struct dp *dp, bool apndp, unsigned a, uint32_t *value)
{
	*value = 0;
	if (apndp) {
		if (take_wait(dp))
			return SWDP_ACK_WAIT;
		if (sticky(dp))
			return SWDP_ACK_FAULT;
		/* B4.1.3: the AP read returns the previous result; this one waits in RDBUFF. */
		uint32_t previous = dp->read_result;
		dp_ap_access(dp, true, a, 0);
		*value = previous;
		return SWDP_ACK_OK;
	}
	/* DP reads never WAIT or FAULT for sticky flags: the debugger must be able to read
	 * CTRL/STAT to find out what went wrong (B4.2.3). */
	dp->stats.dp_reads++;
	switch (a) {
	case SWDP_REG_DPIDR_ABORT:
		*value = SWDP_DPIDR;
		break;
	case DP_REG_CTRL_STAT:
		*value = dp_ctrl_stat(dp);
		break;
	default: /* RESEND and RDBUFF: the last AP read's result (B2.2.5, B2.2.6) */
		*value = dp->read_result;
		break;
	}
	return SWDP_ACK_OK;
}

static void abort_write(struct dp *dp, uint32_t value)
{
	if (value & SWDP_ABORT_DAPABORT) {
		dp->inject_wait = 0;
		dp->stats.aborts++;
	}
	if (value & SWDP_ABORT_STKCMPCLR)
		dp->ctrl_stat &= ~DP_CTRL_STICKYCMP;
	if (value & SWDP_ABORT_STKERRCLR)
		dp->ctrl_stat &= ~DP_CTRL_STICKYERR;
	if (value & SWDP_ABORT_ORUNERRCLR)
		dp->ctrl_stat &= ~DP_CTRL_STICKYORUN;
	/* WDERRCLR: WDATAERR (a write-data parity error) cannot happen without a wire: nothing to clear. */
}

enum swdp_ack swdp_write(struct dp *dp, bool apndp, unsigned a, uint32_t value)
{
	if (!apndp && a == SWDP_REG_DPIDR_ABORT) {
		/* ABORT is always accepted, even with sticky flags set (B4.2.3). */
		dp->stats.dp_writes++;
		abort_write(dp, value);
		return SWDP_ACK_OK;
	}
	if (take_wait(dp))
		return SWDP_ACK_WAIT;
	if (sticky(dp))
		return SWDP_ACK_FAULT;
	if (apndp) {
		dp_ap_access(dp, false, a, value);
		return SWDP_ACK_OK;
	}
	dp->stats.dp_writes++;
	switch (a) {
	case DP_REG_CTRL_STAT:
		/* On a SW-DP the sticky flags are read-only here: ABORT clears them (B2.2.2). */
		dp->ctrl_stat = (value & DP_CTRL_WRITABLE) | (dp->ctrl_stat & DP_CTRL_STICKY);
		break;
	case SWDP_REG_RESEND:
		dp->select = value;
		break;
	default:
		break; /* RDBUFF: writes ignored (B2.2.6) */
	}
	return SWDP_ACK_OK;
}
