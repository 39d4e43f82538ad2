/* For tests/target/sim_standalone.py: fut() of examples/fut.c measured over a fixed list of inputs
 * in one run, with no host writing `input` (bench-sim's stand-alone debugger only resumes), so the
 * barebench figure's shape can be checked on the virtual board alone: one cycle count for every
 * input with the FPU, counts that depend on the input with soft-float. */
#include "bench.h"

int fut(int input);

volatile int result;

static const int inputs[] = {0, 1, 2, 3, 7, 10, 100, 255, 256, 1000, 12345, -5, 1 << 20, 0x7fffffff};

int main(void)
{
	bench_init();
	for (unsigned i = 0; i < sizeof(inputs) / sizeof(inputs[0]); i++) {
		volatile int in = inputs[i];
		BENCH_CALL(fut, result, fut, in);
	}
	bench_done();
	return 0;
}
