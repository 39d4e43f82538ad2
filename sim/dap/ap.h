/* The virtual board's one Access Port: an AHB-AP MEM-AP (ARM IHI 0031 ADIv5.2, chapter C2 "The
 * Memory Access Port"; Cortex-M4 TRM r0p1 section 8.2 "AHB-AP"), the debugger's window onto the
 * system bus (bus.h, with BUS_DEBUG). dp.c routes APACC accesses with SELECT.APSEL == 0 here. */
#ifndef SIM_AP_H
#define SIM_AP_H

#include <stdint.h>

#include "bus/bus.h"

/* Register offsets: SELECT.APBANKSEL << 4 | A[3:2] << 2 (ADIv5.2 C2.6, table C2-6). */
#define AP_REG_CSW  0x00
#define AP_REG_TAR  0x04
#define AP_REG_DRW  0x0C
#define AP_REG_BD0  0x10
#define AP_REG_BD3  0x1C
#define AP_REG_CFG  0xF4
#define AP_REG_BASE 0xF8
#define AP_REG_IDR  0xFC

/* CSW fields (ADIv5.2 C2.6.4). */
#define AP_CSW_SIZE_MASK      0x7u
#define AP_CSW_ADDRINC_SHIFT  4
#define AP_CSW_ADDRINC_MASK   (3u << AP_CSW_ADDRINC_SHIFT)
#define AP_CSW_ADDRINC_SINGLE (1u << AP_CSW_ADDRINC_SHIFT)
#define AP_CSW_ADDRINC_PACKED (2u << AP_CSW_ADDRINC_SHIFT)
#define AP_CSW_DEVICEEN       (1u << 6)
#define AP_CSW_TRINPROG       (1u << 7)

/* Cortex-M4 AHB-AP identification (Cortex-M4 TRM 8.2, table 8-3: IDR 0x24770011; BASE points at
 * the ROM table at 0xE00FF000 with bit 1 "ADIv5 format" and bit 0 "entry present"). */
#define AP_IDR_AHB_AP_M4 0x24770011u
#define AP_BASE_M4       0xE00FF003u
#define AP_CSW_RESET     0x03000040u /* HPROT[1] privileged data, DeviceEn, 8-bit, no increment */

enum ap_result { AP_OK = 0, AP_FAULT = 1 };

struct mem_ap {
	struct sim_bus *bus;
	uint32_t csw;
	uint32_t tar;
	uint64_t bus_reads, bus_writes, bus_errors;
};

void ap_init(struct mem_ap *ap, struct sim_bus *bus);
/* Debug reset (CDBGRSTREQ) and power-on: CSW and TAR to their reset values. */
void ap_reset(struct mem_ap *ap);
/* reg is the offset above. AP_FAULT is an AHB error response (an unmapped address, a refused
 * write, a reserved CSW.Size, a reserved register): the DP turns it into CTRL/STAT.STICKYERR. The
 * AP itself keeps no error state, so the next access works normally (ADIv5.2 C2.2.4). */
enum ap_result ap_read(struct mem_ap *ap, unsigned reg, uint32_t *value);
enum ap_result ap_write(struct mem_ap *ap, unsigned reg, uint32_t value);

#endif /* SIM_AP_H */
