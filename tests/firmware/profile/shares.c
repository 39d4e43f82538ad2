/* One stretch whose cycles go 75 % to heavy() and 25 % to light(): the same loop, aligned alike so
 * each iteration costs the same cycles (flash lines, prefetch), run 3n and n times in turns of
 * CHUNK. `input` is n, a multiple of CHUNK.
 * tests/profile/profile_e2e.py checks the sampled shares against 0.75 and 0.25 within 4 standard
 * errors; the calls and the loop around them are about 20 cycles a turn of 16000. */
#include "bench.h"

volatile unsigned input = 1000;

/* heavy and light take turns, CHUNK iterations of light (16000 cycles a turn), so a stretch is
 * hundreds of turns: sampling that runs slower or faster for a while (the virtual board runs the
 * core between the probe's requests, and the machine's load varies) falls on both alike, not on
 * whichever ran then. Run as heavy(3n) then light(n) the hla shares strayed by 4 standard errors
 * in one run of four. */
#define CHUNK 1000u
volatile unsigned sink;

/* The loop in assembly, on a 16-byte boundary (one flash line, RM0090 3.4): the compiler placed
 * heavy's loop at 2 mod 4 and light's at 0 mod 4, 7 and 6 cycles an iteration (an unaligned add.w
 * waits for its second halfword), which made the shares 7/9 and 2/9 instead of 3/4 and 1/4. */
#define LOOP(count)                                                                                        \
	do {                                                                                               \
		unsigned a = sink, i = (count);                                                            \
		__asm__ volatile(".p2align 4\n"                                                            \
		                 "1:\n\t"                                                                  \
		                 "add.w %1, %1, %1, lsl #5\n\t"                                            \
		                 "subs %0, %0, #1\n\t"                                                     \
		                 "bne 1b\n"                                                                 \
		                 : "+r"(i), "+r"(a)                                                        \
		                 :                                                                         \
		                 : "cc");                                                                  \
		sink = a;                                                                                  \
	} while (0)

__attribute__((noinline, aligned(64))) void heavy(unsigned n)
{
	LOOP(3u * n);
}

__attribute__((noinline, aligned(64))) void light(unsigned n)
{
	LOOP(n);
}

int main(void)
{
	bench_init();
	while (bench_sync()) {
		unsigned n = input;
		BENCH_BEGIN(shares);
		for (unsigned k = 0; k < n; k += CHUNK) {
			heavy(CHUNK);
			light(CHUNK);
		}
		BENCH_END(shares);
	}
	bench_done();
	return 0;
}
