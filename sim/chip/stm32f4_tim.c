/* TIM2-TIM5 (general-purpose, RM0090 rev 19 section 18) and TIM6/TIM7 (basic, section 20) of the virtual
 * STM32F407, counting the core's cycles: the prescaler, the up-counter, auto-reload with and without preload
 * (ARPE), the update event (overflow, EGR.UG; UDIS, URS, OPM) and its interrupt. The timer clock is the APB1
 * timer clock, HCLK x 2 / the APB1 prescaler when that is not 1 (RM0090 7.2, figure 21), so with HAL's 168 MHz
 * set-up (APB1 / 4) a timer counts once every 2 core cycles. Down- and centre-aligned counting, capture/compare,
 * slave modes and DMA requests are not modelled: those registers keep what is written.
 *
 * The counter is kept lazily: it is brought up to date from the core's cycle count when it is read or its
 * registers change, and stm32f4_next_event() tells the core when the next update interrupt is due, as SysTick's
 * next expiry does. While the core is halted no cycles pass, so the timers stand still as if every
 * DBGMCU_APB1_FZ.DBG_TIMx_STOP bit were set. */
#include <string.h>

#include "chip/stm32f4_priv.h"

enum { CR1 = 0, CR2, SMCR, DIER, SR, EGR, CCMR1, CCMR2, CCER, CNT, PSC, ARR };

#define CR1_CEN  (1u << 0)
#define CR1_UDIS (1u << 1)
#define CR1_URS  (1u << 2)
#define CR1_OPM  (1u << 3)
#define CR1_ARPE (1u << 7)
#define SR_UIF   (1u << 0)
#define SR_W0C   0x1E5Fu /* UIF, CC1-4IF, TIF, CC1-4OF: cleared by writing 0 (rc_w0) */
#define IRQ_BITS 0x5Fu   /* DIER interrupt enables match SR flags 0-6 */

static const uint8_t tim_irq[STM32F4_N_TIM] = {28, 29, 30, 50, 54, 55}; /* RM0090 table 61 */

static bool tim_32bit(unsigned unit)
{
	return unit == 0 || unit == 3; /* TIM2, TIM5 */
}

void stm32f4_tim_reset(struct stm32f4 *st)
{
	memset(st->tim, 0, sizeof(st->tim));
}

static bool irq_line(const struct stm32f4_tim *t)
{
	return (t->reg[SR] & t->reg[DIER] & IRQ_BITS) != 0;
}

/* An update event (18.3.1): the shadow registers take the preloaded values, UIF is set unless `quiet`. */
static void update_event(struct stm32f4 *st, unsigned unit, bool quiet)
{
	struct stm32f4_tim *t = &st->tim[unit];
	bool was = irq_line(t);
	t->psc = t->reg[PSC];
	t->arr = t->reg[ARR];
	if (!quiet)
		t->reg[SR] |= SR_UIF;
	if (t->reg[CR1] & CR1_OPM)
		t->reg[CR1] &= ~CR1_CEN; /* one-pulse mode stops at the update event */
	if (!was && irq_line(t))
		stm32f4_raise_irq(st, tim_irq[unit]);
}

/* Counter increments up to and including the next overflow. */
static uint64_t incs_to_overflow(const struct stm32f4_tim *t, unsigned unit)
{
	uint64_t max = tim_32bit(unit) ? 0xFFFFFFFFu : 0xFFFFu;
	if (t->cnt <= t->arr)
		return (uint64_t)t->arr - t->cnt + 1;
	return max - t->cnt + 1 + (uint64_t)t->arr + 1; /* past ARR: it wraps at the top first, without an event */
}

/* Timer-clock ticks until the next overflow. */
static uint64_t ticks_to_overflow(const struct stm32f4_tim *t, unsigned unit)
{
	uint64_t per = (uint64_t)t->psc + 1;
	return (incs_to_overflow(t, unit) - 1) * per + (per - t->psc_cnt);
}

static void count_ticks(struct stm32f4 *st, unsigned unit, uint64_t n)
{
	struct stm32f4_tim *t = &st->tim[unit];
	while (n && (t->reg[CR1] & CR1_CEN) && t->arr) { /* ARR = 0: the counter is blocked (18.4.12) */
		uint64_t to_ovf = ticks_to_overflow(t, unit);
		if (n < to_ovf) {
			uint64_t per = (uint64_t)t->psc + 1, total = t->psc_cnt + n;
			t->cnt += (uint32_t)(total / per);
			if (!tim_32bit(unit))
				t->cnt &= 0xFFFFu;
			t->psc_cnt = (uint32_t)(total % per);
			return;
		}
		n -= to_ovf;
		t->cnt = 0;
		t->psc_cnt = 0;
		if (!(t->reg[CR1] & CR1_UDIS))
			update_event(st, unit, false);
		/* Whole periods at the new settings: the flag is set already, the interrupt pending. */
		uint64_t period = ((uint64_t)t->arr + 1) * ((uint64_t)t->psc + 1);
		if (t->arr && period && n >= period)
			n %= period;
	}
}

static void tim_advance(struct stm32f4 *st, unsigned unit, uint64_t now)
{
	struct stm32f4_tim *t = &st->tim[unit];
	if (now <= t->sync)
		return; /* a debugger's access between blocks: nothing has passed since */
	uint64_t d = now - t->sync;
	t->sync = now;
	if (!(t->reg[CR1] & CR1_CEN)) {
		t->rem = 0;
		return;
	}
	uint32_t num, den;
	stm32f4_apb1_timer_ratio(st, &num, &den);
	uint64_t scaled = d * num + t->rem;
	t->rem = scaled % den;
	count_ticks(st, unit, scaled / den);
}

void stm32f4_advance(struct stm32f4 *st, uint64_t now)
{
	for (unsigned u = 0; u < STM32F4_N_TIM; u++)
		tim_advance(st, u, now);
}

uint64_t stm32f4_next_event(struct stm32f4 *st, uint64_t now)
{
	uint64_t best = UINT64_MAX;
	uint32_t num, den;
	stm32f4_apb1_timer_ratio(st, &num, &den);
	for (unsigned u = 0; u < STM32F4_N_TIM; u++) {
		struct stm32f4_tim *t = &st->tim[u];
		if (!(t->reg[CR1] & CR1_CEN) || (t->reg[CR1] & CR1_UDIS) || !(t->reg[DIER] & 1u) || !t->arr)
			continue;
		tim_advance(st, u, now);
		uint64_t ticks = ticks_to_overflow(t, u);
		/* Smallest d with (d * num + rem) / den >= ticks. */
		uint64_t need = ticks * den > t->rem ? ticks * den - t->rem : 0;
		uint64_t d = (need + num - 1) / num;
		if (d < best)
			best = d;
	}
	return best;
}

enum bus_result stm32f4_tim_read(struct stm32f4 *st, const struct stm32f4_block *b, uint32_t off, unsigned size,
                                 enum bus_initiator who, uint32_t *value)
{
	unsigned u = b->unit, w = off / 4;
	struct stm32f4_tim *t = &st->tim[u];
	(void)who;
	if (w >= sizeof(t->reg) / 4) {
		*value = 0;
		return BUS_OK;
	}
	tim_advance(st, u, stm32f4_now(st, b->base + off));
	uint32_t v = t->reg[w];
	if (w == CNT)
		v = t->cnt;
	else if (w == EGR)
		v = 0; /* write-only */
	*value = bus_extract(v, off, size);
	return BUS_OK;
}

enum bus_result stm32f4_tim_write(struct stm32f4 *st, const struct stm32f4_block *b, uint32_t off, unsigned size,
                                  enum bus_initiator who, uint32_t value)
{
	unsigned u = b->unit, w = off / 4;
	struct stm32f4_tim *t = &st->tim[u];
	uint32_t mask16 = tim_32bit(u) ? 0xFFFFFFFFu : 0xFFFFu;
	(void)who;
	if (w >= sizeof(t->reg) / 4)
		return BUS_OK;
	uint64_t now = stm32f4_now(st, b->base + off);
	tim_advance(st, u, now);
	bool was = irq_line(t);
	uint32_t v = bus_merge(w == SR ? 0xFFFFFFFFu : t->reg[w], off, size, value);
	switch (w) {
	case CR1:
		if (!(t->reg[CR1] & CR1_CEN) && (v & CR1_CEN)) {
			t->sync = now; /* counting starts now */
			t->rem = 0;
		}
		t->reg[CR1] = v & 0x3FFu;
		break;
	case SR:
		t->reg[SR] &= v | ~SR_W0C; /* rc_w0 */
		break;
	case EGR:
		if (v & 1u) { /* UG: re-initialise the counter and generate an update (18.4.6) */
			t->cnt = 0;
			t->psc_cnt = 0;
			update_event(st, u, (t->reg[CR1] & CR1_URS) != 0);
		}
		break;
	case CNT:
		t->cnt = v & mask16;
		break;
	case PSC:
		t->reg[PSC] = v & 0xFFFFu; /* preloaded: taken at the next update event */
		break;
	case ARR:
		t->reg[ARR] = v & mask16;
		if (!(t->reg[CR1] & CR1_ARPE))
			t->arr = t->reg[ARR];
		break;
	default:
		t->reg[w] = v;
		break;
	}
	if (!was && irq_line(t))
		stm32f4_raise_irq(st, tim_irq[u]);
	return BUS_OK;
}
