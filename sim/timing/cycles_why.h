/* Why a cycle is counted: the fixed list of reasons of the cycle ledger (docs/cycle-model.md "The
 * cycle ledger" links each to its rule, its source in the manuals and the file that charges it).
 * A leaf: the rules (cycles_rules.c) split every instruction's cost by these, the core
 * (core/core.h, enum core_charge_why, the same list in the same order) charges them. */
#ifndef SIM_TIMING_CYCLES_WHY_H
#define SIM_TIMING_CYCLES_WHY_H

/* X(ID, "name"): the reasons in ledger column order. ISSUE comes first and is charged exactly once
 * for every instruction executed (0 cycles for an IT folded away, 1 for a failed conditional), so
 * a consumer counts executions per address by counting its ISSUE charges. */
#define CYC_WHY_LIST(X)                                                                                                \
	X(ISSUE, "issue")                       /* the instruction's own cost: table 3-1 / 7-1 row */                  \
	X(FETCH_BUFFER, "fetch-buffer")         /* waits for its words: prefetch buffer drained or stolen */           \
	X(FETCH_UNALIGNED, "fetch-unaligned")   /* waits of a 32-bit instruction at an address 2 mod 4 */              \
	X(FLASH_FETCH, "flash-fetch")           /* flash wait states of instruction fetches (ART misses) */            \
	X(FLASH_DATA, "flash-data")             /* flash wait states of data reads (literal pools, tables) */          \
	X(ADDRESS_DEP, "address-dep")           /* a base/index the instruction before computed (AGU stall) */         \
	X(LOAD_AFTER_STORE, "load-after-store") /* a load waiting for the data phase of a 1-cycle store */             \
	X(STORE_WRITEBACK, "store-writeback")   /* pre/post-indexed stores chained on one base register */             \
	X(MEMORY_BLOCK, "memory-block")         /* two pipelined loads that read different memory blocks */            \
	X(BRANCH_COND, "branch-cond")           /* refill of a taken B<cc>, CBZ/CBNZ */                                \
	X(BRANCH_JUMP, "branch-jump")           /* refill of a taken B (immediate, unconditional) */                   \
	X(BRANCH_CALL, "branch-call")           /* refill of BL */                                                     \
	X(BRANCH_RETURN, "branch-return")       /* refill of BX LR, BLX LR, MOV PC,LR */                               \
	X(BRANCH_INDIRECT, "branch-indirect")   /* refill of BX/BLX Rm, MOV/ADD PC,Rm */                               \
	X(BRANCH_LOAD, "branch-load")           /* refill of LDR PC, LDM/POP {..,PC}, TBB/TBH */                       \
	X(ISB, "isb")                           /* ISB's pipeline refill (B) */                                        \
	X(IT, "it")                             /* an IT instruction not folded onto the one before */                 \
	X(DIVIDE, "divide")                     /* UDIV/SDIV beyond 2 cycles, by operands */                           \
	X(FPU_RESULT, "fpu-result")             /* an FP result used by the next instruction (7.2.3) */                \
	X(EXC_ENTRY, "exc-entry")               /* exception entry: stacking, vector fetch */                          \
	X(EXC_RETURN, "exc-return")             /* exception return: unstacking */                                     \
	X(EXC_TAIL_CHAIN, "exc-tail-chain")     /* tail-chaining from one handler to the next */                       \
	X(EXC_FP_CONTEXT, "exc-fp-context")     /* the FP part of an exception frame, stacked or unstacked */          \
	X(SLEEP, "sleep")                       /* WFI/WFE until the next event */                                     \
	X(UNALIGNED, "unaligned")               /* an unaligned LDR/LDRH/STR/STRH split in two (--unaligned) */

#define CYC_WHY_ENUM_(id, name) CYC_WHY_##id,
enum cyc_why {
	CYC_WHY_LIST(CYC_WHY_ENUM_) CYC_WHY_N,
};
#undef CYC_WHY_ENUM_

/* The reason's name as the ledger prints it ("issue", "branch-cond"...), NULL outside the list. */
const char *cyc_why_name(unsigned why);

#endif /* SIM_TIMING_CYCLES_WHY_H */
