/* Cortex-M4 ROM table and component IDs (see romtable.h). Values: Cortex-M4 TRM r0p1 table 8-1
 * "Cortex-M4 ROM table" (entries, MEMTYPE, IDs), and the identification-value tables of the SCS,
 * DWT, FPB and ITM in chapters 8-11 (PIDR0-4, CIDR0-3). */
#include "scs/romtable.h"

#include <stddef.h>

#define ID_FIRST 0xFD0u
#define ID_LAST  0xFFCu

struct component_id {
	uint32_t base;
	uint8_t pidr[8]; /* PIDR0..PIDR7: JEP106 ARM (0x3B, continuation 4), part number, revision */
	uint8_t cidr1;   /* component class: 0x10 ROM table, 0xE0 generic IP (CoreSight v2.0 B2.1.2) */
};

static const struct component_id components[] = {
    {ROMTABLE_SCS_BASE, {0x0C, 0xB0, 0x0B, 0x00, 0x04, 0, 0, 0}, 0xE0},
    {ROMTABLE_DWT_BASE, {0x02, 0xB0, 0x3B, 0x00, 0x04, 0, 0, 0}, 0xE0},
    {ROMTABLE_FPB_BASE, {0x03, 0xB0, 0x2B, 0x00, 0x04, 0, 0, 0}, 0xE0},
    {ROMTABLE_ITM_BASE, {0x01, 0xB0, 0x3B, 0x00, 0x04, 0, 0, 0}, 0xE0},
    {ROMTABLE_BASE, {0xC4, 0xB4, 0x0B, 0x00, 0x04, 0, 0, 0}, 0x10},
};

/* Table entries: offset to the component from the ROM table base, bit 1 "32-bit format", bit 0
 * "present". TPIU and ETM exist on an STM32F4 but not on this board, so their entries say absent
 * (TRM table 8-1: 0xFFF41002 / 0xFFF42002 when not implemented). A zero word ends the table. */
static const uint32_t entries[] = {
    0xFFF0F003u, /* SCS  0xE000E000 */
    0xFFF02003u, /* DWT  0xE0001000 */
    0xFFF03003u, /* FPB  0xE0002000 */
    0xFFF01003u, /* ITM  0xE0000000 */
    0xFFF41002u, /* TPIU 0xE0040000, absent */
    0xFFF42002u, /* ETM  0xE0041000, absent */
    0x00000000u, /* end */
};

#define MEMTYPE_OFFSET 0xFCCu
#define MEMTYPE_SYSMEM 0x1u /* system memory present on the bus (ADIv5.2 D3.5.4) */

int romtable_id_read(uint32_t component_base, uint32_t offset, uint32_t *value)
{
	if (offset < ID_FIRST || offset > ID_LAST || (offset & 3u))
		return -1;
	for (size_t i = 0; i < sizeof(components) / sizeof(components[0]); i++) {
		const struct component_id *c = &components[i];
		if (c->base != component_base)
			continue;
		if (offset >= 0xFF0u) {
			/* CIDR0-3: the preamble 0x0D, 0x?0, 0x05, 0xB1 with the class in CIDR1[7:4] */
			static const uint8_t preamble[4] = {0x0D, 0x00, 0x05, 0xB1};
			unsigned n = (offset - 0xFF0u) / 4;
			*value = n == 1 ? c->cidr1 : preamble[n];
		} else if (offset >= 0xFE0u) {
			*value = c->pidr[(offset - 0xFE0u) / 4]; /* PIDR0-3 */
		} else {
			*value = c->pidr[4 + (offset - ID_FIRST) / 4]; /* PIDR4-7 */
		}
		return 0;
	}
	return -1;
}

static enum bus_result rom_read(void *ctx, uint32_t offset, unsigned size, enum bus_initiator who, uint32_t *value)
{
	(void)ctx;
	(void)who;
	uint32_t word_off = offset & ~3u;
	uint32_t word = 0;
	if (word_off < sizeof(entries))
		word = entries[word_off / 4];
	else if (word_off == MEMTYPE_OFFSET)
		word = MEMTYPE_SYSMEM;
	else if (romtable_id_read(ROMTABLE_BASE, word_off, &word) != 0)
		word = 0; /* the rest of the 4 KiB reads as zero */
	*value = bus_extract(word, offset, size);
	return BUS_OK;
}

static enum bus_result rom_write(void *ctx, uint32_t offset, unsigned size, enum bus_initiator who, uint32_t value)
{
	(void)ctx;
	(void)offset;
	(void)size;
	(void)who;
	(void)value;
	return BUS_OK; /* read-only: writes are ignored, as on the M4's ROM table */
}

int romtable_add(struct sim_bus *bus)
{
	const struct bus_region r = {
	    .name = "ROM table",
	    .base = ROMTABLE_BASE,
	    .size = ROMTABLE_SIZE,
	    .read = rom_read,
	    .write = rom_write,
	};
	return bus_add_region(bus, &r);
}
