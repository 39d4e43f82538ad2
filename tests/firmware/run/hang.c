/* Measures `spin` for every input; at input 3 the stretch never ends, so `bench run` must stop at
 * --timeout with the samples of inputs 1 and 2 kept. */
#include "bench.h"

volatile int input;

__attribute__((noinline)) void spin(int n)
{
	if (n == 3)
		for (;;)
			__asm__ volatile("");
	bench_clobber_memory();
}

int main(void)
{
	bench_init();
	while (bench_sync()) {
		int n = input;
		BENCH_BEGIN(spin);
		spin(n);
		BENCH_END(spin);
	}
	bench_done();
	return 0;
}
