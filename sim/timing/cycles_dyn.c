/* The run-time part of the Cortex-M4 cycle model (cycles_dyn.h): costs that depend on operand
 * values or flags, asked by the core as the instruction runs. */
#include "timing/cycles_dyn.h"
#include "timing/cycles_why.h"

#include <stddef.h>

/* Early-termination divider (table 3-1 note a: "Division operations use early termination to
 * minimize the number of cycles required based on the number of leading ones and zeroes in the
 * input operands"). The TRM gives only the range 2-12. We charge 2 + ceil(q / 3), at most 12, where
 * q = clz(divisor) - clz(dividend) + 1 is the number of quotient bits (of the magnitudes for SDIV)
 * and q <= 0 (quotient 0, or divide by zero) costs the minimum 2: a radix-8 divider that skips
 * the leading zero quotient digits. It spans exactly 2..12 and grows with the quotient's width. */
uint32_t cyc_divide_extra(uint32_t dividend, uint32_t divisor, bool is_signed)
{
	uint32_t n = dividend, d = divisor;
	if (is_signed) {
		if ((int32_t)n < 0)
			n = 0u - n;
		if ((int32_t)d < 0)
			d = 0u - d;
	}
	if (d == 0 || n < d)
		return 0;
	int q = __builtin_clz(d) - __builtin_clz(n) + 1;
	uint32_t cycles = 2u + (uint32_t)(q + 2) / 3u;
	if (cycles > 12u)
		cycles = 12u;
	return cycles - 2u;
}

bool cyc_cond_passed(uint8_t cond, uint32_t apsr)
{
	/* Armv7-M ARM A7.3.1 table A7-1 "Condition codes". */
	bool n = (apsr >> 31) & 1u, z = (apsr >> 30) & 1u, c = (apsr >> 29) & 1u, v = (apsr >> 28) & 1u;
	bool r;
	switch (cond >> 1) {
	case 0:
		r = z;
		break; /* EQ / NE */
	case 1:
		r = c;
		break; /* CS / CC */
	case 2:
		r = n;
		break; /* MI / PL */
	case 3:
		r = v;
		break; /* VS / VC */
	case 4:
		r = c && !z;
		break; /* HI / LS */
	case 5:
		r = n == v;
		break; /* GE / LT */
	case 6:
		r = n == v && !z;
		break; /* GT / LE */
	default:
		return true; /* AL (14) and 15 */
	}
	return (cond & 1u) ? !r : r;
}

const char *cyc_why_name(unsigned why)
{
#define CYC_WHY_NAME_(id, name) [CYC_WHY_##id] = (name),
	static const char *const names[CYC_WHY_N] = {CYC_WHY_LIST(CYC_WHY_NAME_)};
#undef CYC_WHY_NAME_
	return why < CYC_WHY_N ? names[why] : NULL;
}
