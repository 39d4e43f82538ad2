/* The STLINK-V3 command set (see stlink_cmd.h). Command layouts and reply sizes: OpenOCD 0.12
 * src/jtag/drivers/stlink_usb.c (the function that builds each command is named beside it below).
 * Target accesses: ADIv5.2 (ARM IHI 0031C) MEM-AP C2.2/C2.6 through the SW-DP (dap/swdp.h); core
 * registers: Armv7-M ARM C1.6 (DHCSR, DCRSR, DCRDR). */
#include "wire/stlink_cmd.h"

#include <string.h>

#include "dap/swdp.h"

/* Commands (stlink_usb.c STLINK_*). */
#define CMD_GET_VERSION        0xF1u
#define CMD_DEBUG              0xF2u
#define CMD_DFU                0xF3u
#define CMD_GET_CURRENT_MODE   0xF5u
#define CMD_GET_TARGET_VOLTAGE 0xF7u
#define CMD_GET_VERSION_EX     0xFBu

#define DBG_GETSTATUS         0x01u
#define DBG_FORCEDEBUG        0x02u
#define DBG_READMEM_32BIT     0x07u
#define DBG_WRITEMEM_32BIT    0x08u
#define DBG_RUNCORE           0x09u
#define DBG_STEPCORE          0x0Au
#define DBG_READMEM_8BIT      0x0Cu
#define DBG_WRITEMEM_8BIT     0x0Du
#define DBG_EXIT              0x21u
#define DBG_APIV2_ENTER       0x30u
#define DBG_READ_IDCODES      0x31u
#define DBG_RESETSYS          0x32u
#define DBG_READREG           0x33u
#define DBG_WRITEREG          0x34u
#define DBG_WRITEDEBUGREG     0x35u
#define DBG_READDEBUGREG      0x36u
#define DBG_READALLREGS       0x3Au
#define DBG_GETLASTRWSTATUS   0x3Bu
#define DBG_DRIVE_NRST        0x3Cu
#define DBG_GETLASTRWSTATUS2  0x3Eu
#define DBG_START_TRACE_RX    0x40u
#define DBG_STOP_TRACE_RX     0x41u
#define DBG_GET_TRACE_NB      0x42u
#define DBG_SWD_SET_FREQ      0x43u
#define DBG_JTAG_SET_FREQ     0x44u
#define DBG_READ_DAP_REG      0x45u
#define DBG_WRITE_DAP_REG     0x46u
#define DBG_READMEM_16BIT     0x47u
#define DBG_WRITEMEM_16BIT    0x48u
#define DBG_INIT_AP           0x4Bu
#define DBG_CLOSE_AP_DBG      0x4Cu
#define DBG_WRITEMEM_32_NOINC 0x50u
#define DBG_RW_MISC_OUT       0x51u
#define DBG_RW_MISC_IN        0x52u
#define DBG_READMEM_32_NOINC  0x54u
#define DBG_SET_COM_FREQ      0x61u
#define DBG_GET_COM_FREQ      0x62u

#define ENTER_SWD_NO_RESET 0xA3u
#define DFU_EXIT           0x07u
#define DAP_PORT_DP        0xFFFFu /* STLINK_DEBUG_PORT_ACCESS */
#define NRST_LOW           0u
#define NRST_HIGH          1u
#define NRST_PULSE         2u

/* RW_MISC item kinds (stlink_usb.c RW_MISC_CMD_*). */
#define MISC_ADDRESS 1u
#define MISC_WRITE   2u
#define MISC_READ    3u
#define MISC_APNUM   5u

/* Version V3J7M3B5S1 (an STLINK-V3SET's): J7 >= J6 gives 512-byte 8-bit transfers, >= J2 CSW in
 * memory commands, RW_MISC and DP bank select (stlink_usb_version()). */
#define FW_STLINK 3u
#define FW_SWIM   1u
#define FW_JTAG   7u
#define FW_MSD    3u
#define FW_BRIDGE 5u
#define MAX_RW8   512u /* STLINKV3_MAX_RW8 */

/* A 3.3 V target: OpenOCD computes 2 * adc[1] * 1.2 / adc[0] (stlink_usb_check_voltage()). */
#define VREF_ADC   1000u
#define TARGET_ADC 1375u

/* MEM-AP and Cortex-M registers the probe uses. */
#define AP_REG_CSW_   0x00u
#define AP_REG_TAR_   0x04u
#define AP_REG_DRW_   0x0Cu
#define CSW_SIZE_8    0u
#define CSW_SIZE_16   1u
#define CSW_SIZE_32   2u
#define CSW_INC       (1u << 4)
#define CSW_CTRL_MASK 0xFFFFFF00u
/* When the command carries no CSW (hla, or csw 0): HPROT privileged data, MasterType debug,
 * DbgSwEnable, as OpenOCD's own csw_default for a Cortex-M (arm_adi_v5.h CSW_HPROT |
 * CSW_MASTER_DEBUG | CSW_DBGSWENABLE). */
#define CSW_DEFAULT 0xA2000000u

#define DHCSR          0xE000EDF0u
#define DCRSR          0xE000EDF4u
#define DCRDR          0xE000EDF8u
#define AIRCR          0xE000ED0Cu
#define DBGKEY         0xA05F0000u
#define C_DEBUGEN      (1u << 0)
#define C_HALT         (1u << 1)
#define C_STEP         (1u << 2)
#define C_MASKINTS     (1u << 3)
#define S_HALT         (1u << 17)
#define DCRSR_WNR      (1u << 16)
#define AIRCR_SYSRESET 0x05FA0004u /* VECTKEY | SYSRESETREQ (Armv7-M ARM B3.2.6) */

/* A WAIT answer is retried by the probe before it reports one: the AP may just be busy. */
#define WAIT_RETRIES 64u

/* SW-DP com frequencies an STLINK-V3 offers, kHz, fastest first (STLINK_APIV3_GET_COM_FREQ). */
static const uint32_t com_freqs_khz[] = {24000, 8000, 3300, 1000, 200, 50, 5};
#define N_COM_FREQS (sizeof(com_freqs_khz) / sizeof(com_freqs_khz[0]))

static uint16_t get16(const uint8_t *b)
{
	return (uint16_t)(b[0] | b[1] << 8);
}

static uint32_t get32(const uint8_t *b)
{
	return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

/* Stores v little-endian at reply[off] when it fits in the rlen bytes asked for. */
static void put32(uint8_t *reply, uint32_t rlen, uint32_t off, uint32_t v)
{
	for (unsigned i = 0; i < 4; i++)
		if (off + i < rlen)
			reply[off + i] = (uint8_t)(v >> (8 * i));
}

static void put8(uint8_t *reply, uint32_t rlen, uint32_t off, uint8_t v)
{
	if (off < rlen)
		reply[off] = v;
}

void stlink_probe_init(struct stlink_probe *p, struct dp *dp, stlink_nrst_fn nrst, void *nrst_ctx)
{
	memset(p, 0, sizeof(*p));
	p->dp = dp;
	p->nrst = nrst;
	p->nrst_ctx = nrst_ctx;
	stlink_probe_reset(p);
}

void stlink_probe_reset(struct stlink_probe *p)
{
	p->mode = STLINK_DEV_MASS_MODE;
	memset(p->ap_open, 0, sizeof(p->ap_open));
	p->rw_status = STLINK_OK;
	p->rw_fault_addr = 0;
	p->com_khz = com_freqs_khz[3];
	p->misc_items = 0;
}

/* ---- SWD transactions, as the probe's firmware drives the wire ------------------------------- */

static enum swdp_ack dp_read(struct stlink_probe *p, bool apndp, unsigned a, uint32_t *v)
{
	enum swdp_ack ack;
	unsigned tries = 0;
	do
		ack = swdp_read(p->dp, apndp, a, v);
	while (ack == SWDP_ACK_WAIT && ++tries < WAIT_RETRIES);
	return ack;
}

static enum swdp_ack dp_write(struct stlink_probe *p, bool apndp, unsigned a, uint32_t v)
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

static uint8_t dp_status(enum swdp_ack ack)
{
	return ack == SWDP_ACK_OK ? STLINK_OK : ack == SWDP_ACK_WAIT ? STLINK_SWD_DP_WAIT : STLINK_SWD_DP_FAULT;
}

/* SELECT for AP `ap`, register bank of `reg` (ADIv5.2 B2.2.9), written only when it changes. */
static enum swdp_ack select_ap(struct stlink_probe *p, unsigned ap, unsigned reg)
{
	uint32_t sel = (uint32_t)ap << 24 | (reg & 0xF0u);
	if (p->dp->select == sel)
		return SWDP_ACK_OK;
	return dp_write(p, false, DP_REG_SELECT, sel);
}

static uint8_t ap_reg_write(struct stlink_probe *p, unsigned ap, unsigned reg, uint32_t v)
{
	enum swdp_ack ack = select_ap(p, ap, reg);
	if (ack == SWDP_ACK_OK)
		ack = dp_write(p, true, reg & 0xCu, v);
	return ap_status(ack);
}

/* An AP read is posted (B4.1.3): the probe collects the value from RDBUFF. */
static uint8_t ap_reg_read(struct stlink_probe *p, unsigned ap, unsigned reg, uint32_t *v)
{
	uint32_t posted;
	enum swdp_ack ack = select_ap(p, ap, reg);
	if (ack == SWDP_ACK_OK)
		ack = dp_read(p, true, reg & 0xCu, &posted);
	if (ack == SWDP_ACK_OK)
		ack = dp_read(p, false, DP_REG_RDBUFF, v);
	return ap_status(ack);
}

static bool ap_is_open(const struct stlink_probe *p, unsigned ap)
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
	uint8_t st = ap_reg_write(p, x->ap, AP_REG_CSW_, ctrl | size | (x->inc ? CSW_INC : 0));
	if (st == STLINK_OK)
		st = ap_reg_write(p, x->ap, AP_REG_TAR_, addr);
	return st;
}

/* One DRW transfer and the check for its AHB error. On SWD an AP read is posted and a write is
 * buffered: the error shows as STICKYERR in CTRL/STAT (and FAULT for the next AP access), not in
 * this transfer's ACK. The probe attributes it to this transfer; the model reads the flag directly
 * where a probe would spend a CTRL/STAT read on the wire. */
static uint8_t drw(struct stlink_probe *p, unsigned ap, bool write, uint32_t *v)
{
	uint8_t st = write ? ap_reg_write(p, ap, AP_REG_DRW_, *v) : ap_reg_read(p, ap, AP_REG_DRW_, v);
	if (st == STLINK_OK && (p->dp->ctrl_stat & DP_CTRL_STICKY))
		st = STLINK_SWD_AP_FAULT;
	return st;
}

/* After the transfers the probe reports the first fault through GETLASTRWSTATUS and clears the
 * sticky flags with ABORT, so the next command finds a clean DP. */
static void xfer_finish(struct stlink_probe *p, uint8_t st, uint32_t fault_addr)
{
	uint32_t cs = 0;
	if (dp_read(p, false, DP_REG_CTRL_STAT, &cs) == SWDP_ACK_OK && (cs & DP_CTRL_STICKY) && st == STLINK_OK)
		st = STLINK_SWD_AP_FAULT;
	if (cs & DP_CTRL_STICKY)
		(void)dp_write(p, false, 0x0u,
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
static void mem_command(struct stlink_probe *p, const uint8_t *cmd, unsigned size, bool inc, bool write,
                        const uint8_t *wdata, uint32_t wlen, uint8_t *reply, uint32_t rlen)
{
	struct xfer x = {.ap = cmd[8],
	                 .csw = ((uint32_t)cmd[9] | (uint32_t)cmd[10] << 8 | (uint32_t)cmd[11] << 16) << 8,
	                 .size = size,
	                 .inc = inc,
	                 .addr = get32(cmd + 2)};
	uint32_t len = get16(cmd + 6);
	uint32_t n = write ? (wlen < len ? wlen : len) : (rlen < len ? rlen : len);
	if (!ap_is_open(p, x.ap)) {
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
static void misc_out(struct stlink_probe *p, const uint8_t *cmd, const uint8_t *wdata, uint32_t wlen)
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
			if (!ap_is_open(p, ap))
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

static void misc_in(struct stlink_probe *p, uint8_t *reply, uint32_t rlen)
{
	uint32_t n = rlen / 8;
	for (uint32_t i = 0; i < n; i++) {
		bool have = i < p->misc_items;
		put32(reply, rlen, 4 * i, have ? p->misc_val[i] : 0);
		put32(reply, rlen, 4 * n + 4 * i, have ? p->misc_err[i] : STLINK_FAULT);
	}
}

/* ---- the probe's own Cortex-M debug (hla) ---------------------------------------------------- */

static uint8_t word_read(struct stlink_probe *p, uint32_t addr, uint32_t *v)
{
	uint8_t b[4] = {0};
	struct xfer x = {.ap = 0, .size = 4, .inc = false, .addr = addr};
	*v = 0;
	mem_read(p, &x, 4, b);
	*v = get32(b);
	return p->rw_status;
}

static uint8_t word_write(struct stlink_probe *p, uint32_t addr, uint32_t v)
{
	uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
	struct xfer x = {.ap = 0, .size = 4, .inc = false, .addr = addr};
	mem_write(p, &x, 4, b);
	return p->rw_status;
}

/* A core register through DCRSR/DCRDR (Armv7-M ARM C1.6.3, C1.6.4); REGSEL as OpenOCD's
 * armv7m regsel (0-15 R0-PC, 16 xPSR, 17 MSP, 18 PSP, 20 CONTROL/FAULTMASK/BASEPRI/PRIMASK,
 * 0x21 FPSCR, 0x40-0x5F S0-S31). The transfer has completed by the next access (S_REGRDY). */
static uint8_t core_reg_read(struct stlink_probe *p, unsigned regsel, uint32_t *v)
{
	uint8_t st = word_write(p, DCRSR, regsel & 0x7Fu);
	return st == STLINK_OK ? word_read(p, DCRDR, v) : st;
}

static uint8_t core_reg_write(struct stlink_probe *p, unsigned regsel, uint32_t v)
{
	uint8_t st = word_write(p, DCRDR, v);
	return st == STLINK_OK ? word_write(p, DCRSR, DCRSR_WNR | (regsel & 0x7Fu)) : st;
}

/* READALLREGS: R0-R15, xPSR, MSP, PSP, then the CONTROL/FAULTMASK/BASEPRI/PRIMASK word and one
 * word ST does not document (0 here); 21 words after the status (stlink_usb_read_regs(): 88
 * bytes). OpenOCD 0.12 reads registers one by one and never sends it. */
static void read_all_regs(struct stlink_probe *p, uint8_t *reply, uint32_t rlen)
{
	static const uint8_t sel[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 20};
	uint8_t st = STLINK_OK;
	for (unsigned i = 0; i < sizeof(sel) && st == STLINK_OK; i++) {
		uint32_t v = 0;
		st = core_reg_read(p, sel[i], &v);
		put32(reply, rlen, 4 + 4 * i, v);
	}
	put8(reply, rlen, 0, st);
}

/* ---- mode, identity, clocks ------------------------------------------------------------------ */

/* APIV2_ENTER in SWD: the firmware's connect sequence leaves the DP clean and powered (which
 * hla relies on: it never touches DP registers), ABORT clearing what an earlier session left. */
static uint8_t enter_swd(struct stlink_probe *p)
{
	enum swdp_ack ack = dp_write(
	    p, false, 0x0u, SWDP_ABORT_STKERRCLR | SWDP_ABORT_STKCMPCLR | SWDP_ABORT_ORUNERRCLR | SWDP_ABORT_WDERRCLR);
	if (ack == SWDP_ACK_OK)
		ack = dp_write(p, false, DP_REG_CTRL_STAT, DP_CTRL_CDBGPWRUPREQ | DP_CTRL_CSYSPWRUPREQ);
	if (ack == SWDP_ACK_OK)
		p->mode = STLINK_DEV_DEBUG_MODE;
	return dp_status(ack);
}

static void get_com_freq(uint8_t *reply, uint32_t rlen)
{
	put8(reply, rlen, 0, STLINK_OK);
	put8(reply, rlen, 8, (uint8_t)N_COM_FREQS);
	for (unsigned i = 0; i < N_COM_FREQS; i++)
		put32(reply, rlen, 12 + 4 * i, com_freqs_khz[i]);
}

/* SET_COM_FREQ: the fastest offered frequency not above the request (or the slowest). */
static void set_com_freq(struct stlink_probe *p, const uint8_t *cmd, uint8_t *reply, uint32_t rlen)
{
	uint32_t want = get32(cmd + 4);
	p->com_khz = com_freqs_khz[N_COM_FREQS - 1];
	for (unsigned i = 0; i < N_COM_FREQS; i++)
		if (com_freqs_khz[i] <= want) {
			p->com_khz = com_freqs_khz[i];
			break;
		}
	put8(reply, rlen, 0, STLINK_OK);
	put32(reply, rlen, 4, p->com_khz);
}

static void drive_nrst(struct stlink_probe *p, unsigned how)
{
	if (!p->nrst)
		return;
	if (how == NRST_LOW || how == NRST_PULSE)
		p->nrst(p->nrst_ctx, true);
	if (how == NRST_HIGH || how == NRST_PULSE)
		p->nrst(p->nrst_ctx, false);
}

static void dap_reg_read(struct stlink_probe *p, const uint8_t *cmd, uint8_t *reply, uint32_t rlen)
{
	unsigned port = get16(cmd + 2), addr = get16(cmd + 4);
	uint32_t v = 0;
	uint8_t st;
	if (port == DAP_PORT_DP)
		st = dp_status(dp_read(p, false, addr & 0xCu, &v));
	else if (port > 255 || (!ap_is_open(p, port) && addr != 0xFCu)) /* IDR: probing needs no INIT_AP */
		st = STLINK_BAD_AP_ERROR;
	else
		st = ap_reg_read(p, port, addr & 0xFCu, &v);
	put8(reply, rlen, 0, st);
	put32(reply, rlen, 4, v);
}

static uint8_t dap_reg_write(struct stlink_probe *p, const uint8_t *cmd)
{
	unsigned port = get16(cmd + 2), addr = get16(cmd + 4);
	uint32_t v = get32(cmd + 6);
	if (port == DAP_PORT_DP)
		return dp_status(dp_write(p, false, addr & 0xCu, v));
	if (port > 255 || !ap_is_open(p, port))
		return STLINK_BAD_AP_ERROR;
	return ap_reg_write(p, port, addr & 0xFCu, v);
}

static void set_ap_open(struct stlink_probe *p, unsigned ap, bool open)
{
	if (open)
		p->ap_open[ap / 8] |= (uint8_t)(1u << (ap % 8));
	else
		p->ap_open[ap / 8] &= (uint8_t) ~(1u << (ap % 8));
}

/* 0xF2 commands that only return a status byte (or none). Returns false when cmd[1] is not one. */
static bool debug_status_command(struct stlink_probe *p, const uint8_t *cmd, uint8_t *st)
{
	uint32_t v = 0;
	switch (cmd[1]) {
	case DBG_EXIT:
		p->mode = STLINK_DEV_MASS_MODE;
		memset(p->ap_open, 0, sizeof(p->ap_open)); /* leaving debug mode closes every AP */
		break;
	case DBG_APIV2_ENTER:
		/* Only SWD is modelled: JTAG through the probe (0xA4) is answered as a failed connect. */
		*st = cmd[2] == ENTER_SWD_NO_RESET ? enter_swd(p) : STLINK_FAULT;
		break;
	case DBG_RESETSYS:
		*st = word_write(p, AIRCR, AIRCR_SYSRESET);
		break;
	case DBG_FORCEDEBUG:
		*st = word_write(p, DHCSR, DBGKEY | C_HALT | C_DEBUGEN);
		break;
	case DBG_RUNCORE:
		*st = word_write(p, DHCSR, DBGKEY | C_DEBUGEN);
		break;
	case DBG_STEPCORE:
		*st = word_write(p, DHCSR, DBGKEY | C_STEP | C_MASKINTS | C_DEBUGEN);
		break;
	case DBG_WRITEREG:
		*st = core_reg_write(p, cmd[2], get32(cmd + 3));
		break;
	case DBG_WRITEDEBUGREG:
		*st = word_write(p, get32(cmd + 2), get32(cmd + 6));
		break;
	case DBG_WRITE_DAP_REG:
		*st = dap_reg_write(p, cmd);
		break;
	case DBG_DRIVE_NRST:
		drive_nrst(p, cmd[2]);
		break;
	case DBG_INIT_AP:
	case DBG_CLOSE_AP_DBG:
		set_ap_open(p, cmd[2], cmd[1] == DBG_INIT_AP);
		break;
	case DBG_GETLASTRWSTATUS:
		*st = p->rw_status;
		break;
	case DBG_GETSTATUS:
		*st = word_read(p, DHCSR, &v) == STLINK_OK && (v & S_HALT) ? STLINK_CORE_HALTED : STLINK_CORE_RUNNING;
		break;
	case DBG_SWD_SET_FREQ:
	case DBG_JTAG_SET_FREQ:
	case DBG_START_TRACE_RX:
	case DBG_STOP_TRACE_RX:
		break;
	default:
		return false;
	}
	return true;
}

static enum stlink_exec debug_command(struct stlink_probe *p, const uint8_t *cmd, const uint8_t *wdata, uint32_t wlen,
                                      uint8_t *reply, uint32_t rlen)
{
	uint32_t v = 0;
	uint8_t st = STLINK_OK;
	switch (cmd[1]) {
	case DBG_READ_IDCODES:
		put32(reply, rlen, 4, dp_read(p, false, 0x0u, &v) == SWDP_ACK_OK ? v : 0);
		break;
	case DBG_READREG:
		st = core_reg_read(p, cmd[2], &v);
		put32(reply, rlen, 4, v);
		break;
	case DBG_READDEBUGREG:
		st = word_read(p, get32(cmd + 2), &v);
		put32(reply, rlen, 4, v);
		break;
	case DBG_READALLREGS:
		read_all_regs(p, reply, rlen);
		return STLINK_EXEC_OK;
	case DBG_GETLASTRWSTATUS2:
		put32(reply, rlen, 4, p->rw_fault_addr);
		st = p->rw_status;
		break;
	case DBG_GET_TRACE_NB:
		return STLINK_EXEC_OK; /* no SWO data: 0 bytes available */
	case DBG_READ_DAP_REG:
		dap_reg_read(p, cmd, reply, rlen);
		return STLINK_EXEC_OK;
	case DBG_READMEM_32BIT:
	case DBG_READMEM_32_NOINC:
	case DBG_READMEM_16BIT:
	case DBG_READMEM_8BIT:
		mem_command(p, cmd,
		            cmd[1] == DBG_READMEM_16BIT  ? 2
		            : cmd[1] == DBG_READMEM_8BIT ? 1
		                                         : 4,
		            cmd[1] != DBG_READMEM_32_NOINC, false, NULL, 0, reply, rlen);
		return STLINK_EXEC_OK; /* the data is the reply; the status comes with GETLASTRWSTATUS2 */
	case DBG_WRITEMEM_32BIT:
	case DBG_WRITEMEM_32_NOINC:
	case DBG_WRITEMEM_16BIT:
	case DBG_WRITEMEM_8BIT:
		mem_command(p, cmd,
		            cmd[1] == DBG_WRITEMEM_16BIT  ? 2
		            : cmd[1] == DBG_WRITEMEM_8BIT ? 1
		                                          : 4,
		            cmd[1] != DBG_WRITEMEM_32_NOINC, true, wdata, wlen, reply, rlen);
		return STLINK_EXEC_OK;
	case DBG_RW_MISC_OUT:
		misc_out(p, cmd, wdata, wlen);
		return STLINK_EXEC_OK;
	case DBG_RW_MISC_IN:
		misc_in(p, reply, rlen);
		return STLINK_EXEC_OK;
	case DBG_GET_COM_FREQ:
		get_com_freq(reply, rlen);
		return STLINK_EXEC_OK;
	case DBG_SET_COM_FREQ:
		set_com_freq(p, cmd, reply, rlen);
		return STLINK_EXEC_OK;
	default:
		if (!debug_status_command(p, cmd, &st)) {
			put8(reply, rlen, 0, STLINK_FAULT);
			return STLINK_EXEC_UNKNOWN;
		}
		break;
	}
	put8(reply, rlen, 0, st);
	return STLINK_EXEC_OK;
}

enum stlink_exec stlink_execute(struct stlink_probe *p, const uint8_t cmd[STLINK_CMD_SIZE], const uint8_t *wdata,
                                uint32_t wlen, uint8_t *reply, uint32_t rlen)
{
	p->stats.commands++;
	enum stlink_exec r = STLINK_EXEC_OK;
	switch (cmd[0]) {
	case CMD_GET_VERSION:
		/* V3 reports x = y = 0 in the old format and wants GET_VERSION_EX (stlink_usb_version()). */
		put8(reply, rlen, 0, (uint8_t)(FW_STLINK << 4));
		put8(reply, rlen, 1, 0);
		put8(reply, rlen, 2, (uint8_t)STLINK_VID);
		put8(reply, rlen, 3, (uint8_t)(STLINK_VID >> 8));
		put8(reply, rlen, 4, (uint8_t)STLINK_PID);
		put8(reply, rlen, 5, (uint8_t)(STLINK_PID >> 8));
		break;
	case CMD_GET_VERSION_EX:
		put8(reply, rlen, 0, FW_STLINK);
		put8(reply, rlen, 1, FW_SWIM);
		put8(reply, rlen, 2, FW_JTAG);
		put8(reply, rlen, 3, FW_MSD);
		put8(reply, rlen, 4, FW_BRIDGE);
		put32(reply, rlen, 8, STLINK_VID | STLINK_PID << 16);
		break;
	case CMD_GET_CURRENT_MODE:
		put8(reply, rlen, 0, p->mode);
		break;
	case CMD_GET_TARGET_VOLTAGE:
		put32(reply, rlen, 0, VREF_ADC);
		put32(reply, rlen, 4, TARGET_ADC);
		break;
	case CMD_DFU:
		if (cmd[1] != DFU_EXIT)
			r = STLINK_EXEC_UNKNOWN;
		break;
	case CMD_DEBUG:
		r = debug_command(p, cmd, wdata, wlen, reply, rlen);
		break;
	default:
		put8(reply, rlen, 0, STLINK_FAULT);
		r = STLINK_EXEC_UNKNOWN;
		break;
	}
	if (r != STLINK_EXEC_OK)
		p->stats.unknown++;
	return r;
}
