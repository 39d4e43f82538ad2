/* The STLINK-V3 command set (see stlink_cmd.h). Command layouts and reply sizes: OpenOCD 0.12
 * src/jtag/drivers/stlink_usb.c (the function that builds each command is named beside it below).
 * Target accesses: ADIv5.2 (ARM IHI 0031C) MEM-AP C2.2/C2.6 through the SW-DP (dap/swdp.h); core
 * registers: Armv7-M ARM C1.6 (DHCSR, DCRSR, DCRDR). */
#include "wire/stlink_cmd.h"

#include <string.h>

#include "wire/stlink_priv.h"

/* SW-DP com frequencies an STLINK-V3 offers, kHz, fastest first (STLINK_APIV3_GET_COM_FREQ). */
static const uint32_t com_freqs_khz[] = {24000, 8000, 3300, 1000, 200, 50, 5};
#define N_COM_FREQS (sizeof(com_freqs_khz) / sizeof(com_freqs_khz[0]))

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

/* ---- mode, identity, clocks ------------------------------------------------------------------ */

/* APIV2_ENTER in SWD: the firmware's connect sequence leaves the DP clean and powered (which
 * hla relies on: it never touches DP registers), ABORT clearing what an earlier session left. */
static uint8_t enter_swd(struct stlink_probe *p)
{
	enum swdp_ack ack = stlink_dp_write(
	    p, false, 0x0u, SWDP_ABORT_STKERRCLR | SWDP_ABORT_STKCMPCLR | SWDP_ABORT_ORUNERRCLR | SWDP_ABORT_WDERRCLR);
	if (ack == SWDP_ACK_OK)
		ack = stlink_dp_write(p, false, DP_REG_CTRL_STAT, DP_CTRL_CDBGPWRUPREQ | DP_CTRL_CSYSPWRUPREQ);
	if (ack == SWDP_ACK_OK)
		p->mode = STLINK_DEV_DEBUG_MODE;
	return stlink_dp_status(ack);
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
		st = stlink_dp_status(stlink_dp_read(p, false, addr & 0xCu, &v));
	else if (port > 255 || (!stlink_ap_is_open(p, port) && addr != 0xFCu)) /* IDR: probing needs no INIT_AP */
		st = STLINK_BAD_AP_ERROR;
	else
		st = stlink_ap_reg_read(p, port, addr & 0xFCu, &v);
	put8(reply, rlen, 0, st);
	put32(reply, rlen, 4, v);
}

static uint8_t dap_reg_write(struct stlink_probe *p, const uint8_t *cmd)
{
	unsigned port = get16(cmd + 2), addr = get16(cmd + 4);
	uint32_t v = get32(cmd + 6);
	if (port == DAP_PORT_DP)
		return stlink_dp_status(stlink_dp_write(p, false, addr & 0xCu, v));
	if (port > 255 || !stlink_ap_is_open(p, port))
		return STLINK_BAD_AP_ERROR;
	return stlink_ap_reg_write(p, port, addr & 0xFCu, v);
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
		*st = stlink_word_write(p, AIRCR, AIRCR_SYSRESET);
		break;
	case DBG_FORCEDEBUG:
		*st = stlink_word_write(p, DHCSR, DBGKEY | C_HALT | C_DEBUGEN);
		break;
	case DBG_RUNCORE:
		*st = stlink_word_write(p, DHCSR, DBGKEY | C_DEBUGEN);
		break;
	case DBG_STEPCORE:
		*st = stlink_word_write(p, DHCSR, DBGKEY | C_STEP | C_MASKINTS | C_DEBUGEN);
		break;
	case DBG_WRITEREG:
		*st = stlink_core_reg_write(p, cmd[2], get32(cmd + 3));
		break;
	case DBG_WRITEDEBUGREG:
		*st = stlink_word_write(p, get32(cmd + 2), get32(cmd + 6));
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
		*st = stlink_word_read(p, DHCSR, &v) == STLINK_OK && (v & S_HALT) ? STLINK_CORE_HALTED
		                                                                  : STLINK_CORE_RUNNING;
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
		put32(reply, rlen, 4, stlink_dp_read(p, false, 0x0u, &v) == SWDP_ACK_OK ? v : 0);
		break;
	case DBG_READREG:
		st = stlink_core_reg_read(p, cmd[2], &v);
		put32(reply, rlen, 4, v);
		break;
	case DBG_READDEBUGREG:
		st = stlink_word_read(p, get32(cmd + 2), &v);
		put32(reply, rlen, 4, v);
		break;
	case DBG_READALLREGS:
		stlink_read_all_regs(p, reply, rlen);
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
		stlink_mem_command(p, cmd,
		                   cmd[1] == DBG_READMEM_16BIT  ? 2
		                   : cmd[1] == DBG_READMEM_8BIT ? 1
		                                                : 4,
		                   cmd[1] != DBG_READMEM_32_NOINC, false, NULL, 0, reply, rlen);
		return STLINK_EXEC_OK; /* the data is the reply; the status comes with GETLASTRWSTATUS2 */
	case DBG_WRITEMEM_32BIT:
	case DBG_WRITEMEM_32_NOINC:
	case DBG_WRITEMEM_16BIT:
	case DBG_WRITEMEM_8BIT:
		stlink_mem_command(p, cmd,
		                   cmd[1] == DBG_WRITEMEM_16BIT  ? 2
		                   : cmd[1] == DBG_WRITEMEM_8BIT ? 1
		                                                 : 4,
		                   cmd[1] != DBG_WRITEMEM_32_NOINC, true, wdata, wlen, reply, rlen);
		return STLINK_EXEC_OK;
	case DBG_RW_MISC_OUT:
		stlink_misc_out(p, cmd, wdata, wlen);
		return STLINK_EXEC_OK;
	case DBG_RW_MISC_IN:
		stlink_misc_in(p, reply, rlen);
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
