/* The ART accelerator of the STM32F405/407 flash read interface as a timing model (stm32f4_art.h;
 * RM0090 rev 19, 3.4.2). Each comment names the sentence of the manual it follows. */
#include "chip/stm32f4_art.h"

#include <stdlib.h>
#include <string.h>

#define ACR_LATENCY_MASK 0xFu
#define ACR_PRFTEN       (1u << 8)
#define ACR_ICEN         (1u << 9)
#define ACR_DCEN         (1u << 10)
#define ACR_ICRST        (1u << 11)
#define ACR_DCRST        (1u << 12)

static void cache_clear(struct art_cache *c, unsigned ways)
{
	memset(c, 0, sizeof(*c));
	c->ways = ways;
}

int art_init(struct stm32f4_art *a)
{
	memset(a, 0, sizeof(*a));
	a->islot = calloc(ART_FLASH_LINES, 1);
	if (!a->islot)
		return -1;
	a->override_ws = -1;
	art_reset(a);
	return 0;
}

void art_free(struct stm32f4_art *a)
{
	free(a->islot);
	a->islot = NULL;
}

static void update_ws(struct stm32f4_art *a)
{
	unsigned was = a->ws;
	a->ws = a->override_ws >= 0 ? (unsigned)a->override_ws : (a->acr & ACR_LATENCY_MASK);
	/* The core does not report its lines while there are no wait states: the line it runs from
	 * when they start is taken as the current one, already read. */
	if (was == 0 && a->ws != 0)
		a->resync = true;
}

static void icache_clear(struct stm32f4_art *a)
{
	for (unsigned i = 0; i < a->icache.ways; i++)
		if (a->icache.used[i])
			a->islot[a->icache.line[i]] = 0;
	cache_clear(&a->icache, ART_ICACHE_LINES);
}

void art_reset(struct stm32f4_art *a)
{
	a->acr = 0;
	a->cur_line = UINT32_MAX;
	a->line_cycles = 0;
	icache_clear(a);
	cache_clear(&a->dcache, ART_DCACHE_LINES);
	update_ws(a);
}

void art_write_acr(struct stm32f4_art *a, uint32_t written, uint32_t acr)
{
	/* 3.9.1: "ICRST: Instruction cache reset ... This bit can be written only when the I cache is
	 * disabled"; the same for DCRST and the data cache. */
	if ((written & ACR_ICRST) && !(a->acr & ACR_ICEN) && !(acr & ACR_ICEN))
		icache_clear(a);
	if ((written & ACR_DCRST) && !(a->acr & ACR_DCEN) && !(acr & ACR_DCEN))
		cache_clear(&a->dcache, ART_DCACHE_LINES);
	a->acr = acr;
	update_ws(a);
}

void art_override(struct stm32f4_art *a, int ws)
{
	a->override_ws = ws;
	update_ws(a);
}

/* Looks `line` up; on a miss copies it in, evicting the least recently used line: "Once all the
 * instruction cache memory lines have been filled, the LRU (least recently used) policy is used to
 * determine the line to replace" (3.4.2). Returns true on a hit. */
static bool cache_access(struct stm32f4_art *a, struct art_cache *c, uint32_t line, bool indexed)
{
	unsigned way = c->ways;
	if (indexed) {
		if (a->islot[line])
			way = a->islot[line] - 1u;
	} else {
		for (unsigned i = 0; i < c->ways; i++)
			if (c->used[i] && c->line[i] == line)
				way = i;
	}
	if (way < c->ways) {
		c->used[way] = ++a->stamp;
		return true;
	}
	unsigned victim = 0;
	for (unsigned i = 1; i < c->ways; i++)
		if (c->used[i] < c->used[victim])
			victim = i;
	if (indexed && c->used[victim])
		a->islot[c->line[victim]] = 0;
	c->line[victim] = line;
	c->used[victim] = ++a->stamp;
	if (indexed)
		a->islot[line] = (uint8_t)(victim + 1u);
	return false;
}

/* Cycles the core waits for instruction line `line`. `seq`: the core ran into it from the line
 * before after spending `spent` cycles there. */
static uint32_t fetch_line(struct stm32f4_art *a, uint32_t line, bool seq, uint32_t spent)
{
	if (line == a->cur_line)
		return 0; /* still in the current instruction line */
	bool prefetched = (a->acr & ACR_PRFTEN) && a->cur_line != UINT32_MAX && line == a->cur_line + 1u;
	if ((a->acr & ACR_ICEN) && a->islot[line]) {
		/* "If some data contained in the instruction cache memory are needed by the CPU, they are
		 * provided without inserting any delay." */
		(void)cache_access(a, &a->icache, line, true);
		a->hits++;
		return 0;
	}
	if (prefetched) {
		/* "Prefetch on the I-Code bus can be used to read the next sequential instruction line
		 * from the Flash memory while the current instruction line is being requested by the
		 * CPU": the read of WS + 1 cycles ran while the core spent `spent` in the line before. */
		uint32_t read = a->ws + 1u;
		a->hits++;
		(void)seq;
		/* The model keeps a prefetched line in the cache too (the manual only says so of a miss):
		 * code that ran once from flash then runs as from a cache, whatever its layout. */
		if (a->acr & ACR_ICEN)
			(void)cache_access(a, &a->icache, line, true);
		return spent < read ? read - spent : 0u;
	}
	/* "When the code is not sequential (branch), the instruction may not be present in the
	 * currently used instruction line or in the prefetched instruction line. In this case, the
	 * penalty in terms of number of cycles is at least equal to the number of wait states."
	 * "Each time a miss occurs ... the line read is copied into the instruction cache memory." */
	if (a->acr & ACR_ICEN)
		(void)cache_access(a, &a->icache, line, true);
	a->misses++;
	return a->ws;
}

uint32_t art_run_block(struct stm32f4_art *a, uint32_t first_line, const uint16_t *line_start, unsigned n_lines,
                       uint32_t cycles, bool branch)
{
	if (n_lines == 0 || first_line >= ART_FLASH_LINES)
		return 0;
	if (a->resync) {
		a->resync = false;
		a->cur_line = first_line;
		a->line_cycles = 0;
	}
	uint32_t wait = 0;
	uint32_t spent = a->line_cycles;
	bool same = first_line == a->cur_line;
	wait += fetch_line(a, first_line, !branch, spent);
	a->cur_line = first_line;
	uint32_t in_line = same && !branch ? spent : 0u;
	for (unsigned j = 1; j < n_lines && first_line + j < ART_FLASH_LINES; j++) {
		uint32_t here = in_line + (uint32_t)(line_start[j] - line_start[j - 1]);
		wait += fetch_line(a, first_line + j, true, here);
		a->cur_line = first_line + j;
		in_line = 0;
	}
	a->line_cycles = in_line + (cycles - line_start[n_lines - 1]);
	return wait;
}

uint32_t art_literal(struct stm32f4_art *a, uint32_t off)
{
	/* "Literal pools are fetched from Flash memory through the D-Code bus during the execution
	 * stage of the CPU pipeline. The CPU pipeline is consequently stalled until the requested
	 * literal pool is provided." With DCEN: "This feature works like the instruction cache
	 * memory, but the retained data size is limited to 8 rows of 128 bits." */
	if (a->ws == 0)
		return 0;
	uint32_t line = off >> ART_LINE_SHIFT;
	if ((a->acr & ACR_DCEN) && cache_access(a, &a->dcache, line, false))
		return 0;
	return a->ws;
}
