/* The ST-LINK's transfer layer (stlink_priv.h): SWD transactions as the probe's firmware drives the
 * wire, MEM-AP memory transfers (ADIv5.2 C2.2/C2.6), and the hla core register access (Armv7-M ARM
 * C1.6: DHCSR, DCRSR, DCRDR). */
#include <string.h>

#include "wire/stlink_priv.h"

/* ---- SWD transactions, as the probe's firmware drives the wire ------------------------------- */

enum swdp_ack stlink_dp_read(struct stlink_probe *p, bool apndp, unsigned a, uint32_t *v)
{
	enum swdp_ack ack;
	unsigned tries = 0;
	do
		ack = swdp_read(p->dp, apndp, a, v);
	while (ack == SWDP_ACK_WAIT && ++tries < WAIT_RETRIES);
	return ack;
}

enum swdp_ack stlink_dp_write(struct stlink_probe *p, bool apndp, unsigned a, uint32_t v)
{
	enum swdp_ack ack;
	unsigned tries = 0;
	do
		ack = swdp_write(p->dp, apndp, a, v);
	while (ack == SWDP_ACK_WAIT && ++tries < WAIT_RETRIES);
	return ack;
}

static uint8_t ap_status(enum swdp_ack ack)
{
	return ack == SWDP_ACK_OK ? STLINK_OK : ack == SWDP_ACK_WAIT ? STLINK_SWD_AP_WAIT : STLINK_SWD_AP_FAULT;
}

uint8_t stlink_dp_status(enum swdp_ack ack)
{
	return ack == SWDP_ACK_OK ? STLINK_OK : ack == SWDP_ACK_WAIT ? STLINK_SWD_DP_WAIT : STLINK_SWD_DP_FAULT;
}

/* SELECT for AP `ap`, register bank of `reg` (ADIv5.2 B2.2.9), written only when it changes. */
static enum swdp_ack select_ap(struct stlink_probe *p, unsigned ap, unsigned reg)
{
	uint32_t sel = (uint32_t)ap << 24 | (reg & 0xF0u);
	if (p->dp->select == sel)
		return SWDP_ACK_OK;
	return stlink_dp_write(p, false, DP_REG_SELECT, sel);
}

uint8_t stlink_ap_reg_write(struct stlink_probe *p, unsigned ap, unsigned reg, uint32_t v)
{
	enum swdp_ack ack = select_ap(p, ap, reg);
	if (ack == SWDP_ACK_OK)
		ack = stlink_dp_write(p, true, reg & 0xCu, v);
	return ap_status(ack);
}

/* An AP read is posted (B4.1.3): the probe collects the value from RDBUFF. */
uint8_t stlink_ap_reg_read(struct stlink_probe *p, unsigned ap, unsigned reg, uint32_t *v)
{
	uint32_t posted;
	enum swdp_ack ack = select_ap(p, ap, reg);
	if (ack == SWDP_ACK_OK)
		ack = stlink_dp_read(p, true, reg & 0xCu, &posted);
	if (ack == SWDP_ACK_OK)
		ack = stlink_dp_read(p, false, DP_REG_RDBUFF, v);
	return ap_status(ack);
}

bool stlink_ap_is_open(const struct stlink_probe *p, unsigned ap)
{
	return ap < 256 && (p->ap_open[ap / 8] & (1u << (ap % 8))) != 0;
}

/* ---- memory transfers ------------------------------------------------------------------------ */

struct xfer {
	unsigned ap;
	uint32_t csw;  /* control bits from the command (CSW[31:8]); 0: CSW_DEFAULT */
	unsigned size; /* 1, 2 or 4 bytes per transfer */
	bool inc;
	uint32_t addr;
};

static uint8_t xfer_setup(struct stlink_probe *p, const struct xfer *x, uint32_t addr)
{
	uint32_t ctrl = x->csw ? (x->csw & CSW_CTRL_MASK) : CSW_DEFAULT;
	uint32_t size = x->size == 1 ? CSW_SIZE_8 : x->size == 2 ? CSW_SIZE_16 : CSW_SIZE_32;
	uint8_t st = stlink_ap_reg_write(p, x->ap, AP_REG_CSW_, ctrl | size | (x->inc ? CSW_INC : 0));
	if (st == STLINK_OK)
		st = stlink_ap_reg_write(p, x->ap, AP_REG_TAR_, addr);
	return st;
}

/* One DRW transfer and the check for its AHB error. On SWD an AP read is posted and a write is
 * buffered: the error shows as STICKYERR in CTRL/STAT (and FAULT for the next AP access), not in
 * this transfer's ACK. The probe attributes it to this transfer; the model reads the flag directly
 * where a probe would spend a CTRL/STAT read on the wire. */
static uint8_t drw(struct stlink_probe *p, unsigned ap, bool write, uint32_t *v)
{
	uint8_t st = write ? stlink_ap_reg_write(p, ap, AP_REG_DRW_, *v) : stlink_ap_reg_read(p, ap, AP_REG_DRW_, v);
	if (st == STLINK_OK && (p->dp->ctrl_stat & DP_CTRL_STICKY))
		st = STLINK_SWD_AP_FAULT;
	return st;
}

/* After the transfers the probe reports the first fault through GETLASTRWSTATUS and clears the
 * sticky flags with ABORT, so the next command finds a clean DP. */
static void xfer_finish(struct stlink_probe *p, uint8_t st, uint32_t fault_addr)
{
	uint32_t cs = 0;
	if (stlink_dp_read(p, false, DP_REG_CTRL_STAT, &cs) == SWDP_ACK_OK && (cs & DP_CTRL_STICKY) && st == STLINK_OK)
		st = STLINK_SWD_AP_FAULT;
	if (cs & DP_CTRL_STICKY)
		(void)stlink_dp_write(p, false, 0x0u,
		                      SWDP_ABORT_STKERRCLR | SWDP_ABORT_STKCMPCLR | SWDP_ABORT_ORUNERRCLR |
		                          SWDP_ABORT_WDERRCLR);
	p->rw_status = st;
	p->rw_fault_addr = st == STLINK_OK ? 0 : fault_addr;
	if (st != STLINK_OK)
		p->stats.mem_faults++;
}

/* CSW and TAR are written before the first transfer. TAR auto-increments within a 4 KiB block on
 * this AHB-AP (ap.c): a transfer crossing a block boundary writes TAR again there, as the probe
 * firmware does. */
static bool tar_reload(const struct xfer *x, uint32_t addr, bool first)
{
	return first || (x->inc && (addr & 0xFFFu) == 0);
}

static void mem_read(struct stlink_probe *p, const struct xfer *x, uint32_t n, uint8_t *out)
{
	uint8_t st = STLINK_OK;
	uint32_t addr = x->addr, i = 0;
	for (; i < n && st == STLINK_OK; i += x->size) {
		if (tar_reload(x, addr, i == 0))
			st = xfer_setup(p, x, addr);
		uint32_t v = 0;
		if (st == STLINK_OK)
			st = drw(p, x->ap, false, &v);
		if (st != STLINK_OK)
			break;
		/* Narrow reads come back in the byte lanes of the address (ADIv5.2 C2.2.6). */
		uint32_t lane = v >> (8 * (addr & (x->size == 4 ? 0u : 3u)));
		for (unsigned k = 0; k < x->size && i + k < n; k++)
			out[i + k] = (uint8_t)(lane >> (8 * k));
		if (x->inc)
			addr += x->size;
	}
	xfer_finish(p, st, addr);
}

static void mem_write(struct stlink_probe *p, const struct xfer *x, uint32_t n, const uint8_t *in)
{
	uint8_t st = STLINK_OK;
	uint32_t addr = x->addr, i = 0;
	for (; i + x->size <= n && st == STLINK_OK; i += x->size) {
		if (tar_reload(x, addr, i == 0))
			st = xfer_setup(p, x, addr);
		uint32_t v = 0;
		for (unsigned k = 0; k < x->size; k++)
			v |= (uint32_t)in[i + k] << (8 * k);
		v <<= 8 * (addr & (x->size == 4 ? 0u : 3u));
		if (st == STLINK_OK)
			st = drw(p, x->ap, true, &v);
		if (st != STLINK_OK)
			break;
		if (x->inc)
			addr += x->size;
	}
	xfer_finish(p, st, addr);
}

/* READMEM/WRITEMEM_{8,16,32}BIT and the 32-bit no-increment pair (stlink_usb_read_mem32() etc.):
 * address [2..5], length [6..7], AP [8], CSW[31:8] in [9..11]. */
void stlink_mem_command(struct stlink_probe *p, const uint8_t *cmd, unsigned size, bool inc, bool write,
                        const uint8_t *wdata, uint32_t wlen, uint8_t *reply, uint32_t rlen)
{
	struct xfer x = {.ap = cmd[8],
	                 .csw = ((uint32_t)cmd[9] | (uint32_t)cmd[10] << 8 | (uint32_t)cmd[11] << 16) << 8,
	                 .size = size,
	                 .inc = inc,
	                 .addr = get32(cmd + 2)};
	uint32_t len = get16(cmd + 6);
	uint32_t n = write ? (wlen < len ? wlen : len) : (rlen < len ? rlen : len);
	if (!stlink_ap_is_open(p, x.ap)) {
		p->rw_status = STLINK_BAD_AP_ERROR; /* firmware from V2J28 wants INIT_AP first */
		p->rw_fault_addr = x.addr;
		return;
	}
	if ((size > 1 && (x.addr % size || len % size)) || (size == 1 && len > MAX_RW8)) {
		p->rw_status = STLINK_FAULT; /* OpenOCD never sends these: it splits and aligns first */
		p->rw_fault_addr = x.addr;
		return;
	}
	if (write)
		mem_write(p, &x, n, wdata);
	else
		mem_read(p, &x, n, reply);
}

/* RW_MISC_OUT (stlink_usb_misc_rw_segment()): `items` command bytes padded to 4, then one 32-bit
 * value per item. The results wait for RW_MISC_IN. Each access is a 32-bit single transfer. */
void stlink_misc_out(struct stlink_probe *p, const uint8_t *cmd, const uint8_t *wdata, uint32_t wlen)
{
	uint32_t items = get32(cmd + 2);
	uint32_t vals = (items + 3u) & ~3u;
	p->misc_items = 0;
	p->stats.misc_batches++;
	if (items > STLINK_MISC_MAX_ITEMS || (uint64_t)vals + 4u * (uint64_t)items > wlen)
		return; /* RW_MISC_IN then reports every item as failed */
	unsigned ap = 0;
	uint32_t addr = 0, fault_addr = 0;
	uint8_t st = STLINK_OK;
	for (uint32_t i = 0; i < items; i++) {
		uint32_t v = get32(wdata + vals + 4 * i), out = 0;
		uint8_t e = STLINK_OK;
		switch (wdata[i]) {
		case MISC_APNUM:
			ap = v & 0xFFu;
			break;
		case MISC_ADDRESS:
			addr = v;
			break;
		case MISC_READ:
		case MISC_WRITE: {
			struct xfer x = {.ap = ap, .size = 4, .addr = wdata[i] == MISC_READ ? v : addr};
			if (!stlink_ap_is_open(p, ap))
				e = STLINK_BAD_AP_ERROR;
			else if ((e = xfer_setup(p, &x, x.addr)) == STLINK_OK) {
				out = v;
				e = drw(p, ap, wdata[i] == MISC_WRITE, &out);
				if (wdata[i] == MISC_WRITE)
					out = 0;
			}
			break;
		}
		default:
			e = STLINK_FAULT;
			break;
		}
		p->misc_val[i] = out;
		p->misc_err[i] = e;
		if (e != STLINK_OK && st == STLINK_OK) {
			st = e;
			fault_addr = wdata[i] == MISC_READ ? v : addr;
		}
	}
	p->misc_items = items;
	xfer_finish(p, st, fault_addr);
}

void stlink_misc_in(struct stlink_probe *p, uint8_t *reply, uint32_t rlen)
{
	uint32_t n = rlen / 8;
	for (uint32_t i = 0; i < n; i++) {
		bool have = i < p->misc_items;
		put32(reply, rlen, 4 * i, have ? p->misc_val[i] : 0);
		put32(reply, rlen, 4 * n + 4 * i, have ? p->misc_err[i] : STLINK_FAULT);
	}
}

/* ---- the probe's own Cortex-M debug (hla) ---------------------------------------------------- */

uint8_t stlink_word_read(struct stlink_probe *p, uint32_t addr, uint32_t *v)
{
	uint8_t b[4] = {0};
	struct xfer x = {.ap = 0, .size = 4, .inc = false, .addr = addr};
	*v = 0;
	mem_read(p, &x, 4, b);
	*v = get32(b);
	return p->rw_status;
}

uint8_t stlink_word_write(struct stlink_probe *p, uint32_t addr, uint32_t v)
{
	uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
	struct xfer x = {.ap = 0, .size = 4, .inc = false, .addr = addr};
	mem_write(p, &x, 4, b);
	return p->rw_status;
}

/* A core register through DCRSR/DCRDR (Armv7-M ARM C1.6.3, C1.6.4); REGSEL as OpenOCD's
 * armv7m regsel (0-15 R0-PC, 16 xPSR, 17 MSP, 18 PSP, 20 CONTROL/FAULTMASK/BASEPRI/PRIMASK,
 * 0x21 FPSCR, 0x40-0x5F S0-S31). The transfer has completed by the next access (S_REGRDY). */
uint8_t stlink_core_reg_read(struct stlink_probe *p, unsigned regsel, uint32_t *v)
{
	uint8_t st = stlink_word_write(p, DCRSR, regsel & 0x7Fu);
	return st == STLINK_OK ? stlink_word_read(p, DCRDR, v) : st;
}

uint8_t stlink_core_reg_write(struct stlink_probe *p, unsigned regsel, uint32_t v)
{
	uint8_t st = stlink_word_write(p, DCRDR, v);
	return st == STLINK_OK ? stlink_word_write(p, DCRSR, DCRSR_WNR | (regsel & 0x7Fu)) : st;
}

/* READALLREGS: R0-R15, xPSR, MSP, PSP, then the CONTROL/FAULTMASK/BASEPRI/PRIMASK word and one
 * word ST does not document (0 here); 21 words after the status (stlink_usb_read_regs(): 88
 * bytes). OpenOCD 0.12 reads registers one by one and never sends it. */
void stlink_read_all_regs(struct stlink_probe *p, uint8_t *reply, uint32_t rlen)
{
	static const uint8_t sel[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 20};
	uint8_t st = STLINK_OK;
	for (unsigned i = 0; i < sizeof(sel) && st == STLINK_OK; i++) {
		uint32_t v = 0;
		st = stlink_core_reg_read(p, sel[i], &v);
		put32(reply, rlen, 4 + 4 * i, v);
	}
	put8(reply, rlen, 0, st);
}
