/* GPIO ports (RM0090 rev 19, 8.4), SYSCFG (9.2) and EXTI (12.3) of the virtual STM32F407. There are no pins
 * outside: an output pin reads back in IDR what ODR drives (the input stage stays on in output mode, 8.3.10), an
 * input pin reads its pull (pull-up 1, otherwise 0), an analog pin 0. An edge that an output makes on a pin that
 * SYSCFG_EXTICR routes to EXTI sets the line's pending bit as a real edge would (12.3.3 RTSR/FTSR). */
#include <string.h>

#include "chip/stm32f4_priv.h"

enum { MODER = 0, OTYPER, OSPEEDR, PUPDR, IDR, ODR, BSRR, LCKR, AFRL, AFRH };

#define LCKK (1u << 16)

/* EXTI registers (12.3.1-12.3.6), by word. */
enum { IMR = 0, EMR, RTSR, FTSR, SWIER, PR };
#define EXTI_LINES_MASK 0x007FFFFFu /* lines 0-22 */

/* NVIC position of each EXTI line (RM0090 table 61; lines 16-22: PVD, RTC alarm, OTG FS wake-up, Ethernet
 * wake-up, OTG HS wake-up, tamper/time stamp, RTC wake-up). */
static unsigned exti_irq(unsigned line)
{
	static const uint8_t irq16[7] = {1, 41, 42, 62, 76, 2, 3};
	if (line <= 4)
		return 6 + line;
	if (line <= 9)
		return 23;
	if (line <= 15)
		return 40;
	return irq16[line - 16];
}

/* GPIO reset values that are not 0 (RM0090 8.4): PA13-15/PB3-4 are the JTAG pins. */
static const struct {
	unsigned port, reg;
	uint32_t value;
} gpio_reset[] = {
    {0, MODER, 0xA8000000},   {0, PUPDR, 0x64000000}, {1, MODER, 0x00000280},
    {1, OSPEEDR, 0x000000C0}, {1, PUPDR, 0x00000100},
};

void stm32f4_gpio_reset(struct stm32f4 *st)
{
	memset(st->gpio, 0, sizeof(st->gpio));
	memset(st->gpio_lckr, 0, sizeof(st->gpio_lckr));
	memset(st->gpio_lck_step, 0, sizeof(st->gpio_lck_step));
	for (size_t i = 0; i < sizeof(gpio_reset) / sizeof(gpio_reset[0]); i++)
		st->gpio[gpio_reset[i].port][gpio_reset[i].reg] = gpio_reset[i].value;
	memset(st->syscfg, 0, sizeof(st->syscfg));
	memset(st->exti, 0, sizeof(st->exti));
}

/* What IDR reads for a port (8.3.9-8.3.12). */
static uint32_t gpio_idr(const struct stm32f4 *st, unsigned port)
{
	const uint32_t *r = st->gpio[port];
	uint32_t v = 0;
	for (unsigned pin = 0; pin < 16; pin++) {
		unsigned mode = (r[MODER] >> (2 * pin)) & 3u, pull = (r[PUPDR] >> (2 * pin)) & 3u;
		bool level;
		if (mode == 1 || mode == 2) /* output, alternate function: the driven level */
			level = (r[ODR] >> pin) & 1u;
		else if (mode == 0) /* input: the pull-up, else low */
			level = pull == 1;
		else /* analog: the Schmitt trigger is off, IDR reads 0 */
			level = false;
		v |= (uint32_t)level << pin;
	}
	return v;
}

/* Sets the EXTI pending bits of `lines` and raises their interrupts when unmasked (12.3.6). */
static void exti_pend(struct stm32f4 *st, uint32_t lines)
{
	lines &= st->exti[IMR] & EXTI_LINES_MASK;
	for (unsigned l = 0; l < 23; l++) {
		if (!((lines >> l) & 1u))
			continue;
		bool was = (st->exti[PR] >> l) & 1u;
		st->exti[PR] |= 1u << l;
		if (!was)
			stm32f4_raise_irq(st, exti_irq(l));
	}
}

/* Edges a port's IDR change makes on the EXTI lines routed to it (SYSCFG_EXTICR, 9.2.3). */
static void gpio_edges(struct stm32f4 *st, unsigned port, uint32_t before, uint32_t after)
{
	uint32_t changed = before ^ after, lines = 0;
	for (unsigned pin = 0; changed && pin < 16; pin++) {
		if (!((changed >> pin) & 1u))
			continue;
		unsigned sel = (st->syscfg[2 + pin / 4] >> (4 * (pin % 4))) & 0xFu;
		if (sel != port)
			continue;
		bool rising = (after >> pin) & 1u;
		if ((rising && ((st->exti[RTSR] >> pin) & 1u)) || (!rising && ((st->exti[FTSR] >> pin) & 1u)))
			lines |= 1u << pin;
	}
	if (lines)
		exti_pend(st, lines);
}

/* The register bits that belong to the pins of `pins` (1, 2 or 4 bits per pin). */
static uint32_t pin_field_mask(uint32_t pins, unsigned width, unsigned first_pin)
{
	uint32_t m = 0;
	for (unsigned i = 0; i < 32 / width; i++)
		if ((pins >> (first_pin + i)) & 1u)
			m |= ((1u << width) - 1u) << (i * width);
	return m;
}

enum bus_result stm32f4_gpio_read(struct stm32f4 *st, const struct stm32f4_block *b, uint32_t off, unsigned size,
                                  enum bus_initiator who, uint32_t *value)
{
	unsigned port = b->unit, reg = off / 4;
	(void)who;
	if (reg > AFRH) {
		*value = 0; /* the rest of the 1 KiB block is reserved: reads 0 */
		return BUS_OK;
	}
	uint32_t v = st->gpio[port][reg];
	if (reg == IDR)
		v = gpio_idr(st, port);
	else if (reg == BSRR)
		v = 0; /* write-only */
	else if (reg == LCKR)
		v = st->gpio_lckr[port];
	if (reg == LCKR && who == BUS_CORE && st->gpio_lck_step[port] == 3)
		st->gpio_lck_step[port] = 0; /* the sequence's reads (8.4.8) */
	*value = bus_extract(v, off, size);
	return BUS_OK;
}

/* LCKR's key sequence (RM0090 8.4.8): write LCKK=1, LCKK=0, LCKK=1 with the same LCKR[15:0], then reads.
 * LCKR is written as a word only; a wrong step starts over. */
static void gpio_lock_write(struct stm32f4 *st, unsigned port, unsigned size, uint32_t value)
{
	uint32_t *l = &st->gpio_lckr[port];
	unsigned *step = &st->gpio_lck_step[port];
	if (*l & LCKK)
		return; /* locked until the next reset */
	if (size != 4) {
		*step = 0;
		return;
	}
	uint32_t pins = value & 0xFFFFu;
	bool k = value & LCKK;
	if (*step == 1 && !k && pins == (*l & 0xFFFFu)) {
		*step = 2;
	} else if (*step == 2 && k && pins == (*l & 0xFFFFu)) {
		*l = LCKK | pins;
		*step = 3;
	} else {
		*l = pins;
		*step = k ? 1 : 0;
	}
}

enum bus_result stm32f4_gpio_write(struct stm32f4 *st, const struct stm32f4_block *b, uint32_t off, unsigned size,
                                   enum bus_initiator who, uint32_t value)
{
	unsigned port = b->unit, reg = off / 4;
	uint32_t *r = st->gpio[port];
	(void)who;
	if (reg > AFRH || reg == IDR)
		return BUS_OK; /* reserved, read-only */
	uint32_t before = gpio_idr(st, port);
	if (reg == BSRR) {
		/* BSy set, BRy reset; set wins (8.4.7). */
		uint32_t v = bus_merge(0, off, size, value);
		r[ODR] = ((r[ODR] & ~(v >> 16)) | v) & 0xFFFFu;
	} else if (reg == LCKR) {
		gpio_lock_write(st, port, size, value);
		return BUS_OK;
	} else {
		uint32_t v = bus_merge(r[reg], off, size, value);
		/* Locked pins keep their configuration (8.4.8); ODR and BSRR stay free. */
		uint32_t locked = (st->gpio_lckr[port] & LCKK) ? st->gpio_lckr[port] & 0xFFFFu : 0;
		uint32_t keep = 0;
		if (reg == MODER || reg == OSPEEDR || reg == PUPDR)
			keep = pin_field_mask(locked, 2, 0);
		else if (reg == OTYPER)
			keep = locked;
		else if (reg == AFRL)
			keep = pin_field_mask(locked, 4, 0);
		else if (reg == AFRH)
			keep = pin_field_mask(locked, 4, 8);
		if (reg == ODR)
			v &= 0xFFFFu;
		r[reg] = (r[reg] & keep) | (v & ~keep);
	}
	gpio_edges(st, port, before, gpio_idr(st, port));
	return BUS_OK;
}

/* ---- SYSCFG (9.2) ---------------------------------------------------------------------------------- */

#define SYSCFG_CMPCR        0x20u
#define SYSCFG_CMPCR_CMP_PD (1u << 0)
#define SYSCFG_CMPCR_READY  (1u << 8)

enum bus_result stm32f4_syscfg_read(struct stm32f4 *st, const struct stm32f4_block *b, uint32_t off, unsigned size,
                                    enum bus_initiator who, uint32_t *value)
{
	uint32_t w = off & ~3u, v = 0;
	(void)b, (void)who;
	if (w < sizeof(st->syscfg))
		v = st->syscfg[w / 4];
	if (w == SYSCFG_CMPCR) /* the compensation cell is ready as soon as it is powered (9.2.7) */
		v = (v & SYSCFG_CMPCR_CMP_PD) | ((v & SYSCFG_CMPCR_CMP_PD) ? SYSCFG_CMPCR_READY : 0);
	*value = bus_extract(v, off, size);
	return BUS_OK;
}

enum bus_result stm32f4_syscfg_write(struct stm32f4 *st, const struct stm32f4_block *b, uint32_t off, unsigned size,
                                     enum bus_initiator who, uint32_t value)
{
	uint32_t w = off & ~3u;
	(void)b, (void)who;
	static const uint32_t writable[9] = {0x3, 0x00800000, 0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF, 0, 0, 0x1};
	if (w < sizeof(st->syscfg))
		st->syscfg[w / 4] = bus_merge(st->syscfg[w / 4], off, size, value) & writable[w / 4];
	return BUS_OK;
}

/* ---- EXTI (12.3) ----------------------------------------------------------------------------------- */

enum bus_result stm32f4_exti_read(struct stm32f4 *st, const struct stm32f4_block *b, uint32_t off, unsigned size,
                                  enum bus_initiator who, uint32_t *value)
{
	uint32_t w = off / 4;
	(void)b, (void)who;
	*value = w <= PR ? bus_extract(st->exti[w], off, size) : 0;
	return BUS_OK;
}

enum bus_result stm32f4_exti_write(struct stm32f4 *st, const struct stm32f4_block *b, uint32_t off, unsigned size,
                                   enum bus_initiator who, uint32_t value)
{
	uint32_t w = off / 4;
	(void)b, (void)who;
	if (w > PR)
		return BUS_OK;
	uint32_t v = bus_merge(w == PR || w == SWIER ? 0 : st->exti[w], off, size, value) & EXTI_LINES_MASK;
	if (w == PR) {
		/* rc_w1; clearing a pending bit also clears its SWIER bit (12.3.5). */
		st->exti[PR] &= ~v;
		st->exti[SWIER] &= ~v;
	} else if (w == SWIER) {
		/* A 1 written to a SWIER bit at 0 sets the pending bit when the line is unmasked (12.3.5). */
		uint32_t rise = v & ~st->exti[SWIER];
		st->exti[SWIER] |= v;
		exti_pend(st, rise);
	} else {
		st->exti[w] = v;
	}
	return BUS_OK;
}
