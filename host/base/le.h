/* Little-endian loads and stores: every target bench reads (Cortex-M, TriCore) is little-endian,
 * and the host may not be. One copy for the ELF reader, the region table, the marker records and
 * the marker loop. */
#ifndef HOST_BASE_LE_H
#define HOST_BASE_LE_H

#include <stdint.h>

static inline uint16_t le_get16(const uint8_t *p)
{
	return (uint16_t)(p[0] | (uint16_t)(p[1] << 8));
}

static inline uint32_t le_get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t le_get64(const uint8_t *p)
{
	return (uint64_t)le_get32(p) | (uint64_t)le_get32(p + 4) << 32;
}

/* Stores the low `size` bytes (1..8) of v at p. */
static inline void le_put(uint8_t *p, uint64_t v, unsigned size)
{
	for (unsigned i = 0; i < size; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static inline void le_put32(uint8_t *p, uint32_t v)
{
	le_put(p, v, 4);
}

#endif /* HOST_BASE_LE_H */
