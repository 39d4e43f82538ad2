/* Measures `crash_here` for every input; at input 3 it executes a permanently undefined
 * instruction (UDF, Armv7-M ARM A7.7.194): UsageFault UNDEFINSTR, escalated to HardFault (FORCED)
 * because the UsageFault handler is not enabled. `bench run` must name the fault and the function. */
#include "bench.h"

volatile int input;

__attribute__((noinline)) int crash_here(int n)
{
	if (n == 3)
		__asm__ volatile("udf #0");
	return n + 1;
}

int main(void)
{
	volatile int sink;

	bench_init();
	while (bench_sync()) {
		int n = input;
		BENCH_BEGIN(crash);
		sink = crash_here(n);
		BENCH_END(crash);
	}
	(void)sink;
	bench_done();
	return 0;
}
