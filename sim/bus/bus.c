/* Address decoding for the virtual board's system bus (see bus.h). */
#include "bus/bus.h"

#include <string.h>

void bus_init(struct sim_bus *bus)
{
	memset(bus, 0, sizeof(*bus));
}

int bus_add_region(struct sim_bus *bus, const struct bus_region *region)
{
	if (bus->n_regions >= BUS_MAX_REGIONS || region->size == 0)
		return -1;
	uint64_t end = (uint64_t)region->base + region->size;
	for (size_t i = 0; i < bus->n_regions; i++) {
		const struct bus_region *r = &bus->regions[i];
		if (region->base < (uint64_t)r->base + r->size && r->base < end)
			return -1;
	}
	bus->regions[bus->n_regions++] = *region;
	bus->last = NULL;
	return 0;
}

const struct bus_region *bus_find(struct sim_bus *bus, uint32_t addr)
{
	const struct bus_region *r = bus->last;
	if (r && addr - r->base < r->size)
		return r;
	for (size_t i = 0; i < bus->n_regions; i++) {
		r = &bus->regions[i];
		if (addr - r->base < r->size) {
			bus->last = r;
			return r;
		}
	}
	return NULL;
}

static uint32_t mem_load(const uint8_t *p, unsigned size)
{
	uint32_t v = 0;
	for (unsigned i = 0; i < size; i++)
		v |= (uint32_t)p[i] << (8 * i); /* little-endian, as the STM32F4 */
	return v;
}

static void mem_store(uint8_t *p, unsigned size, uint32_t v)
{
	for (unsigned i = 0; i < size; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

enum bus_result bus_read(struct sim_bus *bus, uint32_t addr, unsigned size, enum bus_initiator who, uint32_t *value)
{
	const struct bus_region *r = bus_find(bus, addr);
	*value = 0;
	if (!r || (size != 1 && size != 2 && size != 4) || addr - r->base > r->size - size)
		return BUS_ERROR;
	if (r->mem) {
		*value = mem_load(r->mem + (addr - r->base), size);
		return BUS_OK;
	}
	if (!r->read)
		return BUS_ERROR;
	return r->read(r->ctx, addr - r->base, size, who, value);
}

enum bus_result bus_write(struct sim_bus *bus, uint32_t addr, unsigned size, enum bus_initiator who, uint32_t value)
{
	const struct bus_region *r = bus_find(bus, addr);
	if (!r || (size != 1 && size != 2 && size != 4) || addr - r->base > r->size - size)
		return BUS_ERROR;
	if (r->write)
		return r->write(r->ctx, addr - r->base, size, who, value);
	if (!r->mem)
		return BUS_ERROR;
	mem_store(r->mem + (addr - r->base), size, value);
	return BUS_OK;
}
