/* CPU-bound kernel for perf/bench_sim_mips.sh: bitwise CRC-32 (IEEE 802.3, reflected, polynomial
 * 0xEDB88320) over a 1 KiB buffer, CRC_ROUNDS times. The same C builds for bench-sim's STM32F4 map
 * (crc32_sim.ld, ends with BKPT #4, the DONE marker of docs/markers.md) and for QEMU's mps2-an386
 * (crc32_an386.ld, ends with semihosting SYS_EXIT: ARM DUI 0471 "Semihosting" 8.x, operation 0x18
 * with ADP_Stopped_ApplicationExit 0x20026). No libc, no initialised data: the same instructions
 * run on both. */
#include <stdint.h>

#ifndef CRC_ROUNDS
#define CRC_ROUNDS 10000
#endif
#define CRC_BUF 1024

static uint8_t buf[CRC_BUF];
volatile uint32_t crc_result;

static uint32_t crc32(const uint8_t *p, uint32_t n, uint32_t crc)
{
	crc = ~crc;
	while (n--) {
		crc ^= *p++;
		for (int k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
	}
	return ~crc;
}

static void finish(void)
{
#ifdef CRC_SEMIHOSTING
	register uint32_t op __asm__("r0") = 0x18u;     /* SYS_EXIT */
	register uint32_t arg __asm__("r1") = 0x20026u; /* ADP_Stopped_ApplicationExit */
	__asm__ volatile("bkpt #0xab" : : "r"(op), "r"(arg) : "memory");
#else
	__asm__ volatile("bkpt #4" : : : "memory"); /* DONE */
#endif
	for (;;) {
	}
}

void kernel_reset(void)
{
	uint32_t x = 12345u;
	for (uint32_t i = 0; i < CRC_BUF; i++) {
		x = x * 1103515245u + 12345u; /* any fixed pattern */
		buf[i] = (uint8_t)(x >> 16);
	}
	uint32_t crc = 0;
	for (uint32_t r = 0; r < CRC_ROUNDS; r++)
		crc = crc32(buf, CRC_BUF, crc);
	crc_result = crc;
	finish();
}

static void crc_fault(void)
{
	finish();
}

/* Armv7-M ARM B1.5.3 "The vector table": initial SP, Reset, then the exceptions. */
__attribute__((section(".vectors"), used)) static const uintptr_t crc_vectors[16] = {
    0x20020000u,          (uintptr_t)kernel_reset, (uintptr_t)crc_fault, (uintptr_t)crc_fault,
    (uintptr_t)crc_fault, (uintptr_t)crc_fault,    (uintptr_t)crc_fault,
};
