/* Stretches with a stack depth known to the byte (tests/stack/stack_e2e.py), each one marker pair
 * around one call into cases.S, whose frames are written in assembly:
 *   frame:   frame_fn's 8 bytes of saved registers and a 256-byte local array, written at its
 *            lowest word: 264 bytes.
 *   recurse: rec(n) calls itself n times, 8 bytes a level (push {r4, lr}): 8 * (input + 1).
 *   irq:     irq_fn pushes 8 bytes and pends PendSV, whose 32-byte basic frame (Armv7-M ARM
 *            B1.5.6; no FP context: this image is soft-float, CONTROL.FPCA stays 0) and handler's
 *            8 + 64 bytes follow: 112 bytes, and the sample is flagged interrupted.
 *   indirect: ind_fn calls frame_fn through a register: 8 + 264 = 272 bytes; the static code size
 *            counts ind_fn and one unknown call, the executed one both functions.
 *   deep:    recursion of 2048 levels, 16 KiB: past the 8 KiB the linker script leaves the stack
 *            (_Min_Stack_Size): a possible overflow, never a depth.
 * Each depth is below SP at BEGIN; the BKPT of BENCH_BEGIN is inline, so SP there is main's. */
#include "bench.h"

volatile unsigned input = 3;

void frame_fn(void);
void rec(unsigned n);
void irq_fn(void);
void ind_fn(void);

int main(void)
{
	bench_init();
	while (bench_sync()) {
		unsigned n = input;
		BENCH_BEGIN(frame);
		frame_fn();
		BENCH_END(frame);
		BENCH_BEGIN(recurse);
		rec(n);
		BENCH_END(recurse);
		BENCH_BEGIN(irq);
		irq_fn();
		BENCH_END(irq);
		BENCH_BEGIN(indirect);
		ind_fn();
		BENCH_END(indirect);
		if (n == 2047) {
			BENCH_BEGIN(deep);
			rec(n);
			BENCH_END(deep);
		}
	}
	bench_done();
	return 0;
}
