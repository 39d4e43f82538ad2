/* Runs the marker runtime with no debugger attached (QEMU mps2-an386, where DHCSR reads 0 and the
 * DWT is absent), printing each step on the CMSDK UART0 (0x40004000; QEMU's -nographic shows it):
 * every marker BKPT must be stepped over by the DebugMon/HardFault handler, the loop body must run
 * exactly once, and bench_init() must report "no cycle counter". tests/target/qemu_standalone.py
 * checks the lines. */
#include "bench.h"

#define UART0_DATA (*(volatile unsigned *)0x40004000u)
#define UART0_CTRL (*(volatile unsigned *)0x40004008u) /* bit 0: TX enable */

int fut(int input);
volatile int input = 7;
volatile int result;

static void say(const char *s)
{
	while (*s)
		UART0_DATA = (unsigned)*s++;
}

static void say_digit(unsigned d)
{
	UART0_DATA = '0' + d % 10u;
}

int main(void)
{
	unsigned loops = 0;
	UART0_CTRL = 1;
	say("init\n");
	unsigned status = bench_init();
	say("status ");
	say_digit(status);
	say("\n");
	while (bench_sync()) {
		BENCH_CALL(fut, result, fut, input);
		loops++;
	}
	bench_done();
	say("loops ");
	say_digit(loops);
	say("\nresult ");
	say_digit((unsigned)result / 10u);
	say_digit((unsigned)result);
	say("\ndone\n");
	return 0;
}
