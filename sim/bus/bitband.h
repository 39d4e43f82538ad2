/* Bit-banding (Armv7-M ARM A3.7.2 "Bit-banding" is IMPLEMENTATION DEFINED; Cortex-M4 TRM r0p1 3.7): two 32 MiB
 * alias regions whose words each stand for one bit of a 1 MiB bit-band region,
 *
 *   0x22000000-0x23FFFFFF  ->  0x20000000-0x200FFFFF (SRAM)
 *   0x42000000-0x43FFFFFF  ->  0x40000000-0x400FFFFF (peripherals)
 *
 * alias = alias_base + (byte offset * 32) + (bit * 4). They are regions on the system bus, so the core (through
 * unicorn) and the debugger (through the AHB-AP) reach them alike. A read returns 0 or 1; a write is a
 * read-modify-write of the bit-band location that sets or clears the one bit from bit 0 of the value. The access
 * to the bit-band region has the size of the alias access (TRM 3.7: "The bit-band transfer size matches the
 * transfer size of the instruction making the bit-band access"). A bit-band location no region claims is the same
 * AHB error as a direct access there. */
#ifndef SIM_BITBAND_H
#define SIM_BITBAND_H

#include <stdint.h>

#include "bus/bus.h"

#define BITBAND_SRAM_ALIAS   0x22000000u
#define BITBAND_SRAM_BASE    0x20000000u
#define BITBAND_PERIPH_ALIAS 0x42000000u
#define BITBAND_PERIPH_BASE  0x40000000u
#define BITBAND_ALIAS_SIZE   0x02000000u /* 32 MiB: one word per bit of 1 MiB */

struct bitband {
	struct sim_bus *bus;
	uint32_t target; /* base of the bit-band region */
};

/* Adds both alias regions to `bus`; `bb` holds their two contexts and must outlive the bus.
 * Returns 0, or -1 when the map is full or a region overlaps. */
int bitband_add(struct sim_bus *bus, struct bitband bb[2]);

/* The bit-band address and bit of an alias offset for an access of `size` bytes (for tests and fault messages). */
void bitband_target(uint32_t target_base, uint32_t alias_off, unsigned size, uint32_t *addr, unsigned *bit);

#endif /* SIM_BITBAND_H */
