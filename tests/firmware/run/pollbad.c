/* A region table that cannot be read while the target runs: inside the measured stretch the firmware
 * spoils the table's magic, spins `input` loop turns, then restores it. Every `bench run --poll` read
 * in that window fails ("wrong magic"), while the read at the DONE marker succeeds: bench must warn
 * and keep measuring (tests/e2e case poll_fails). */
#include <stdint.h>

#include "bench.h"
#include "board_config.h"
#include "pfp.h"

#define APP_REGIONS(X) X(ID_SPIN, "spin")
PFP_DECLARE_IDS(APP_REGIONS);
PFP_DEFINE_TABLE(APP_REGIONS);

volatile int32_t input;

__attribute__((noinline)) void spin(int32_t n)
{
	for (int32_t i = 0; i < n; i++)
		__asm__ volatile("");
}

int main(void)
{
	bench_init();
	pfp_init(BOARD_CORE_CLOCK_HZ);
	pfp_enable(ID_SPIN);
	while (bench_sync()) {
		int32_t n = input;
		BENCH_BEGIN(spin);
		/* volatile: spin() touches no memory, so plain stores would be merged away */
		*(volatile uint32_t *)&bench_regions.magic = 0;
		spin(n);
		*(volatile uint32_t *)&bench_regions.magic = PFP_TABLE_MAGIC;
		BENCH_END(spin);
		pfp_begin(ID_SPIN);
		pfp_end(ID_SPIN, 0);
	}
	bench_done();
	return 0;
}
