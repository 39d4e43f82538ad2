/* The ITM page at 0xE0000000 (Armv7-M ARM C1.7; Cortex-M4 TRM 8.5): 32 stimulus ports, TER, TPR,
 * TCR. There is no trace port: a write to an enabled stimulus port with TCR.ITMENA and
 * DEMCR.TRCENA set is printed as "itm: <text>" lines when cfg.uart_echo is on. Stimulus reads
 * return 1 (FIFOREADY), so firmware that polls never waits. */
#include "core/core_internal.h"
#include "scs/romtable.h"

#include <stdio.h>

void itm_flush(struct sim_core *c)
{
	if (c->itm.len && c->cfg.uart_echo) {
		printf("itm: %.*s\n", (int)c->itm.len, c->itm.line);
		(void)fflush(stdout);
	}
	c->itm.len = 0;
}

static void itm_putc(struct sim_core *c, char ch)
{
	if (ch == '\n' || c->itm.len == sizeof(c->itm.line)) {
		itm_flush(c);
		if (ch == '\n')
			return;
	}
	if (ch != '\r')
		c->itm.line[c->itm.len++] = ch;
}

enum bus_result itm_read(void *ctx, uint32_t off, unsigned size, enum bus_initiator who, uint32_t *v)
{
	struct sim_core *c = ctx;
	(void)who, (void)size;
	uint32_t w = 0;
	if (off >= 0xFD0) {
		if (romtable_id_read(ROMTABLE_ITM_BASE, off & ~3u, &w) != 0)
			w = 0;
	} else if (off < 0x80) {
		w = 1;
	} else if (off == 0xE00) {
		w = c->itm.ter;
	} else if (off == 0xE40) {
		w = c->itm.tpr;
	} else if (off == 0xE80) {
		w = c->itm.tcr;
	}
	*v = bus_extract(w, off, size);
	return BUS_OK;
}

enum bus_result itm_write(void *ctx, uint32_t off, unsigned size, enum bus_initiator who, uint32_t v)
{
	struct sim_core *c = ctx;
	(void)who;
	if (off < 0x80) {
		unsigned port = off / 4;
		if (debug_trcena(c) && (c->itm.tcr & 1u) && (c->itm.ter & (1u << port)))
			for (unsigned i = 0; i < size; i++)
				itm_putc(c, (char)(v >> (8 * i)));
	} else if (off == 0xE00 && size == 4) {
		c->itm.ter = v;
	} else if (off == 0xE40 && size == 4) {
		c->itm.tpr = v & 0xFu;
	} else if (off == 0xE80 && size == 4) {
		c->itm.tcr = v & 0x00FF0F3Fu;
	}
	return BUS_OK;
}
