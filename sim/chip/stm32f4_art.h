/* The STM32F4's flash read interface as a timing model: the ART accelerator of RM0090 rev 19,
 * section 3.4 "Read interface" (3.4.1 wait states, 3.4.2 "Adaptive real-time memory accelerator":
 * instruction prefetch, a 64-line x 128-bit instruction cache, an 8-line data cache for literal
 * pools, D-code before I-code). FLASH_ACR (3.9.1) as the firmware writes it decides the cost of
 * every fetch from flash: LATENCY wait states on a miss, PRFTEN, ICEN, DCEN, and ICRST/DCRST empty
 * the caches. The core asks it once per block that runs from flash, and only while there are wait
 * states: at 0 wait states a flash read is as fast as the core's own fetch and nothing is charged.
 * No bus traffic is simulated: the cycles it returns are what the core waits. */
#ifndef SIM_CHIP_STM32F4_ART_H
#define SIM_CHIP_STM32F4_ART_H

#include <stdbool.h>
#include <stdint.h>

#define ART_LINE_SHIFT   4u /* 128-bit lines (RM0090 3.4.2) */
#define ART_ICACHE_LINES 64u
#define ART_DCACHE_LINES 8u
#define ART_FLASH_LINES  (0x100000u >> ART_LINE_SHIFT) /* 1 MiB */

struct art_cache {
	uint32_t line[ART_ICACHE_LINES]; /* flash line number held by each way */
	uint64_t used[ART_ICACHE_LINES]; /* LRU stamp; 0: empty */
	unsigned ways;
};

struct stm32f4_art {
	uint32_t acr;         /* FLASH_ACR: LATENCY [3:0] (2:0 on F405/407), PRFTEN 8, ICEN 9, DCEN 10 */
	int override_ws;      /* -1: the firmware's LATENCY; else `--wait-states` / `wait-states N` */
	unsigned ws;          /* the wait states in force */
	uint32_t cur_line;    /* line the core fetches from (UINT32_MAX: none) */
	uint32_t line_cycles; /* cycles spent in cur_line so far: the prefetch of the next one runs meanwhile */
	bool resync;          /* wait states just started: take the next block's line as current */
	uint64_t stamp;
	struct art_cache icache, dcache;
	uint8_t *islot;        /* ART_FLASH_LINES entries: I-cache way + 1 holding the line, 0: not cached */
	uint64_t misses, hits; /* statistics (the control port's `stats`) */
};

int art_init(struct stm32f4_art *a);
void art_free(struct stm32f4_art *a);
/* Reset: FLASH_ACR = 0 (RM0090 3.9.1 reset value), caches empty. The override stays. */
void art_reset(struct stm32f4_art *a);
/* The firmware wrote FLASH_ACR: `written` as written (ICRST/DCRST bits 11, 12 act only while the
 * cache is off, 3.9.1), `acr` what the register holds now. */
void art_write_acr(struct stm32f4_art *a, uint32_t written, uint32_t acr);
/* -1: wait states from FLASH_ACR.LATENCY again; 0..15 force them (experiments). */
void art_override(struct stm32f4_art *a, int ws);

/* Flash offset of an address the core fetches from (the flash at 0x08000000 or its boot alias at
 * 0, RM0090 2.4), or -1 for any other memory. */
static inline int64_t art_flash_offset(uint32_t addr)
{
	if (addr < 0x00100000u)
		return addr;
	if (addr - 0x08000000u < 0x00100000u)
		return addr - 0x08000000u;
	return -1;
}

/* The wait cycles of running a block from flash at offset `off` whose instructions enter the
 * flash lines first_line, first_line + 1, ... at the static cycles line_start[0..n_lines-1]
 * (line_start[0] = 0) and which takes `cycles` in all. `branch`: entered by a taken branch or an
 * exception, not by running into it. */
uint32_t art_run_block(struct stm32f4_art *a, uint32_t first_line, const uint16_t *line_start, unsigned n_lines,
                       uint32_t cycles, bool branch);
/* The wait cycles of a literal load from flash offset `off` (D-code bus, data cache). */
uint32_t art_literal(struct stm32f4_art *a, uint32_t off);

#endif /* SIM_CHIP_STM32F4_ART_H */
