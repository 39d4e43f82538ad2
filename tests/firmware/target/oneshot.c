/* One measurement per boot: no SYNC loop (docs/run.md: bench resets and runs such a firmware
 * `warmup + repeat` times). tests/e2e/run_e2e.py case oneshot. */
#include "bench.h"

int fut(int input);
volatile int input = 7;
volatile int result;

int main(void)
{
	bench_init();
	BENCH_CALL(fut, result, fut, input);
	bench_done();
	return 0;
}
