/* The Cortex-M4 ROM table at 0xE00FF000 and the CoreSight identification registers of the PPB
 * components it lists (Cortex-M4 TRM r0p1 section 8.3 "ROM table" and the component ID tables of
 * chapter 8; CoreSight Architecture Specification v2.0 (ARM IHI 0029) B2.1 "Component and
 * Peripheral Identification Registers").
 *
 * For the core engineer: the SCS (0xE000E000), DWT (0xE0001000), FPB (0xE0002000) and ITM
 * (0xE0000000) register handlers answer reads of their offsets 0xFD0-0xFFC with
 *     uint32_t v; if (romtable_id_read(component_base, offset, &v) == 0) { *value = v; ... }
 * so the IDs live in one table. The ROM table's own 4 KiB is a bus region that romtable_add()
 * registers; core_new() adds it with the core's other PPB pages (it is part of the processor,
 * TRM 8.3), so the core maps it too and a debugger finds it through the AHB-AP's BASE. */
#ifndef SIM_ROMTABLE_H
#define SIM_ROMTABLE_H

#include <stdint.h>

#include "bus/bus.h"

#define ROMTABLE_BASE 0xE00FF000u
#define ROMTABLE_SIZE 0x1000u

#define ROMTABLE_ITM_BASE 0xE0000000u
#define ROMTABLE_DWT_BASE 0xE0001000u
#define ROMTABLE_FPB_BASE 0xE0002000u
#define ROMTABLE_SCS_BASE 0xE000E000u

/* The CoreSight ID word at `offset` (0xFD0-0xFFC, word aligned) of the 4 KiB component at
 * component_base (ITM, DWT, FPB, SCS or the ROM table itself). Returns 0 and sets *value, or -1
 * when the base is not one of those or the offset is not an ID register. */
int romtable_id_read(uint32_t component_base, uint32_t offset, uint32_t *value);

/* Adds the ROM table region to the bus. Returns 0, or -1 when the address is taken. */
int romtable_add(struct sim_bus *bus);

#endif /* SIM_ROMTABLE_H */
