/* The virtual board's system bus: one address map shared by the core (through unicorn) and the
 * debugger (through the AHB-AP). A region is either plain memory (mem != NULL) or a register block
 * served by read/write handlers. An access no region claims, or a handler's BUS_ERROR, is an AHB
 * error response: a BusFault for the core, a sticky error (CTRL/STAT.STICKYERR) for the MEM-AP. */
#ifndef SIM_BUS_H
#define SIM_BUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Who drives the access. Some registers care: flash ignores plain writes from both, DHCSR writes
 * from the core are ignored (Armv7-M ARM C1.6.3: "the processor can't write DHCSR"). */
enum bus_initiator { BUS_CORE = 0, BUS_DEBUG = 1 };

enum bus_result { BUS_OK = 0, BUS_ERROR = 1 };

/* offset is relative to the region base; size is 1, 2 or 4; the value is right-aligned. */
typedef enum bus_result (*bus_read_fn)(void *ctx, uint32_t offset, unsigned size, enum bus_initiator who,
                                       uint32_t *value);
typedef enum bus_result (*bus_write_fn)(void *ctx, uint32_t offset, unsigned size, enum bus_initiator who,
                                        uint32_t value);

struct bus_region {
	const char *name;
	uint32_t base;
	uint32_t size;
	/* Plain memory: reads and writes go here directly. When `write` is also set, writes go to the
	 * handler instead (flash: the FLASH controller decides whether a write programs it). */
	uint8_t *mem;
	bus_read_fn read;
	bus_write_fn write;
	void *ctx;
};

#define BUS_MAX_REGIONS 48

struct sim_bus {
	struct bus_region regions[BUS_MAX_REGIONS];
	size_t n_regions;
	const struct bus_region *last; /* one-entry lookup cache: DAP traffic is very local */
};

/* Sub-word accesses to a 32-bit register. A handler keeps whole words and answers a 1- or 2-byte
 * access at `offset` (any byte within the word; size 1, 2 or 4) with the byte lanes it selects, as
 * an AHB slave does (the lanes are the address's low bits, little-endian: AMBA AHB HSIZE/HADDR[1:0],
 * Armv7-M ARM A3.3 "Endian support"). bus_lanes is the mask of those lanes within the word; bus_extract is the
 * right-aligned value a read returns; bus_merge puts a right-aligned write into `old`. */
static inline uint32_t bus_lanes(uint32_t offset, unsigned size)
{
	return size >= 4 ? 0xFFFFFFFFu : ((1u << (8 * size)) - 1u) << (8 * (offset & 3u));
}

static inline uint32_t bus_extract(uint32_t word, uint32_t offset, unsigned size)
{
	return size >= 4 ? word : (word >> (8 * (offset & 3u))) & ((1u << (8 * size)) - 1u);
}

static inline uint32_t bus_merge(uint32_t old, uint32_t offset, unsigned size, uint32_t value)
{
	if (size >= 4)
		return value;
	uint32_t mask = bus_lanes(offset, size);
	return (old & ~mask) | ((value << (8 * (offset & 3u))) & mask);
}

void bus_init(struct sim_bus *bus);
/* Returns 0, or -1 when the map is full or the region overlaps one already added. */
int bus_add_region(struct sim_bus *bus, const struct bus_region *region);
const struct bus_region *bus_find(struct sim_bus *bus, uint32_t addr);
enum bus_result bus_read(struct sim_bus *bus, uint32_t addr, unsigned size, enum bus_initiator who, uint32_t *value);
enum bus_result bus_write(struct sim_bus *bus, uint32_t addr, unsigned size, enum bus_initiator who, uint32_t value);

#endif /* SIM_BUS_H */
