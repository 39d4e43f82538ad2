/* Broken on purpose (tests/target): fut is in the harness's file, so -O2 inlines it and the
 * measured stretch is no longer the call `bl fut`. */
#include "bench.h"

static int fut(int input)
{
	return input * 3.14159265359f;
}

volatile int input;
volatile int result;

int main(void)
{
	bench_init();
	while (bench_sync())
		BENCH_CALL(fut, result, fut, input);
	bench_done();
	return 0;
}
