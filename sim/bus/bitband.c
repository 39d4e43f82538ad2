/* Bit-band alias regions (see bitband.h; Cortex-M4 TRM 3.7, Armv7-M ARM A3.7.2). */
#include "bus/bitband.h"

void bitband_target(uint32_t target_base, uint32_t alias_off, unsigned size, uint32_t *addr, unsigned *bit)
{
	uint32_t byte = target_base + (alias_off >> 5);
	unsigned b = (alias_off >> 2) & 7u;
	/* The bit-band access has the alias access's size: a word access reads the aligned word that holds the
	 * byte, so the bit moves up by 8 for each byte above the word's start. */
	uint32_t aligned = byte & ~(uint32_t)(size - 1u);
	*addr = aligned;
	*bit = b + 8u * (byte - aligned);
}

static enum bus_result bb_read(void *ctx, uint32_t off, unsigned size, enum bus_initiator who, uint32_t *value)
{
	const struct bitband *bb = ctx;
	uint32_t addr, v = 0;
	unsigned bit;
	bitband_target(bb->target, off, size, &addr, &bit);
	*value = 0;
	if (bus_read(bb->bus, addr, size, who, &v) != BUS_OK)
		return BUS_ERROR;
	*value = (v >> bit) & 1u; /* "Reading a word in the alias region returns either 0x01 or 0x00" (TRM 3.7.1) */
	return BUS_OK;
}

static enum bus_result bb_write(void *ctx, uint32_t off, unsigned size, enum bus_initiator who, uint32_t value)
{
	const struct bitband *bb = ctx;
	uint32_t addr, v = 0;
	unsigned bit;
	bitband_target(bb->target, off, size, &addr, &bit);
	/* A locked read-modify-write on the bus (TRM 3.7.1): other bits are written back as read. */
	if (bus_read(bb->bus, addr, size, who, &v) != BUS_OK)
		return BUS_ERROR;
	if (value & 1u)
		v |= 1u << bit;
	else
		v &= ~(1u << bit);
	return bus_write(bb->bus, addr, size, who, v);
}

int bitband_add(struct sim_bus *bus, struct bitband bb[2])
{
	bb[0] = (struct bitband){bus, BITBAND_SRAM_BASE};
	bb[1] = (struct bitband){bus, BITBAND_PERIPH_BASE};
	const struct bus_region r[2] = {
	    {"sram-bitband", BITBAND_SRAM_ALIAS, BITBAND_ALIAS_SIZE, NULL, bb_read, bb_write, &bb[0]},
	    {"periph-bitband", BITBAND_PERIPH_ALIAS, BITBAND_ALIAS_SIZE, NULL, bb_read, bb_write, &bb[1]},
	};
	for (int i = 0; i < 2; i++)
		if (bus_add_region(bus, &r[i]) != 0)
			return -1;
	return 0;
}
