/* Harness for fut(): the host writes `input` at every SYNC halt (`bench run --arg input=0:1000:7`),
 * the BEGIN/END pair measures the call fut(input). docs/markers.md shows this loop. */
#include "bench.h"

int fut(int input);

volatile int input;  /* written by the host at each SYNC */
volatile int result; /* kept so the result is observable, e.g. by a debugger */

int main(void)
{
	bench_init();
	while (bench_sync())
		BENCH_CALL(fut, result, fut, input);
	bench_done();
	return 0;
}
