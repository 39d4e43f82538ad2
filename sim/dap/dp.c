/* ARM JTAG-DP (see dp.h). References: ADIv5.2 (ARM IHI 0031C) B3.2 "JTAG-DP scan chains" (DPACC
 * and APACC, posted reads), B3.3 (ACK encodings), B2.2.1 ABORT, B2.2.2 CTRL/STAT, B2.2.6 RDBUFF,
 * B2.2.9 SELECT; OpenOCD 0.12 src/target/adi_v5_jtag.c for how the debugger drives them. */
#include "dap/dp.h"

#define DP_SCAN_BITS   35u
#define DP_IDCODE_BITS 32u

void dp_init(struct dp *dp, struct sim_bus *bus)
{
	ap_init(&dp->ap, bus);
	dp->stats = (struct dp_stats){0};
	dp_reset(dp);
}

void dp_reset(struct dp *dp)
{
	dp->ctrl_stat = 0;
	dp->select = 0;
	dp->read_result = 0;
	dp->scan_waited = false;
	dp->inject_wait = 0;
	ap_reset(&dp->ap);
}

void dp_inject_wait(struct dp *dp, unsigned n)
{
	dp->inject_wait = n;
}

uint32_t dp_ctrl_stat(const struct dp *dp)
{
	uint32_t v = dp->ctrl_stat;
	/* The power controller grants a request at once (B2.2.2, "Power control"): the virtual board
	 * is always powered, so each ACK simply mirrors its REQ. */
	if (v & DP_CTRL_CDBGPWRUPREQ)
		v |= DP_CTRL_CDBGPWRUPACK;
	if (v & DP_CTRL_CSYSPWRUPREQ)
		v |= DP_CTRL_CSYSPWRUPACK;
	if (v & DP_CTRL_CDBGRSTREQ)
		v |= DP_CTRL_CDBGRSTACK;
	return v;
}

uint64_t dp_transactions(const struct dp *dp)
{
	const struct dp_stats *s = &dp->stats;
	return s->dp_reads + s->dp_writes + s->ap_reads + s->ap_writes;
}

static void dp_reg_access(struct dp *dp, bool rnw, unsigned a, uint32_t data)
{
	if (rnw) {
		dp->stats.dp_reads++;
		switch (a) {
		case DP_REG_CTRL_STAT:
			dp->read_result = dp_ctrl_stat(dp);
			break;
		case DP_REG_SELECT:
			dp->read_result = dp->select;
			break;
		default:
			/* 0x0 is reserved on this DPv0 JTAG-DP, RDBUFF is RAZ (B2.2.6): a RDBUFF read only
			 * collects the previous result, which this scan shifted out already. */
			dp->read_result = 0;
			break;
		}
		return;
	}
	dp->stats.dp_writes++;
	switch (a) {
	case DP_REG_CTRL_STAT:
		dp->ctrl_stat = (data & DP_CTRL_WRITABLE) | (dp->ctrl_stat & DP_CTRL_STICKY & ~data);
		break;
	case DP_REG_SELECT:
		dp->select = data;
		break;
	default:
		break; /* 0x0 reserved, RDBUFF write ignored (B2.2.6) */
	}
}

void dp_ap_access(struct dp *dp, bool rnw, unsigned a, uint32_t data)
{
	unsigned apsel = dp->select >> 24;
	unsigned reg = (dp->select & 0xF0u) | a; /* SELECT.APBANKSEL, B2.2.9 */
	if (rnw)
		dp->stats.ap_reads++;
	else
		dp->stats.ap_writes++;
	enum ap_result r = AP_OK;
	uint32_t value = 0;
	if (!(dp_ctrl_stat(dp) & DP_CTRL_CDBGPWRUPACK)) {
		/* B2.2.2: with the debug domain powered down the AP is unreachable; the transfer is
		 * refused with a sticky error rather than silently ignored, so a debugger that forgot
		 * the power-up handshake sees it. */
		r = AP_FAULT;
	} else if (apsel != 0) {
		/* No AP there: reads as zero (an IDR of 0 ends OpenOCD's AP search), writes ignored. */
		r = AP_OK;
	} else if (rnw) {
		r = ap_read(&dp->ap, reg, &value);
	} else {
		r = ap_write(&dp->ap, reg, data);
	}
	if (rnw)
		dp->read_result = value;
	if (r != AP_OK) {
		dp->ctrl_stat |= DP_CTRL_STICKYERR;
		dp->stats.sticky_errors++;
	}
}

unsigned dp_scan_length(unsigned ir)
{
	switch (ir) {
	case DP_IR_ABORT:
	case DP_IR_DPACC:
	case DP_IR_APACC:
		return DP_SCAN_BITS;
	case DP_IR_IDCODE:
		return DP_IDCODE_BITS;
	default:
		return 1; /* BYPASS, and every unused instruction (B3.2: "behaves as BYPASS") */
	}
}

uint64_t dp_scan_capture(struct dp *dp, unsigned ir)
{
	switch (ir) {
	case DP_IR_IDCODE:
		return DP_IDCODE;
	case DP_IR_DPACC:
	case DP_IR_APACC:
		if (dp->inject_wait > 0) {
			dp->inject_wait--;
			dp->scan_waited = true;
			dp->stats.waits++;
			/* B2.2.2: with overrun detection on, a WAIT also sets STICKYORUN. */
			if (dp->ctrl_stat & DP_CTRL_ORUNDETECT)
				dp->ctrl_stat |= DP_CTRL_STICKYORUN;
			return DP_ACK_WAIT;
		}
		dp->scan_waited = false;
		return ((uint64_t)dp->read_result << 3) | DP_ACK_OK_FAULT;
	default:
		return 0; /* ABORT captures nothing defined; BYPASS captures 0 (1149.1 10.1.1) */
	}
}

void dp_scan_update(struct dp *dp, unsigned ir, uint64_t value)
{
	bool rnw = value & 1;
	unsigned a = (unsigned)((value >> 1) & 3u) << 2;
	uint32_t data = (uint32_t)(value >> 3);
	switch (ir) {
	case DP_IR_DPACC:
		if (!dp->scan_waited)
			dp_reg_access(dp, rnw, a, data);
		break;
	case DP_IR_APACC:
		if (!dp->scan_waited)
			dp_ap_access(dp, rnw, a, data);
		break;
	case DP_IR_ABORT:
		/* B2.2.1: on a JTAG-DP only DAPABORT (bit 0) is defined; it cancels the transfer in
		 * progress. The sticky flags are cleared through CTRL/STAT instead. */
		if (data & 1u) {
			dp->inject_wait = 0;
			dp->stats.aborts++;
		}
		break;
	default:
		break;
	}
	dp->scan_waited = false;
}
