/* bench markers: what firmware includes so `bench run` can measure it (docs/markers.md, docs/target.md).
 *
 * Each marker is one `BKPT #imm` (Armv7-M ARM A7.7.17). With a debugger attached the core halts on
 * it (DHCSR.C_DEBUGEN set, Armv7-M ARM C1.6); the host reads DWT_CYCCNT there and resumes past it.
 * Each marker site also records itself (address, kind, id, name) in the non-allocated ELF section
 * `.bench_markers`, so the host knows every marker from the ELF alone; the record costs no target
 * memory.
 *
 * The measured stretch between BENCH_BEGIN's BKPT and BENCH_END's BKPT holds nothing but the code
 * under test: the markers themselves test nothing. DHCSR.C_DEBUGEN is tested in bench_init() and
 * bench_sync(), outside every stretch; with no debugger, bench_init() sets DEMCR.MON_EN so a BKPT
 * takes the DebugMonitor exception instead of halting (Armv7-M ARM C1.7), and the port's
 * DebugMon/HardFault handler steps over a bench BKPT (bench_skip_bkpt), so the same firmware runs
 * stand-alone, and a host that plants breakpoints on the marker sites (QEMU) sees every marker.
 * An empty BEGIN/END pair thus costs exactly what the calibration pair (CAL_BEGIN/CAL_END, two BKPTs
 * back to back in bench_init) costs, and the host subtracts that.
 *
 * `.bench_markers` carries the section flag "R" (SHF_GNU_RETAIN, binutils 2.36+), so `-Wl,--gc-sections`
 * keeps it with any linker script; with older binutils add `KEEP(*(.bench_markers))` to the script's
 * SECTIONS (docs/integrate.md).
 *
 * C99 or C++ (GNU inline assembly; `extern "C"` declarations); also includable from assembler
 * sources (.S) for the BENCH_ASM_* macros. BKPT #0xAB is semihosting and is never used. */
#ifndef BENCH_H
#define BENCH_H

/* BKPT immediates, bench_ctl's layout and status values: shared with the host (docs/markers.md). */
#include "bench_abi.h"

#ifdef __ASSEMBLER__

/* The record of one marker site, from assembly: kind, id, name (an identifier). Put it right where
 * the BKPT goes: `BENCH_ASM_MARKER BENCH_KIND_BEGIN, 1, nop10`. */
/* clang-format off */
	.macro BENCH_ASM_MARKER kind, id, name
.Lbench_bkpt_\@:
	bkpt #\kind
	.pushsection .bench_markers, "R", %progbits
	.balign 4
	.word .Lbench_bkpt_\@
	.byte \kind, BENCH_RECORD_VERSION
	.hword \id
	.byte .Lbench_name_end_\@ - .Lbench_name_\@ - 1, 0, 0, 0
.Lbench_name_\@:
	.asciz "\name"
.Lbench_name_end_\@:
	.balign 4
	.popsection
	.endm
                              /* clang-format on */
                              /* bench_sync() from assembly (it is inline in C): the answer in r0; clobbers what a call
                               * does (r0-r3, r12, lr). Thumb-1 instructions only, so ARMv6-M assembles it too. */
                              /* clang-format off */
	.macro BENCH_ASM_SYNC
	ldr r0, =bench_ctl
	movs r1, #0
	mvns r1, r1                 /* BENCH_ITERATION_NONE */
	str r1, [r0, #12]           /* bench_ctl.iteration (BENCH_CTL_OFF_ITERATION) */
	BENCH_ASM_MARKER BENCH_KIND_SYNC, 0, sync
	bl bench_sync_answer
	.endm
/* clang-format on */
#define BENCH_ASM_BEGIN(id, name) BENCH_ASM_MARKER BENCH_KIND_BEGIN, id, name
#define BENCH_ASM_END(id, name)   BENCH_ASM_MARKER BENCH_KIND_END, id, name

#else /* C */

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The control block the host reads and writes at SYNC halts (docs/markers.md). */
struct bench_ctl {
	uint32_t magic;     /* BENCH_CTL_MAGIC */
	uint32_t version;   /* BENCH_CTL_VERSION */
	uint32_t stop;      /* host writes 1 at a SYNC halt: leave the measurement loop */
	uint32_t iteration; /* host writes the repetition number at each SYNC */
	uint32_t status;    /* BENCH_CTL_STATUS_* from bench_init */
};
extern volatile struct bench_ctl bench_ctl;

#define BENCH__STR(x)                #x
#define BENCH__XSTR(x)               BENCH__STR(x)

/* clang-format off */
/* One marker site: the BKPT and its record. `id` is an integer constant; `name` a string literal.
 * %= makes the labels unique per asm instance, so inlined or unrolled copies each record their own
 * address. The "memory" clobber keeps memory accesses of the code under test on their side. */
#define BENCH__MARKER(kind, id, name)                                                                  \
	__asm__ volatile(".Lbench_bkpt_%=:\n\t"                                                          \
			 "bkpt #" BENCH__XSTR(kind) "\n\t"                                               \
			 ".pushsection .bench_markers, \"R\", %%progbits\n\t"                             \
			 ".balign 4\n\t"                                                                 \
			 ".word .Lbench_bkpt_%=\n\t"                                                     \
			 ".byte " BENCH__XSTR(kind) ", " BENCH__XSTR(BENCH_RECORD_VERSION) "\n\t"        \
			 ".hword %c0\n\t"                                                                \
			 ".byte .Lbench_name_end_%= - .Lbench_name_%= - 1, 0, 0, 0\n"                    \
			 ".Lbench_name_%=:\n\t"                                                          \
			 ".asciz \"" name "\"\n"                                                         \
			 ".Lbench_name_end_%=:\n\t"                                                      \
			 ".balign 4\n\t"                                                                 \
			 ".popsection"                                                                   \
			 :                                                                               \
			 : "i"(id)                                                                       \
			 : "memory")

/* The pair's id: the first marker of a name in a translation unit picks the next number of
 * __COUNTER__; later markers of the same name reuse it (an assembler symbol per name), so a BEGIN
 * and its END always share it. Within a file, pairs are told apart by name. `outs` and `ins` are
 * asm operand lists (may be empty) that tie values to the marker: see BENCH_CALL. */
#define BENCH__PAIR_MARKER(kind, name, outs, ins)                                                      \
	__asm__ volatile(".ifndef .Lbench_id_" #name "\n\t"                                             \
			 ".set .Lbench_id_" #name ", %c0\n\t"                                           \
			 ".endif" ::"i"(__COUNTER__ + 1));                                               \
	__asm__ volatile(".Lbench_bkpt_%=:\n\t"                                                         \
			 "bkpt #" BENCH__XSTR(kind) "\n\t"                                              \
			 ".pushsection .bench_markers, \"R\", %%progbits\n\t"                            \
			 ".balign 4\n\t"                                                                \
			 ".word .Lbench_bkpt_%=\n\t"                                                    \
			 ".byte " BENCH__XSTR(kind) ", " BENCH__XSTR(BENCH_RECORD_VERSION) "\n\t"       \
			 ".hword .Lbench_id_" #name "\n\t"                                              \
			 ".byte .Lbench_name_end_%= - .Lbench_name_%= - 1, 0, 0, 0\n"                   \
			 ".Lbench_name_%=:\n\t"                                                         \
			 ".asciz \"" #name "\"\n"                                                       \
			 ".Lbench_name_end_%=:\n\t"                                                     \
			 ".balign 4\n\t"                                                                \
			 ".popsection"                                                                   \
			 : outs                                                                          \
			 : ins                                                                           \
			 : "memory")

/* clang-format on */

/* Start / end of a measured stretch. `name` is an identifier (it names the result). */
#define BENCH_BEGIN(name)            BENCH__PAIR_MARKER(0x01, name, , )
#define BENCH_END(name)              BENCH__PAIR_MARKER(0x02, name, , )

/* Keep `value` alive: the compiler must compute it, here, and may not drop it (Google Benchmark's
 * DoNotOptimize). No instruction for a value already in a register. */
#define bench_do_not_optimize(value) __asm__ volatile("" : : "r,m"(value) : "memory")
/* The compiler must assume `var` changed here: it cannot compute with it before this point. */
#define bench_launder(var)           __asm__ volatile("" : "+r"(var) : : "memory")
/* All memory may have been read and written here (Google Benchmark's ClobberMemory). */
#define bench_clobber_memory()       __asm__ volatile("" : : : "memory")

/* Measures `result = fn(arg)` for a scalar (integer, pointer) argument and result. The argument is
 * an in/out operand of the BEGIN marker, so its computation (a volatile read, say) happens before
 * the BKPT and the call cannot start early; the result is an input of the END marker, so the call
 * cannot finish late. Between the two BKPTs there is the call and at most the moves the calling
 * convention needs. (With -mfloat-abi=hard a float argument or result crosses a core register:
 * one VMOV each; use BENCH_BEGIN/END around your own code there.) */
/* clang-format off */
#define BENCH_CALL(name, result, fn, arg)                                                              \
	do {                                                                                           \
		__typeof__((arg) + 0) bench__arg = (arg);                                              \
		BENCH__PAIR_MARKER(0x01, name, "+r"(bench__arg), );                                    \
		__typeof__(fn(bench__arg)) bench__res = fn(bench__arg);                                \
		BENCH__PAIR_MARKER(0x02, name, , "r"(bench__res));                                     \
		(result) = bench__res;                                                                 \
	} while (0)
/* clang-format on */

/* Enables the cycle counter (DEMCR.TRCENA, DWT_CTRL.CYCCNTENA; unlocks a Cortex-M7 DWT) and sets
 * bench_ctl.status; with no debugger sets DEMCR.MON_EN so markers are stepped over; then runs the
 * calibration pair. Call once, first thing in main(). Returns bench_ctl.status. */
uint32_t bench_init(void);
/* What bench_sync() returns after its BKPT (bench.c). */
int bench_sync_answer(void);
/* The SYNC marker: the host writes inputs and bench_ctl here. Returns 0 when the host asked to
 * stop (bench_ctl.stop); with no host (bench_ctl.iteration left at BENCH_ITERATION_NONE and no
 * debugger) returns 1 once, so the loop body runs once. Inline, so the SYNC marker's record is in
 * the ELF only when the firmware calls it: a firmware without a SYNC loop (one measurement per
 * boot) is then run from reset once per sample (docs/run.md), though it links bench.c. */
static inline int bench_sync(void)
{
	/* A host writes bench_ctl.iteration at every SYNC halt; if the marker is stepped over with
	 * nobody writing (no debugger, no breakpoint on it), the sentinel survives. */
	bench_ctl.iteration = BENCH_ITERATION_NONE;
	BENCH__MARKER(BENCH_KIND_SYNC, 0, "sync");
	return bench_sync_answer();
}
/* The DONE marker: the host reads results and stops. Returns when nobody halts there. */
void bench_done(void);
/* Nonzero when a debugger has enabled halting debug (DHCSR.C_DEBUGEN, Armv7-M ARM C1.6.3). */
int bench_debugger_attached(void);

/* For a firmware's own HardFault/DebugMon handler: when the exception came from a bench BKPT with
 * no debugger, moves the stacked PC past it, clears HFSR.DEBUGEVT/DFSR.BKPT and returns 1; else 0.
 * `frame` is the stacked exception frame (MSP or PSP at entry). */
int bench_skip_bkpt(uint32_t *frame);

/* The ready entry for a firmware's own HardFault_Handler and DebugMon_Handler (a CubeMX
 * stm32f4xx_it.c): the first statement in the handler's USER CODE section 0,
 *
 *     void DebugMon_Handler(void)
 *     {
 *       // USER CODE BEGIN DebugMonitor_IRQn 0
 *       BENCH_HANDLER_ENTRY();
 *       // USER CODE END DebugMonitor_IRQn 0
 *
 * returns from the exception past the BKPT when it came from a bench marker with no debugger
 * attached, and otherwise falls through to the rest of the handler. It works whatever the handler's
 * prologue pushed: the exception frame is found from EXC_RETURN (the handler's return address,
 * bit 2: PSP or MSP, Armv7-M ARM B1.5.8) and, for MSP, from the stack pointer at the handler's
 * entry (the DWARF CFA), not from SP. */
#define BENCH_HANDLER_ENTRY()                                                                                          \
	do {                                                                                                           \
		if (bench_handler_entry((uint32_t)(uintptr_t)__builtin_return_address(0),                              \
		                        (uint32_t *)__builtin_dwarf_cfa()))                                            \
			return;                                                                                        \
	} while (0)
/* What BENCH_HANDLER_ENTRY calls: `exc_return` is the handler's LR at entry, `sp_at_entry` the MSP
 * there (where an exception frame on the main stack starts). Returns bench_skip_bkpt's answer. */
int bench_handler_entry(uint32_t exc_return, uint32_t *sp_at_entry);

#ifdef __cplusplus
}
#endif

#endif /* __ASSEMBLER__ */
#endif /* BENCH_H */
