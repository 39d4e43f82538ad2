/* CPU-bound kernel with CoreMark's mix of work, written for this project (it shares no code with
 * EEMBC's CoreMark): each round walks, reverses and insertion-sorts a linked list of 32 records,
 * multiplies two 12 x 12 matrices of int16 into int32 and folds the result, runs a byte-driven
 * state machine over a 96-byte string of numbers, and feeds every result into a CRC-16
 * (CCITT, 0x1021). perf/bench_sim_mips.sh measures bench-sim's instructions per second on it
 * (figure sim_mips_coremark_like) and its cycles with the firmware's own flash set-up at 5 wait
 * states with the ART accelerator on against 0 wait states (coremark_like_ws5_art); the
 * sim.coremark_like test checks both runs end at DONE with the right checksum.
 *
 * Builds as crc32.c does: for bench-sim's STM32F4 map (ends with BKPT #4, DONE; with
 * KERNEL_MARKERS, BKPT #1 and BKPT #2 around the rounds, which need the debugger bench-sim
 * --standalone provides) and for QEMU's mps2-an386 (semihosting SYS_EXIT). A wrong checksum
 * never reaches DONE: it spins on bench-sim (the run times out) and exits with
 * ADP_Stopped_RunTimeErrorUnknown on QEMU. KERNEL_FLASH_ACR, when defined, is written to
 * FLASH_ACR (RM0090 3.9.1) before the rounds (0: the reset value). */
#include <stdint.h>

#ifndef KERNEL_ROUNDS
#define KERNEL_ROUNDS 2000
#endif
/* The checksum 2000 rounds give (6000: 0x5212, passed by the build); 0 rounds give the CRC's start
 * value. */
#ifndef KERNEL_EXPECT
#define KERNEL_EXPECT 0x3F90u
#endif

#define LIST_N   32
#define MAT_N    12
#define TEXT_LEN 96

struct rec {
	struct rec *next;
	int16_t key;
	uint16_t data;
};

static struct rec recs[LIST_N];
static int16_t mat_a[MAT_N * MAT_N], mat_b[MAT_N * MAT_N];
static int32_t mat_c[MAT_N * MAT_N];
static uint8_t text[TEXT_LEN];
volatile uint32_t kernel_result;

static uint16_t crc16(uint16_t crc, uint32_t v, unsigned bytes)
{
	for (unsigned i = 0; i < bytes; i++) {
		crc ^= (uint16_t)((v >> (8 * i)) & 0xFFu) << 8;
		for (int k = 0; k < 8; k++)
			crc = (crc & 0x8000u) ? (uint16_t)((crc << 1) ^ 0x1021u) : (uint16_t)(crc << 1);
	}
	return crc;
}

static struct rec *list_reverse(struct rec *head)
{
	struct rec *prev = 0;
	while (head) {
		struct rec *next = head->next;
		head->next = prev;
		prev = head;
		head = next;
	}
	return prev;
}

/* Insertion sort by key, stable; returns the new head. */
static struct rec *list_sort(struct rec *head)
{
	struct rec *sorted = 0;
	while (head) {
		struct rec *r = head, **at = &sorted;
		head = head->next;
		while (*at && (*at)->key <= r->key)
			at = &(*at)->next;
		r->next = *at;
		*at = r;
	}
	return sorted;
}

static uint16_t list_work(uint16_t crc, uint32_t round)
{
	struct rec *head = 0;
	for (int i = LIST_N - 1; i >= 0; i--) {
		recs[i].key = (int16_t)(((uint32_t)i * 37u + round) % 61u) - 30;
		recs[i].data = (uint16_t)(i ^ round);
		recs[i].next = head;
		head = &recs[i];
	}
	int16_t want = (int16_t)(round % 61u) - 30;
	uint32_t found = 0;
	for (struct rec *r = head; r; r = r->next)
		if (r->key == want)
			found += r->data;
	head = list_sort(list_reverse(head));
	uint32_t sum = 0, pos = 0;
	for (struct rec *r = head; r; r = r->next)
		sum += (uint32_t)(uint16_t)r->key * ++pos;
	crc = crc16(crc, found, 2);
	return crc16(crc, sum, 4);
}

static uint16_t matrix_work(uint16_t crc, uint32_t round)
{
	for (int i = 0; i < MAT_N * MAT_N; i++) {
		mat_a[i] = (int16_t)((i * 7 + (int)round) & 0xFF) - 128;
		mat_b[i] = (int16_t)((i * 13 + 5) & 0x7F) - 64;
	}
	for (int i = 0; i < MAT_N; i++)
		for (int j = 0; j < MAT_N; j++) {
			int32_t acc = 0;
			for (int k = 0; k < MAT_N; k++)
				acc += (int32_t)mat_a[i * MAT_N + k] * mat_b[k * MAT_N + j];
			mat_c[i * MAT_N + j] = acc;
		}
	uint32_t fold = 0;
	for (int i = 0; i < MAT_N * MAT_N; i++)
		fold = (fold << 1 | fold >> 31) ^ (uint32_t)mat_c[i];
	return crc16(crc, fold, 4);
}

enum state { S_START, S_SIGN, S_INT, S_DOT, S_FRAC, S_EXP, S_EXP_SIGN, S_EXP_INT, S_BAD };

/* Classifies comma-separated tokens as integers, decimals, scientific numbers or invalid. */
static uint16_t state_work(uint16_t crc, uint32_t round)
{
	static const char seed[] = "5012,1.23,-874,+122,3.6e-4,0.8,-0.1e+9,1a3,66,--9,7.,88e,0x1F,12345,";
	for (int i = 0; i < TEXT_LEN; i++)
		text[i] = (uint8_t)seed[(i + round) % (sizeof(seed) - 1)];
	uint32_t counts[4] = {0, 0, 0, 0};
	enum state s = S_START;
	for (int i = 0; i < TEXT_LEN; i++) {
		uint8_t c = text[i];
		int digit = c >= '0' && c <= '9';
		if (c == ',') {
			counts[s == S_INT ? 0 : s == S_FRAC ? 1 : s == S_EXP_INT ? 2 : 3]++;
			s = S_START;
			continue;
		}
		switch (s) {
		case S_START:
			s = digit ? S_INT : (c == '+' || c == '-') ? S_SIGN : c == '.' ? S_DOT : S_BAD;
			break;
		case S_SIGN:
			s = digit ? S_INT : c == '.' ? S_DOT : S_BAD;
			break;
		case S_INT:
			s = digit ? S_INT : c == '.' ? S_DOT : (c == 'e' || c == 'E') ? S_EXP : S_BAD;
			break;
		case S_DOT:
			s = digit ? S_FRAC : S_BAD;
			break;
		case S_FRAC:
			s = digit ? S_FRAC : (c == 'e' || c == 'E') ? S_EXP : S_BAD;
			break;
		case S_EXP:
			s = digit ? S_EXP_INT : (c == '+' || c == '-') ? S_EXP_SIGN : S_BAD;
			break;
		case S_EXP_SIGN:
		case S_EXP_INT:
			s = digit ? S_EXP_INT : S_BAD;
			break;
		default:
			break;
		}
	}
	for (int i = 0; i < 4; i++)
		crc = crc16(crc, counts[i], 1);
	return crc;
}

static void finish(uint32_t ok)
{
#ifdef KERNEL_SEMIHOSTING
	/* SYS_EXIT (0x18): ADP_Stopped_ApplicationExit 0x20026, or ADP_Stopped_RunTimeErrorUnknown
	 * 0x20023 (ARM DUI 0471, semihosting operations). */
	register uint32_t op __asm__("r0") = 0x18u;
	register uint32_t arg __asm__("r1") = ok ? 0x20026u : 0x20023u;
	__asm__ volatile("bkpt #0xab" : : "r"(op), "r"(arg) : "memory");
#else
	if (ok)
		__asm__ volatile("bkpt #4" : : : "memory"); /* DONE */
#endif
	for (;;) {
	}
}

#ifdef KERNEL_FLASH_ACR
/* Read from flash, not folded into the code: the variants that set different FLASH_ACR values run
 * the same instructions at the same addresses, so their cycles differ by the flash's cost alone
 * (a halfword's shift of this loop changes the fetch model's alignment stalls by 5 %). */
static const volatile uint32_t kernel_flash_acr = KERNEL_FLASH_ACR;
#endif

void kernel_reset(void)
{
#ifdef KERNEL_FLASH_ACR
	uint32_t acr = kernel_flash_acr;
	*(volatile uint32_t *)0x40023C00u = acr; /* FLASH_ACR, RM0090 3.9.1 */
	while ((*(volatile uint32_t *)0x40023C00u & 0xFu) != (acr & 0xFu)) {
	}
#endif
#ifdef KERNEL_MARKERS
	__asm__ volatile("bkpt #1" : : : "memory");
#endif
	uint16_t crc = 0xFFFFu;
	for (uint32_t r = 0; r < KERNEL_ROUNDS; r++) {
		crc = list_work(crc, r);
		crc = matrix_work(crc, r);
		crc = state_work(crc, r);
	}
#ifdef KERNEL_MARKERS
	__asm__ volatile("bkpt #2" : : : "memory");
#endif
	kernel_result = crc;
	finish(KERNEL_ROUNDS == 0 ? crc == 0xFFFFu : crc == KERNEL_EXPECT);
}

/* Every fault and the escalated BKPT #4 of a run without a debugger end here. A BKPT in the
 * HardFault handler locks the core up (Armv7-M ARM B1.5.15), which perf/bench_sim_mips.sh's
 * instruction count waits for; under a debugger it halts as imm=5, which is not DONE. */
static void kernel_fault(void)
{
#ifndef KERNEL_SEMIHOSTING
	__asm__ volatile("bkpt #5" : : : "memory");
#endif
	finish(0);
}

/* Armv7-M ARM B1.5.3 "The vector table": initial SP, Reset, then the exceptions. */
__attribute__((section(".vectors"), used)) static const uintptr_t kernel_vectors[16] = {
    0x20020000u,
    (uintptr_t)kernel_reset,
    (uintptr_t)kernel_fault,
    (uintptr_t)kernel_fault,
    (uintptr_t)kernel_fault,
    (uintptr_t)kernel_fault,
    (uintptr_t)kernel_fault,
};
