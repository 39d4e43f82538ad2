/* Inside the ST-LINK (stlink_cmd.c, stlink_xfer.c): the command set's constants, byte helpers, and
 * what the transfer layer (stlink_xfer.c: SWD transactions, memory transfers, the hla core
 * register access) offers the command decoder. Not for other folders: they use stlink_cmd.h. */
#ifndef SIM_WIRE_STLINK_PRIV_H
#define SIM_WIRE_STLINK_PRIV_H

#include <stdbool.h>
#include <stdint.h>

#include "dap/swdp.h"
#include "wire/stlink_cmd.h"

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

static inline uint16_t get16(const uint8_t *b)
{
	return (uint16_t)(b[0] | b[1] << 8);
}

static inline uint32_t get32(const uint8_t *b)
{
	return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

/* Stores v little-endian at reply[off] when it fits in the rlen bytes asked for. */
static inline void put32(uint8_t *reply, uint32_t rlen, uint32_t off, uint32_t v)
{
	for (unsigned i = 0; i < 4; i++)
		if (off + i < rlen)
			reply[off + i] = (uint8_t)(v >> (8 * i));
}

static inline void put8(uint8_t *reply, uint32_t rlen, uint32_t off, uint8_t v)
{
	if (off < rlen)
		reply[off] = v;
}

/* SWD transactions, as the probe's firmware drives the wire: the ACK, and a status byte for it. */
enum swdp_ack stlink_dp_read(struct stlink_probe *p, bool apndp, unsigned a, uint32_t *v);
enum swdp_ack stlink_dp_write(struct stlink_probe *p, bool apndp, unsigned a, uint32_t v);
uint8_t stlink_dp_status(enum swdp_ack ack);
uint8_t stlink_ap_reg_write(struct stlink_probe *p, unsigned ap, unsigned reg, uint32_t v);
/* An AP read is posted (B4.1.3): the probe collects the value from RDBUFF. */
uint8_t stlink_ap_reg_read(struct stlink_probe *p, unsigned ap, unsigned reg, uint32_t *v);
bool stlink_ap_is_open(const struct stlink_probe *p, unsigned ap);
/* READMEM/WRITEMEM_{8,16,32}BIT and the 32-bit no-increment pair (stlink_usb_read_mem32() etc.):
 * address [2..5], length [6..7], AP [8], CSW[31:8] in [9..11]. */
void stlink_mem_command(struct stlink_probe *p, const uint8_t *cmd, unsigned size, bool inc, bool write,
                        const uint8_t *wdata, uint32_t wlen, uint8_t *reply, uint32_t rlen);
/* RW_MISC_OUT (stlink_usb_misc_rw_segment()): `items` command bytes padded to 4, then one 32-bit
 * value per item. The results wait for RW_MISC_IN. Each access is a 32-bit single transfer. */
void stlink_misc_out(struct stlink_probe *p, const uint8_t *cmd, const uint8_t *wdata, uint32_t wlen);
void stlink_misc_in(struct stlink_probe *p, uint8_t *reply, uint32_t rlen);
/* The probe's own Cortex-M debug (hla): word accesses through AP 0, and the status byte. */
uint8_t stlink_word_read(struct stlink_probe *p, uint32_t addr, uint32_t *v);
uint8_t stlink_word_write(struct stlink_probe *p, uint32_t addr, uint32_t v);
/* A core register through DCRSR/DCRDR (Armv7-M ARM C1.6.3, C1.6.4); REGSEL as OpenOCD's
 * armv7m regsel (0-15 R0-PC, 16 xPSR, 17 MSP, 18 PSP, 20 CONTROL/FAULTMASK/BASEPRI/PRIMASK,
 * 0x21 FPSCR, 0x40-0x5F S0-S31). The transfer has completed by the next access (S_REGRDY). */
uint8_t stlink_core_reg_read(struct stlink_probe *p, unsigned regsel, uint32_t *v);
uint8_t stlink_core_reg_write(struct stlink_probe *p, unsigned regsel, uint32_t v);
/* READALLREGS: R0-R15, xPSR, MSP, PSP, then the CONTROL/FAULTMASK/BASEPRI/PRIMASK word and one
 * word ST does not document (0 here); 21 words after the status (stlink_usb_read_regs(): 88
 * bytes). OpenOCD 0.12 reads registers one by one and never sends it. */
void stlink_read_all_regs(struct stlink_probe *p, uint8_t *reply, uint32_t rlen);

#endif /* SIM_WIRE_STLINK_PRIV_H */
