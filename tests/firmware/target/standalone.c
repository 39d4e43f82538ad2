/* Runs the marker runtime with no debugger attached (QEMU mps2-an386, a Cortex-M4 whose DHCSR reads
 * 0 and whose DWT is absent; QEMU microbit, an ARMv6-M Cortex-M0 with no DWT, no monitor debug, no
 * HFSR), printing each step on the board's UART (board_config.h; QEMU's serial output):
 * every marker BKPT must be stepped over by the DebugMon/HardFault handler, the loop body must run
 * exactly once, and bench_init() must report "no cycle counter". tests/target/qemu_standalone.py
 * checks the lines. */
#include "bench.h"
#include "board_config.h"

int fut(int input);
volatile int input = 7;
volatile int result;

static void say(const char *s)
{
	while (*s)
		TEST_UART_PUTC(*s++);
}

static void say_digit(unsigned d)
{
	TEST_UART_PUTC('0' + d % 10u);
}

int main(void)
{
	unsigned loops = 0;
	TEST_UART_INIT();
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
