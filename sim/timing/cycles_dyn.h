/* What of an instruction's cost is only known at run time (the Cortex-M4 cycle model's dynamic
 * part, cycles_dyn.c): the flags a block's instructions carry (enum cyc_dyn), the divider's
 * early termination and condition evaluation. A leaf: the rules (cycles_rules.c) set the flags,
 * the block decoder (cycles.c) stores them, the core acts on them (cycles.h says how). */
#ifndef SIM_TIMING_CYCLES_DYN_H
#define SIM_TIMING_CYCLES_DYN_H

#include <stdbool.h>
#include <stdint.h>

/* Flags of an instruction whose cost is only known at run time, and what the core must do with
 * each (the block's static cost assumes the common case):
 *  - CYC_DYN_BRANCH: only the last instruction of a block writes PC. When the next block does not
 *    start at `fallthrough`, the branch was taken: add branch_taken_extra to CYCCNT and to CPICNT.
 *  - CYC_DYN_DIVIDE: read the dividend and divisor registers named by aux[i] (dividend << 4 |
 *    divisor, core register numbers) before the instruction runs (a UC_HOOK_CODE on exactly that
 *    address), add cyc_divide_extra() to CYCCNT and CPICNT.
 *  - CYC_DYN_CONDITIONAL: cond[i] holds the condition. An instruction that fails it costs 1 cycle
 *    (table 3-1), so cyc_skip_saving() cycles come off. It is 0 for 1-cycle instructions, so only
 *    those with a saving need care: the last instruction of a block (a conditional POP {..,PC},
 *    LDR PC, BX in an IT block: CYC_DYN_BRANCH is set too) failed when the next block starts at
 *    `fallthrough` (without CYC_DYN_BRANCH, the block was only split there); for one in the
 *    middle of a block, evaluate cyc_cond_passed() on APSR in a code hook on that address, or keep
 *    the executed cost (docs/cycle-model.md says which the core does).
 *  - CYC_DYN_EXCEPTION: if the instruction raises its exception, charge the cycles up to and
 *    including it (cost_before[i + 1]; a BKPT that halts is not executed: cost_before[i]) and then
 *    cyc_exception_entry(). */
enum cyc_dyn {
	CYC_DYN_NONE = 0,
	CYC_DYN_DIVIDE = 1 << 0,      /* UDIV/SDIV: 2..12 cycles by operand values */
	CYC_DYN_BRANCH = 1 << 1,      /* block ends in a branch: refill when taken */
	CYC_DYN_CONDITIONAL = 1 << 2, /* executes in an IT block or with a condition */
	CYC_DYN_EXCEPTION = 1 << 3,   /* may raise an exception (SVC, BKPT, UDF) */
	CYC_DYN_LITERAL = 1 << 4,     /* a PC-relative load (literal pool): nothing for the core to do;
	                               * the fetch model and the flash accelerator use it */
	CYC_DYN_PIPELINED = 1 << 5,   /* a single load the rules pipelined with the load before it: with
	                               * sim_config.memory_blocks not off, the core takes the cycle back
	                               * when the two read different memory blocks */
	CYC_DYN_SPECULATED = 1 << 6,  /* a B<cc> outside an IT block: its target is fetched at decode
	                               * whether it is taken or not (exit_state has the steal) */
};

/* Divide cost by operands (TRM 3.3.1, note on UDIV/SDIV: 2-12 cycles, early termination by
 * the number of leading zeros). Returns the cycles beyond the static cost charged already. */
uint32_t cyc_divide_extra(uint32_t dividend, uint32_t divisor, bool is_signed);
/* Does condition cond (A7.3) pass with these APSR flags (N bit 31, Z 30, C 29, V 28)? */
bool cyc_cond_passed(uint8_t cond, uint32_t apsr);

#endif /* SIM_TIMING_CYCLES_DYN_H */
