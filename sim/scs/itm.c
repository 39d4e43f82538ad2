/* The ITM page at 0xE0000000 (Armv7-M ARM C1.7; Cortex-M4 TRM 8.5): 32 stimulus ports, TER, TPR,
 * TCR. There is no trace port: a write to an enabled stimulus port with TCR.ITMENA and
 * DEMCR.TRCENA set is printed as "itm: <text>" lines when cfg.uart_echo is on. Stimulus reads
 * return 1 (FIFOREADY), so firmware that polls never waits. */
#include "scs/itm.h"
#include "scs/scs_state.h"
#include "scs/romtable.h"

#include <stdio.h>

void itm_flush(struct scs *s)
{
	if (s->itm.len && s->uart_echo) {
		printf("itm: %.*s\n", (int)s->itm.len, s->itm.line);
		(void)fflush(stdout);
	}
	s->itm.len = 0;
}

static void itm_putc(struct scs *s, char ch)
{
	if (ch == '\n' || s->itm.len == sizeof(s->itm.line)) {
		itm_flush(s);
		if (ch == '\n')
			return;
	}
	if (ch != '\r')
		s->itm.line[s->itm.len++] = ch;
}

enum bus_result itm_read(void *ctx, uint32_t off, unsigned size, enum bus_initiator who, uint32_t *v)
{
	struct scs *s = ctx;
	(void)who, (void)size;
	uint32_t w = 0;
	if (off >= 0xFD0) {
		if (romtable_id_read(ROMTABLE_ITM_BASE, off & ~3u, &w) != 0)
			w = 0;
	} else if (off < 0x80) {
		w = 1;
	} else if (off == 0xE00) {
		w = s->itm.ter;
	} else if (off == 0xE40) {
		w = s->itm.tpr;
	} else if (off == 0xE80) {
		w = s->itm.tcr;
	}
	*v = bus_extract(w, off, size);
	return BUS_OK;
}

enum bus_result itm_write(void *ctx, uint32_t off, unsigned size, enum bus_initiator who, uint32_t v)
{
	struct scs *s = ctx;
	(void)who;
	if (off < 0x80) {
		unsigned port = off / 4;
		if (debug_trcena(s) && (s->itm.tcr & 1u) && (s->itm.ter & (1u << port)))
			for (unsigned i = 0; i < size; i++)
				itm_putc(s, (char)(v >> (8 * i)));
	} else if (off == 0xE00 && size == 4) {
		s->itm.ter = v;
	} else if (off == 0xE40 && size == 4) {
		s->itm.tpr = v & 0xFu;
	} else if (off == 0xE80 && size == 4) {
		s->itm.tcr = v & 0x00FF0F3Fu;
	}
	return BUS_OK;
}
