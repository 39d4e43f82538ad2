/* The virtual board's on-board probe: one STLINK-V3 (VID:PID 0483:374F, firmware V3J7M3B5S1)
 * executing the ST-LINK USB command set that stlink-server carries over TCP (stlink_server.c). The
 * commands, their layouts and the status codes are those OpenOCD 0.12 sends and expects
 * (src/jtag/drivers/stlink_usb.c at v0.12.0: STLINK_* defines, stlink_usb_*() and stlink_dap_*()):
 *   - general: GET_VERSION (0xF1), GET_VERSION_EX (0xFB), GET_CURRENT_MODE (0xF5),
 *     GET_TARGET_VOLTAGE (0xF7), DFU_EXIT (0xF3 0x07);
 *   - 0xF2 debug, for `dapdirect_swd`: mode enter/exit, READ_IDCODES, READ/WRITE_DAP_REG, 8/16/32-bit
 *     memory with AP number and CSW, 32-bit without address increment, RW_MISC_OUT/IN batches,
 *     GETLASTRWSTATUS(2), INIT_AP/CLOSE_AP_DBG, SET/GET_COM_FREQ, SWD/JTAG_SET_FREQ, DRIVE_NRST;
 *   - 0xF2 debug, for `hla_swd` (the probe's own Cortex-M debug): GETSTATUS, FORCEDEBUG, RUNCORE,
 *     STEPCORE, RESETSYS, READREG/WRITEREG through DCRSR/DCRDR, READALLREGS,
 *     READDEBUGREG/WRITEDEBUGREG, trace start/stop/count (no SWO data: always 0 bytes).
 * Every target access goes through the SW-DP and MEM-AP model (dap/swdp.h), as the probe's firmware
 * does on the wire; none goes around it to the bus. Single-threaded, no I/O. */
#ifndef SIM_STLINK_CMD_H
#define SIM_STLINK_CMD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dap/dp.h"

#define STLINK_CMD_SIZE 16u   /* the command block (STLINK_CMD_SIZE_V2) */
#define STLINK_DATA_MAX 6144u /* the probe's data buffer (STLINK_DATA_SIZE): the largest write */
/* The largest reply: RW_MISC_IN of 1227 items (STLINK_V3_RW_MISC_SIZE), 8 bytes each. */
#define STLINK_MISC_MAX_ITEMS 1227u
#define STLINK_REPLY_MAX      (8u * STLINK_MISC_MAX_ITEMS)

#define STLINK_VID 0x0483u
#define STLINK_PID 0x374Fu /* STLINK-V3 (OpenOCD STLINK_V3S_PID, tcl/interface/stlink-dap.cfg) */

/* Status bytes (stlink_usb.c: STLINK_DEBUG_ERR_*, STLINK_SWD_*). */
#define STLINK_OK             0x80u
#define STLINK_FAULT          0x81u
#define STLINK_SWD_AP_WAIT    0x10u
#define STLINK_SWD_AP_FAULT   0x11u
#define STLINK_SWD_DP_WAIT    0x14u
#define STLINK_SWD_DP_FAULT   0x15u
#define STLINK_BAD_AP_ERROR   0x1Du
#define STLINK_CORE_RUNNING   0x80u
#define STLINK_CORE_HALTED    0x81u
#define STLINK_DEV_MASS_MODE  0x01u
#define STLINK_DEV_DEBUG_MODE 0x02u

/* NRST as driven by DRIVE_NRST: asserted (low) or released. */
typedef void (*stlink_nrst_fn)(void *ctx, bool asserted);

struct stlink_stats {
	uint64_t commands;     /* USB commands executed */
	uint64_t unknown;      /* answered STLINK_FAULT as not a command of this probe */
	uint64_t mem_faults;   /* memory transfers that ended in a fault (GETLASTRWSTATUS) */
	uint64_t misc_batches; /* RW_MISC_OUT commands: OpenOCD batching mixed accesses (firmware V3J2+, API v3) */
};

struct stlink_probe {
	struct dp *dp;
	stlink_nrst_fn nrst;
	void *nrst_ctx;
	uint8_t mode;           /* STLINK_DEV_MASS_MODE until APIV2_ENTER */
	uint8_t ap_open[32];    /* INIT_AP bitmap, APs 0-255 */
	uint8_t rw_status;      /* of the last memory command (GETLASTRWSTATUS) */
	uint32_t rw_fault_addr; /* where it faulted */
	uint32_t com_khz;
	uint32_t misc_items; /* results of the last RW_MISC_OUT, for RW_MISC_IN */
	uint32_t misc_val[STLINK_MISC_MAX_ITEMS];
	uint8_t misc_err[STLINK_MISC_MAX_ITEMS];
	struct stlink_stats stats;
};

enum stlink_exec {
	STLINK_EXEC_OK = 0,
	STLINK_EXEC_UNKNOWN, /* not a command of this probe: the reply's first byte is STLINK_FAULT */
};

void stlink_probe_init(struct stlink_probe *p, struct dp *dp, stlink_nrst_fn nrst, void *nrst_ctx);
/* The probe as after power-up (mass-storage mode, no AP open): a new stlink-server client. */
void stlink_probe_reset(struct stlink_probe *p);

/* Executes the 16-byte command `cmd`. A write-direction command brings wdata[0..wlen); a read
 * fills reply[0..rlen) (the caller zeroes it first; rlen is what the client asked for and may be
 * more or less than the command produces: the rest stays zero, the excess is not written). */
enum stlink_exec stlink_execute(struct stlink_probe *p, const uint8_t cmd[STLINK_CMD_SIZE], const uint8_t *wdata,
                                uint32_t wlen, uint8_t *reply, uint32_t rlen);

#endif /* SIM_STLINK_CMD_H */
