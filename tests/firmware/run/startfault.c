/* Faults while starting up, before bench_init(): a load from 0x40023400, a reserved hole between the CRC unit and
 * RCC (RM0090 table 1), as a mistyped peripheral address would. `bench run` must name BFAR, the hole, and advise
 * fixing the start-up code, not the code under test (tests/e2e case startup_fault). */
#include <stdint.h>

#include "bench.h"

volatile uint32_t sink;

int main(void)
{
	sink = *(volatile uint32_t *)0x40023400u;
	bench_init();
	while (bench_sync()) {
		BENCH_BEGIN(nothing);
		BENCH_END(nothing);
	}
	bench_done();
	return 0;
}
