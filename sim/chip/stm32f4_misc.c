/* The CRC unit (RM0090 rev 19, section 4), the RNG (section 24) and the USARTs' transmitters (section 30) of the
 * virtual STM32F407. */
#include <stdlib.h>
#include <string.h>

#include "chip/stm32f4_priv.h"

/* ---- CRC (4.3, 4.4) ---------------------------------------------------------------------------------- */

#define CRC_DR    0x00u
#define CRC_IDR   0x04u
#define CRC_CR    0x08u
#define CRC_RESET (1u << 0)

/* CRC-32 (Ethernet polynomial 0x04C11DB7) over one 32-bit word, most significant bit first, no reflection: what
 * the unit computes per DR write (4.3: "a 32-bit data word ... the CRC calculation takes 4 AHB clock cycles"). */
static uint32_t crc32_word(uint32_t crc, uint32_t data)
{
	crc ^= data;
	for (int i = 0; i < 32; i++)
		crc = (crc & 0x80000000u) ? (crc << 1) ^ 0x04C11DB7u : crc << 1;
	return crc;
}

enum bus_result stm32f4_crc_read(struct stm32f4 *st, const struct stm32f4_block *b, uint32_t off, unsigned size,
                                 enum bus_initiator who, uint32_t *value)
{
	uint32_t w = off & ~3u, v = 0;
	(void)b, (void)who;
	if (w == CRC_DR)
		v = st->crc_dr;
	else if (w == CRC_IDR)
		v = st->crc_idr;
	*value = bus_extract(v, off, size); /* CR reads 0: RESET is write-only in effect */
	return BUS_OK;
}

enum bus_result stm32f4_crc_write(struct stm32f4 *st, const struct stm32f4_block *b, uint32_t off, unsigned size,
                                  enum bus_initiator who, uint32_t value)
{
	uint32_t w = off & ~3u;
	(void)b, (void)who;
	if (w == CRC_DR)
		/* The unit takes words; a narrower write is fed as the word its byte lanes carry. */
		st->crc_dr = crc32_word(st->crc_dr, bus_merge(0, off, size, value));
	else if (w == CRC_IDR)
		st->crc_idr = bus_merge(st->crc_idr, off, size, value) & 0xFFu;
	else if (w == CRC_CR && (bus_merge(0, off, size, value) & CRC_RESET))
		st->crc_dr = 0xFFFFFFFFu; /* RESET: DR back to its reset value (4.4.3) */
	return BUS_OK;
}

/* ---- RNG (24.3, 24.4) ---------------------------------------------------------------------------------- */

#define RNG_CR      0x00u
#define RNG_SR      0x04u
#define RNG_DR      0x08u
#define RNG_CR_EN   (1u << 2)
#define RNG_CR_IE   (1u << 3)
#define RNG_SR_DRDY (1u << 0)
#define RNG_IRQ     80u /* HASH_RNG (RM0090 table 61) */
#define RNG_SEED    0x2545F491u

/* A fixed xorshift32 sequence instead of analog noise: the same numbers every run, so a benchmark that draws its
 * inputs from the RNG measures the same work each time. bench-sim reports the RNG's use as such. */
static uint32_t rng_next(uint32_t *s)
{
	uint32_t x = *s;
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	*s = x;
	return x;
}

enum bus_result stm32f4_rng_read(struct stm32f4 *st, const struct stm32f4_block *b, uint32_t off, unsigned size,
                                 enum bus_initiator who, uint32_t *value)
{
	uint32_t w = off & ~3u, v = 0;
	(void)b;
	bool on = st->rng_cr & RNG_CR_EN;
	if (w == RNG_CR)
		v = st->rng_cr;
	else if (w == RNG_SR)
		v = on ? RNG_SR_DRDY : 0; /* a new number is always ready once enabled; no seed or clock errors */
	else if (w == RNG_DR && on)
		/* A debugger's look does not consume a number: the firmware's sequence stays the same. */
		v = who == BUS_CORE ? rng_next(&st->rng_state) : st->rng_state;
	*value = bus_extract(v, off, size);
	return BUS_OK;
}

enum bus_result stm32f4_rng_write(struct stm32f4 *st, const struct stm32f4_block *b, uint32_t off, unsigned size,
                                  enum bus_initiator who, uint32_t value)
{
	uint32_t w = off & ~3u;
	(void)b, (void)who;
	if (w == RNG_CR) {
		uint32_t old = st->rng_cr;
		st->rng_cr = bus_merge(st->rng_cr, off, size, value) & (RNG_CR_EN | RNG_CR_IE);
		bool was = (old & RNG_CR_EN) && (old & RNG_CR_IE);
		if (!was && (st->rng_cr & RNG_CR_EN) && (st->rng_cr & RNG_CR_IE))
			stm32f4_raise_irq(st, RNG_IRQ); /* DRDY with IE: interrupt (24.3.2) */
	}
	return BUS_OK; /* SR's error flags are never set; DR is read-only */
}

/* ---- USART (30.6) -------------------------------------------------------------------------------------- */

enum { U_SR = 0, U_DR, U_BRR, U_CR1, U_CR2, U_CR3, U_GTPR };

/* SR.TXE and SR.TC are always set: a character leaves the moment it is written. */
#define USART_SR_TC     (1u << 6)
#define USART_SR_TXE    (1u << 7)
#define USART_CR1_TE    (1u << 3)
#define USART_CR1_TCIE  (1u << 6)
#define USART_CR1_TXEIE (1u << 7)
#define USART_CR1_UE    (1u << 13)

static const char *const usart_names[STM32F4_N_USART] = {"USART1", "USART2", "USART3", "UART4", "UART5", "USART6"};
static const uint8_t usart_irq[STM32F4_N_USART] = {37, 38, 39, 52, 53, 71};

/* Prints what the line holds: the prefix unless part of the line is out already, and the
 * newline when it ends. */
static void uart_print(struct stm32f4 *st, unsigned unit, bool end)
{
	struct stm32f4_usart *u = &st->usart[unit];
	FILE *out = st->uart_out ? st->uart_out : stdout;
	int w = 0;
	if (!u->line_open) /* USART2 is the virtual COM port of ST's Discovery and Nucleo boards: plain "uart: " */
		w = unit == 1 ? fprintf(out, "uart: ") : fprintf(out, "uart: %s: ", usart_names[unit]);
	if (w >= 0 && u->line_len && fwrite(u->line, 1, u->line_len, out) != u->line_len)
		w = -1;
	if (w >= 0 && end && fputc('\n', out) == EOF)
		w = -1;
	if (w < 0 || fflush(out) != 0)
		st->cfg.uart_echo = false; /* output is gone: stop trying rather than fail the core */
	u->line_len = 0;
	u->line_open = !end;
}

static void uart_flush_line(struct stm32f4 *st, unsigned unit)
{
	struct stm32f4_usart *u = &st->usart[unit];
	if (u->line_len || u->line_open)
		uart_print(st, unit, true);
}

void stm32f4_uart_flush_all(struct stm32f4 *st)
{
	for (unsigned i = 0; i < STM32F4_N_USART; i++)
		uart_flush_line(st, i);
}

void stm32f4_uart_init(struct stm32f4 *st)
{
	for (unsigned i = 0; i < STM32F4_N_USART; i++) {
		struct stm32f4_usart *u = &st->usart[i];
		u->line = u->first;
		u->line_cap = sizeof(u->first);
		u->line_len = 0;
		u->line_open = false;
		u->tail = 0;
	}
}

void stm32f4_uart_free(struct stm32f4 *st)
{
	for (unsigned i = 0; i < STM32F4_N_USART; i++) {
		struct stm32f4_usart *u = &st->usart[i];
		if (u->line != u->first)
			free(u->line);
		u->line = u->first;
		u->line_cap = sizeof(u->first);
	}
}

/* Room for one more byte: the buffer doubles up to STM32F4_UART_LINE_MAX; past it (or out of
 * memory) what is there goes out as the start of the line. */
static void uart_make_room(struct stm32f4 *st, unsigned unit)
{
	struct stm32f4_usart *u = &st->usart[unit];
	if (u->line_len < u->line_cap)
		return;
	if (u->line_cap < STM32F4_UART_LINE_MAX) {
		size_t cap = u->line_cap * 2u;
		char *p = malloc(cap);
		if (p) {
			memcpy(p, u->line, u->line_len);
			if (u->line != u->first)
				free(u->line);
			u->line = p;
			u->line_cap = cap;
			return;
		}
	}
	uart_print(st, unit, false);
}

/* The end mark (stm32f4_on_uart_mark): u->tail bytes of it matched so far. A mismatch falls back
 * to the longest prefix of the mark that ends the bytes sent (a naive search: marks are short). */
static void uart_match(struct stm32f4 *st, unsigned unit, char c)
{
	struct stm32f4_usart *u = &st->usart[unit];
	const char *m = st->uart_mark;
	size_t n = st->uart_mark_len;
	if (!n)
		return;
	size_t t = u->tail + 1u;
	/* Does m[0..t) end with the last t bytes (m[0..t-1) then c)? Shrink t until it does. */
	while (t > 0 && !(m[t - 1] == c && memcmp(m, m + (u->tail + 1u - t), t - 1u) == 0))
		t--;
	u->tail = t;
	if (t == n) {
		u->tail = 0;
		st->uart_mark_len = 0; /* once */
		if (st->on_uart_mark)
			st->on_uart_mark(st->on_uart_mark_ctx);
	}
}

void stm32f4_on_uart_mark(struct stm32f4 *st, const char *mark, stm32f4_uart_mark_fn fn, void *ctx)
{
	st->uart_mark = mark;
	st->uart_mark_len = mark ? strlen(mark) : 0;
	st->on_uart_mark = fn;
	st->on_uart_mark_ctx = ctx;
	for (unsigned i = 0; i < STM32F4_N_USART; i++)
		st->usart[i].tail = 0;
}

static void uart_putc(struct stm32f4 *st, unsigned unit, char c)
{
	struct stm32f4_usart *u = &st->usart[unit];
	uart_match(st, unit, c);
	if (!st->cfg.uart_echo || c == '\r')
		return;
	if (c == '\n') {
		uart_print(st, unit, true); /* an empty line too: "uart: " and nothing else */
		return;
	}
	uart_make_room(st, unit);
	u->line[u->line_len++] = c;
}

enum bus_result stm32f4_usart_read(struct stm32f4 *st, const struct stm32f4_block *b, uint32_t off, unsigned size,
                                   enum bus_initiator who, uint32_t *value)
{
	uint32_t w = off / 4;
	(void)who;
	if (w > U_GTPR) {
		*value = 0;
		return BUS_OK;
	}
	uint32_t v = st->usart[b->unit].reg[w];
	if (w == U_SR)
		v |= USART_SR_TXE | USART_SR_TC;
	if (w == U_DR)
		v = 0; /* nothing is ever received */
	*value = bus_extract(v, off, size);
	return BUS_OK;
}

enum bus_result stm32f4_usart_write(struct stm32f4 *st, const struct stm32f4_block *b, uint32_t off, unsigned size,
                                    enum bus_initiator who, uint32_t value)
{
	struct stm32f4_usart *u = &st->usart[b->unit];
	uint32_t w = off / 4;
	(void)who;
	if (w > U_GTPR || w == U_SR)
		return BUS_OK; /* SR: TC/RXNE are rc_w0, and TC is set again at once */
	if (w == U_DR) {
		/* Transmits only when the USART and its transmitter are enabled (30.3.2). */
		uint32_t cr1 = u->reg[U_CR1];
		if ((cr1 & USART_CR1_UE) && (cr1 & USART_CR1_TE)) {
			uart_putc(st, b->unit, (char)(value & 0xFFu));
			/* TXE and TC fall and rise again: an enabled TXE/TC interrupt is requested anew (30.4). */
			if (cr1 & (USART_CR1_TXEIE | USART_CR1_TCIE))
				stm32f4_raise_irq(st, usart_irq[b->unit]);
		}
		return BUS_OK;
	}
	uint32_t old = u->reg[w];
	u->reg[w] = bus_merge(old, off, size, value);
	if (w == U_CR1 && (u->reg[U_CR1] & USART_CR1_UE) && (u->reg[U_CR1] & ~old & (USART_CR1_TXEIE | USART_CR1_TCIE)))
		stm32f4_raise_irq(st, usart_irq[b->unit]); /* TXE and TC are set: enabling their interrupt raises it */
	return BUS_OK;
}

void stm32f4_misc_reset(struct stm32f4 *st)
{
	st->crc_dr = 0xFFFFFFFFu;
	st->crc_idr = 0;
	st->rng_cr = 0;
	st->rng_state = RNG_SEED;
	for (unsigned i = 0; i < STM32F4_N_USART; i++)
		memset(st->usart[i].reg, 0, sizeof(st->usart[i].reg));
}
