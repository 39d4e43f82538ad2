/* Cortex-M4 instruction costs. Every number cites its row in the Cortex-M4 TRM r0p1 (ARM DDI 0439B):
 * section 3.3.1 table 3-1 "Cortex-M4 instruction set summary" (integer), 3.3.2 "Load/store timings",
 * and section 7.2.3 table 7-1 "FPU instruction set" (floating point). docs/cycle-model.md lists every
 * rule with what is approximated. Symbols as in the TRM: P = pipeline refill, N = registers moved,
 * B = barrier, W = wait for event. */
#include "timing/cycles_operands.h"
#include "timing/cycles_rules.h"
#include "timing/cycles_dyn.h"

#include <string.h>

/* Instruction classes: the table below maps capstone's instruction id to one. Every id not listed
 * is a 1-cycle data-processing instruction (table 3-1 rows Move, Add, Subtract, Multiply, Saturate,
 * Compare, Logical, Shift, Rotate, Count, Extend, Bit field, Reverse, Hint NOP/SEV/YIELD, and the
 * DSP rows of the Cortex-M4: all single cycle, MLA/MLS/SMULL/UMULL/SMLAL/UMLAL/UMAAL included). */
enum cyc_class {
	K_DP = 0,
	K_DIV,     /* SDIV/UDIV: 2-12, note a (early termination) */
	K_LOAD,    /* LDR/LDRH/LDRB/LDRSH/LDRSB/LDRT/LDREX*: 2, note b (pipelining) */
	K_STORE,   /* STR/STRH/STRB/STRT/STREX*: 1 with the store buffer (3.3.2) */
	K_LOADD,   /* LDRD: 1 + N, N = 2 */
	K_STORED,  /* STRD: 1 + N, N = 2 */
	K_LDM,     /* LDM/LDMDB/POP: 1 + N, + P with PC in the list */
	K_STM,     /* STM/STMDB/PUSH: 1 + N */
	K_B,       /* B, B<cc>, BL: 1 + P taken, 1 not taken (note c) */
	K_BX,      /* BX/BLX Rm: 1 + P */
	K_CB,      /* CBZ/CBNZ: 1 + P taken, 1 not taken (note c) */
	K_TB,      /* TBB/TBH: 2 + P */
	K_IT,      /* IT: 1, 0 when folded onto a preceding 16-bit instruction (note d) */
	K_ISB,     /* ISB: 1 + B, B = a pipeline refill */
	K_BARRIER, /* DMB/DSB: 1 + B, B = 0 with the store buffer empty */
	K_MSR,     /* MSR: 1 or 2 */
	K_CPS,     /* CPSID/CPSIE: 1 or 2 */
	K_EXC,     /* BKPT/SVC/UDF: "-": the exception entry is charged by the core */
	K_WAIT,    /* WFI/WFE: 1 + W, W charged by the core as sleep */
	K_FP1,     /* table 7-1: VADD/VSUB/VMUL/VNMUL/VABS/VNEG/VCMP/VCVT/VMRS/VMSR: 1 */
	K_FP3,     /* table 7-1: VMLA/VMLS/VNMLA/VNMLS/VFMA/VFMS/VFNMA/VFNMS: 3 */
	K_FP14,    /* table 7-1: VDIV/VSQRT: 14 */
	K_VMOV,    /* table 7-1: VMOV: 1, 2 when two core registers move */
	K_VLDR,    /* table 7-1: VLDR.32 2, VLDR.64 3 */
	K_VSTR,    /* table 7-1: VSTR.32 2, VSTR.64 3 */
	K_VLDM,    /* table 7-1: VLDM/VPOP .32 1 + N, .64 1 + 2N */
	K_VSTM,    /* table 7-1: VSTM/VPUSH .32 1 + N, .64 1 + 2N */
};

static const uint8_t insn_class[ARM_INS_ENDING] = {
    [ARM_INS_SDIV] = K_DIV,    [ARM_INS_UDIV] = K_DIV,     [ARM_INS_LDR] = K_LOAD,     [ARM_INS_LDRB] = K_LOAD,
    [ARM_INS_LDRH] = K_LOAD,   [ARM_INS_LDRSB] = K_LOAD,   [ARM_INS_LDRSH] = K_LOAD,   [ARM_INS_LDRT] = K_LOAD,
    [ARM_INS_LDRBT] = K_LOAD,  [ARM_INS_LDRHT] = K_LOAD,   [ARM_INS_LDRSBT] = K_LOAD,  [ARM_INS_LDRSHT] = K_LOAD,
    [ARM_INS_LDREX] = K_LOAD, /* "LDREX and STREX can be pipelined exactly as LDR" (3.3.2) */
    [ARM_INS_LDREXB] = K_LOAD, [ARM_INS_LDREXH] = K_LOAD,  [ARM_INS_STR] = K_STORE,    [ARM_INS_STRB] = K_STORE,
    [ARM_INS_STRH] = K_STORE,  [ARM_INS_STRT] = K_STORE,   [ARM_INS_STRBT] = K_STORE,  [ARM_INS_STRHT] = K_STORE,
    [ARM_INS_STREX] = K_STORE, [ARM_INS_STREXB] = K_STORE, [ARM_INS_STREXH] = K_STORE, [ARM_INS_LDRD] = K_LOADD,
    [ARM_INS_STRD] = K_STORED, [ARM_INS_LDM] = K_LDM,      [ARM_INS_LDMDB] = K_LDM,    [ARM_INS_POP] = K_LDM,
    [ARM_INS_STM] = K_STM,     [ARM_INS_STMDB] = K_STM,    [ARM_INS_PUSH] = K_STM,     [ARM_INS_B] = K_B,
    [ARM_INS_BL] = K_B,        [ARM_INS_BX] = K_BX,        [ARM_INS_BLX] = K_BX,       [ARM_INS_CBZ] = K_CB,
    [ARM_INS_CBNZ] = K_CB,     [ARM_INS_TBB] = K_TB,       [ARM_INS_TBH] = K_TB,       [ARM_INS_IT] = K_IT,
    [ARM_INS_ISB] = K_ISB,     [ARM_INS_DMB] = K_BARRIER,  [ARM_INS_DSB] = K_BARRIER,  [ARM_INS_MSR] = K_MSR,
    [ARM_INS_CPS] = K_CPS,     [ARM_INS_BKPT] = K_EXC,     [ARM_INS_SVC] = K_EXC,      [ARM_INS_UDF] = K_EXC,
    [ARM_INS_WFI] = K_WAIT,    [ARM_INS_WFE] = K_WAIT,     [ARM_INS_VADD] = K_FP1,     [ARM_INS_VSUB] = K_FP1,
    [ARM_INS_VMUL] = K_FP1,    [ARM_INS_VNMUL] = K_FP1,    [ARM_INS_VABS] = K_FP1,     [ARM_INS_VNEG] = K_FP1,
    [ARM_INS_VCMP] = K_FP1,    [ARM_INS_VCMPE] = K_FP1,    [ARM_INS_VCVT] = K_FP1,     [ARM_INS_VCVTB] = K_FP1,
    [ARM_INS_VCVTT] = K_FP1,   [ARM_INS_VCVTR] = K_FP1,    [ARM_INS_VMRS] = K_FP1,     [ARM_INS_VMSR] = K_FP1,
    [ARM_INS_VMLA] = K_FP3,    [ARM_INS_VMLS] = K_FP3,     [ARM_INS_VNMLA] = K_FP3,    [ARM_INS_VNMLS] = K_FP3,
    [ARM_INS_VFMA] = K_FP3,    [ARM_INS_VFMS] = K_FP3,     [ARM_INS_VFNMA] = K_FP3,    [ARM_INS_VFNMS] = K_FP3,
    [ARM_INS_VDIV] = K_FP14,   [ARM_INS_VSQRT] = K_FP14,   [ARM_INS_VMOV] = K_VMOV,    [ARM_INS_VLDR] = K_VLDR,
    [ARM_INS_VSTR] = K_VSTR,   [ARM_INS_VLDMIA] = K_VLDM,  [ARM_INS_VLDMDB] = K_VLDM,  [ARM_INS_VPOP] = K_VLDM,
    [ARM_INS_VSTMIA] = K_VSTM, [ARM_INS_VSTMDB] = K_VSTM,  [ARM_INS_VPUSH] = K_VSTM,
};

/* P, the pipeline refill after a taken branch: 1..3 in the Cortex-M4 TRM r0p1 table 3-1 "depending on
 * the alignment and width of the target instruction, and whether the processor manages to speculate
 * the address early". The M4 keeps the Cortex-M3's fetch and decode stages; the Cortex-M3 TRM r2p0
 * (ARM DDI 0337G) 1.4 "Prefetch Unit" and table 15-3 "Branches and stages evaluated by the processor"
 * say which branches issue their target at decode (B, B<cc>, BL with an immediate; BX LR, BLX LR,
 * MOV PC,LR "if LR is not being written during decode") and which only at execute (BX/BLX Rm,
 * CBZ/CBNZ, ADD/MOV PC, LDR PC, LDM to PC, ISB). Measured on a Cortex-M4 (compendium.i-0.nl,
 * "Branch timing"): a taken B costs 2 cycles, 3 when its target is a 32-bit instruction at an
 * address that is not word aligned. So P = 1 at decode, P = 2 at execute; the core adds the
 * cycle of a 32-bit target that is not word aligned (cycles.c, the fetch model). */
#define CYC_P_DECODE  1u
#define CYC_P_EXECUTE 2u
/* BL: P = 2, like plain B below: an unconditional immediate branch the core issues at decode but
 * does not speculate early (M3 TRM 1.4 speculates only conditional branches). The return through
 * LR (BX LR, BLX LR, MOV PC,LR): P = 1, the M3 TRM's short-return optimisation ("Short subroutine
 * returns are optimized ... in the case of BX LR": LR is forwarded at decode, table 15-3). Two
 * silicon figures fix both: Embench crc32 on an STM32F407 (23.0 cycles a byte, one BL and one
 * BX LR per byte) and the barebench article's fut() (15 cycles = BL 3 + a 10-cycle body + BX LR 2;
 * the body's 3 cycles beyond table 7-1 are the FPU's result-use stalls, fp_result_stall() below).
 * docs/cycle-model.md has the comparison. */
#define CYC_P_CALL   2u
#define CYC_P_RETURN 1u
/* Plain B: issued at decode but, unlike B<cc>, not speculated early (M3 TRM 1.4 speculates only
 * conditional branches); P = 2 fits the Embench-IoT silicon run's 19 benchmarks best. */
#define CYC_P_JUMP 2u
/* A branch whose target comes from a load (LDR PC, LDM/POP with PC, TBB/TBH): 3.3.2 "LDR PC,[any] is
 * always a blocking operation. This means at least two cycles for the load, and three cycles for the
 * pipeline reload", and the same "three cycles for the pipeline reload" for TBB/TBH. */
#define CYC_P_LOAD 3u
#ifndef CYC_AGU_STALL
#define CYC_AGU_STALL 1u
#endif

/* The refill itself, and its ledger reason (the branch's kind); a fetch from flash may wait longer:
 * the flash accelerator (chip/stm32f4_art.c) adds its wait cycles per block at run time, from
 * FLASH_ACR as the firmware wrote it. */
static uint32_t refill(const struct cyc_rules_state *st, struct cyc_cost *c, uint32_t p, enum cyc_why why)
{
	(void)st;
	c->taken_why = (uint8_t)why;
	return p;
}

/* Does the instruction produce its FP result a cycle late? Cortex-M4 TRM r0p1 7.2.3: "Floating-point
 * arithmetic data processing instructions, such as add, subtract, multiply, divide, square-root,
 * all forms of multiply with accumulate, as well as conversions of all types take one cycle longer
 * if their result is consumed by the following instruction"; a multiply-accumulate takes its
 * addend late, so one that only accumulates onto the result waits nothing. GCC's Cortex-M4 FPU
 * pipeline description (gcc/config/arm/cortex-m4-fpu.md) gives the same latencies: 2 for add,
 * multiply and convert, 1 for absolute value, negate, compare and moves. */
static bool fp_late_result(unsigned id, unsigned klass)
{
	if (klass == K_FP3 || klass == K_FP14)
		return true;
	return klass == K_FP1 && id != ARM_INS_VABS && id != ARM_INS_VNEG && id != ARM_INS_VCMP &&
	       id != ARM_INS_VCMPE && id != ARM_INS_VMRS && id != ARM_INS_VMSR;
}

void cyc_rules_begin(struct cyc_rules_state *st, uint32_t block_addr)
{
	memset(st, 0, sizeof(*st));
	st->block_addr = block_addr;
}

/* A single load (K_LOAD, VLDR.32) pipelines with a preceding single load: "if the next instruction
 * is an LDR or STR, and the destination of the first LDR is not used to compute the address for
 * the next instruction, then one cycle is removed from the cost of the next instruction" (3.3.2).
 * Nothing pipelines after a store (3.3.2: "nothing can be pipelined after the store"). Pre- and
 * post-indexed loads pipeline too: measured on an STM32F407, they "cannot be chained back to back
 * on same register base address (alternating 2 different registers works)" (jnk0le's pipeline
 * cycle tests, doc/cortex_m3m4.md), which the destination rule gives, the written-back base being
 * among the previous load's destinations. Marks the load single (the next may pipeline after it)
 * and pipelined (CYC_DYN_PIPELINED) when it saves the cycle. */
static uint32_t single_load_cycles(const struct cyc_rules_state *st, const cs_arm *a, struct cyc_cost *c,
                                   bool *single_load)
{
	*single_load = true;
	if (st->prev_single_load && (cyc_address_regs(a) & st->prev_load_dest) == 0) {
		c->dyn |= CYC_DYN_PIPELINED;
		return 1u;
	}
	return 2u;
}

/* A load right after a 1-cycle store waits for the store's data phase, which 3.3.2 overlaps with
 * "the next instruction": measured on an STM32F407, "stores cannot be pipelined with following
 * load instructions (adds extra cycle to store)", nor "with following load multiple (but can with
 * `stm`)" (jnk0le, doc/cortex_m3m4.md). The model charges the cycle to the load. */
static uint32_t after_store(const struct cyc_rules_state *st, struct cyc_cost *c)
{
	uint32_t w = st->prev_store_overlap ? 1u : 0u;
	c->by_why[CYC_WHY_LOAD_AFTER_STORE] = (uint8_t)(c->by_why[CYC_WHY_LOAD_AFTER_STORE] + w);
	return w;
}

/* A load from a PC-relative address (a literal pool in the code): 3.3.2 "LDR Rx,[PC,#imm] might add
 * a cycle because of contention with the fetch unit". */
static bool pc_relative(const cs_arm *a)
{
	for (unsigned i = 0; i < a->op_count; i++)
		if (a->operands[i].type == ARM_OP_MEM && a->operands[i].mem.base == ARM_REG_PC)
			return true;
	return false;
}

static void cost_memory(struct cyc_rules_state *st, const cs_insn *insn, unsigned klass, struct cyc_cost *c,
                        bool *single_load, bool *store_overlap)
{
	const cs_arm *a = &insn->detail->arm;
	unsigned n;
	c->mem = klass == K_STORE || klass == K_STORED || klass == K_STM || klass == K_VSTR || klass == K_VSTM
	             ? CYC_MEM_STORE
	             : CYC_MEM_LOAD;
	switch (klass) {
	case K_LOAD:
		if (cyc_writes_pc(a)) {
			/* Table 3-1 "Load PC LDR PC,[Rn,<op2>]": 2 + P; "always a blocking operation" (3.3.2). */
			c->cycles = 2u + after_store(st, c);
			c->taken_extra = refill(st, c, CYC_P_LOAD, CYC_WHY_BRANCH_LOAD);
			c->dyn |= CYC_DYN_BRANCH;
		} else {
			/* Table 3-1 "Load word/halfword/byte": 2, note b: neighbouring loads pipeline. */
			c->cycles = single_load_cycles(st, a, c, single_load) + after_store(st, c);
		}
		c->lsu_extra = c->cycles - 1u;
		break;
	case K_STORE:
		/* Table 3-1 "Store": 2, note b. 3.3.2: "STR Rx,[Ry,#imm] is always one cycle" (its data
		 * phase overlaps the next instruction), but "Other instructions cannot be pipelined after
		 * STR with register offset" and "STR can only be pipelined when it follows an LDR": a
		 * register-offset store costs 2, or 1 after a single load (3.3.2's example
		 * `LDR R0,[R1,R2]; STR R1,[R3,R2]`: 3). */
		c->cycles = 1;
		if (cyc_has_index(a) && !st->prev_single_load) {
			c->cycles = 2;
			c->lsu_extra = 1;
		}
		/* Its data phase overlaps the next instruction when the store itself takes one cycle,
		 * whatever it waited for before (an address dependency, a write-back chain). */
		*store_overlap = c->cycles == 1u;
		/* "post and pre indexed stores cannot be chained back to back on same register base
		 * address" (jnk0le, doc/cortex_m3m4.md, STM32F407). */
		if (a->writeback && (cyc_address_regs(a) & st->prev_store_wb)) {
			c->cycles += 1u;
			c->lsu_extra += 1u;
			c->by_why[CYC_WHY_STORE_WRITEBACK] = 1u;
		}
		break;
	case K_LOADD:
	case K_STORED:
		/* Table 3-1 "Load/Store double LDRD/STRD": 1 + N with N = 2; not pipelined (3.3.2). */
		c->cycles = 3u + (klass == K_LOADD ? after_store(st, c) : 0u);
		c->lsu_extra = c->cycles - 1u;
		break;
	case K_LDM:
	case K_STM:
		/* Table 3-1 "Load/Store multiple, Push, Pop": 1 + N; "including PC": 1 + N + P. */
		n = cyc_list_regs(insn);
		c->cycles = 1u + n + (klass == K_LDM ? after_store(st, c) : 0u);
		c->lsu_extra = c->cycles - 1u;
		if (klass == K_LDM && cyc_writes_pc(a)) {
			c->taken_extra = refill(st, c, CYC_P_LOAD, CYC_WHY_BRANCH_LOAD);
			c->dyn |= CYC_DYN_BRANCH;
		}
		break;
	case K_VLDR:
		/* Table 7-1 "VLDR.F32" 2 (pipelined with a preceding load as LDR), "VLDR.F64" 3. */
		if (cyc_moves_doubles(a)) {
			c->cycles = 3;
		} else {
			c->cycles = single_load_cycles(st, a, c, single_load);
		}
		c->cycles += after_store(st, c);
		c->lsu_extra = c->cycles - 1u;
		break;
	case K_VSTR:
		/* Table 7-1 "VSTR.F32" 2, "VSTR.F64" 3. */
		c->cycles = cyc_moves_doubles(a) ? 3u : 2u;
		c->lsu_extra = c->cycles - 1u;
		break;
	case K_VLDM:
	case K_VSTM:
		/* Table 7-1 "VLDM/VSTM/VPUSH/VPOP .32": 1 + N, ".64": 1 + 2N (N registers); a load
		 * multiple waits for a store just before it, as LDM does. */
		n = cyc_list_regs(insn) * (cyc_moves_doubles(a) ? 2u : 1u);
		c->cycles = 1u + n + (klass == K_VLDM ? after_store(st, c) : 0u);
		c->lsu_extra = c->cycles - 1u;
		break;
	default:
		break;
	}
	if ((klass == K_LOAD || klass == K_LOADD || klass == K_VLDR) && !(c->dyn & CYC_DYN_BRANCH) && pc_relative(a))
		c->dyn |= CYC_DYN_LITERAL; /* its data phase takes the fetch unit's slot (cycles.c) */
	/* The address is formed in decode from forwarded register ports (Cortex-M3 TRM r2p0 1.4
	 * "Execution pipeline stages"): a base or index the instruction just before computes in
	 * execute is not there yet, and the access waits a cycle (3.3.2's address dependency). */
	if (cyc_memory_base_regs(insn) & st->prev_alu_dest) {
		c->cycles += CYC_AGU_STALL;
		c->lsu_extra += CYC_AGU_STALL;
		c->by_why[CYC_WHY_ADDRESS_DEP] = (uint8_t)(c->by_why[CYC_WHY_ADDRESS_DEP] + CYC_AGU_STALL);
	}
}

/* Does the branch take its target from LR (BX LR, BLX LR, MOV PC,LR: a subroutine return)? */
static bool lr_target(const cs_arm *a)
{
	for (unsigned i = 0; i < a->op_count; i++)
		if (a->operands[i].type == ARM_OP_REG && !(a->operands[i].access & CS_AC_WRITE))
			return a->operands[i].reg == ARM_REG_LR;
	return false;
}

/* B<cc> outside an IT block (a B or BL inside one is conditional too). */
static bool conditional_branch(const cs_arm *a)
{
	return a->cc != ARM_CC_AL && a->cc != ARM_CC_INVALID;
}

/* A B<cc> with its own condition field (Armv7-M ARM A7.7.12: encodings T1 and T3; inside an IT
 * block B is encoded T2 or T4), which the fetch unit sees at decode. */
static bool encoded_conditional_branch(const cs_insn *insn)
{
	uint16_t hw1 = (uint16_t)(insn->bytes[0] | insn->bytes[1] << 8);
	if (insn->size == 2)
		return (hw1 & 0xF000u) == 0xD000u && (hw1 & 0x0E00u) != 0x0E00u;
	uint16_t hw2 = (uint16_t)(insn->bytes[2] | insn->bytes[3] << 8);
	return (hw1 & 0xF800u) == 0xF000u && (hw2 & 0xD000u) == 0x8000u && (hw1 & 0x0380u) != 0x0380u;
}

static void cost_branch(struct cyc_rules_state *st, const cs_insn *insn, unsigned klass, struct cyc_cost *c)
{
	const cs_arm *a = &insn->detail->arm;
	switch (klass) {
	case K_B:
		/* Table 3-1 "Branch B/BL", "Conditional B<cc>": 1 + P taken, 1 not taken (note c). The
		 * immediate target is issued at decode (M3 TRM table 15-3): B<cc> P = 1; BL and B above. */
		c->cycles = 1;
		if (insn->id == ARM_INS_BL)
			c->taken_extra = refill(st, c, CYC_P_CALL, CYC_WHY_BRANCH_CALL);
		else if (conditional_branch(a))
			c->taken_extra = refill(st, c, CYC_P_DECODE, CYC_WHY_BRANCH_COND);
		else
			c->taken_extra = refill(st, c, CYC_P_JUMP, CYC_WHY_BRANCH_JUMP);
		c->dyn |= CYC_DYN_BRANCH;
		/* The M3 TRM (1.4) presents a conditional branch's target "speculatively" at decode: when
		 * it is not taken, that fetch slot is lost to the code after it (jnk0le: a not-taken
		 * bne.w "will also take 2 cycles if there is less than 2 compressed instructions"). */
		if (insn->id == ARM_INS_B && encoded_conditional_branch(insn))
			c->dyn |= CYC_DYN_SPECULATED;
		break;
	case K_BX:
		/* "BX/BLX": 1 + P. A return through LR: P = 1 (above); any other register resolves at
		 * execute (M3 TRM table 15-3): P = 2. */
		c->cycles = 1;
		c->taken_extra = lr_target(a) ? refill(st, c, CYC_P_RETURN, CYC_WHY_BRANCH_RETURN)
		                              : refill(st, c, CYC_P_EXECUTE, CYC_WHY_BRANCH_INDIRECT);
		c->dyn |= CYC_DYN_BRANCH;
		break;
	case K_CB:
		/* "CBZ/CBNZ": 1 not taken, 1 + P taken; evaluated at execute (table 15-3): P = 2. */
		c->cycles = 1;
		c->taken_extra = refill(st, c, CYC_P_EXECUTE, CYC_WHY_BRANCH_COND);
		c->dyn |= CYC_DYN_BRANCH;
		break;
	case K_TB:
		/* Table 3-1 "Table branch TBB/TBH": 2 + P (a load, then the refill at execute). */
		c->cycles = 2;
		c->mem = CYC_MEM_LOAD;
		c->lsu_extra = 1;
		c->taken_extra = refill(st, c, CYC_P_LOAD, CYC_WHY_BRANCH_LOAD);
		c->dyn |= CYC_DYN_BRANCH;
		break;
	default:
		break;
	}
}

static void cost_fp_misc(struct cyc_rules_state *st, const cs_insn *insn, unsigned klass, struct cyc_cost *c)
{
	const cs_arm *a = &insn->detail->arm;
	switch (klass) {
	case K_FP3:
		c->cycles = 3; /* table 7-1: multiply-accumulate, chained or fused */
		break;
	case K_FP14:
		c->cycles = 14; /* table 7-1: VDIV.F32, VSQRT.F32 */
		break;
	case K_VMOV: {
		/* Table 7-1: "VMOV Rt, Rt2, Dm" / "VMOV Sm, Sm1, Rt, Rt2" 2; every other form 1. */
		unsigned core = 0;
		for (unsigned i = 0; i < a->op_count; i++)
			if (a->operands[i].type == ARM_OP_REG && cyc_core_reg(a->operands[i].reg) >= 0)
				core++;
		c->cycles = core >= 2 ? 2u : 1u;
		break;
	}
	case K_ISB:
		/* Table 3-1 "ISB": 1 + B, B "equivalent to the number required for a pipeline refill". */
		c->by_why[CYC_WHY_ISB] = (uint8_t)refill(st, c, CYC_P_EXECUTE, CYC_WHY_ISB);
		c->taken_why = 0;
		c->cycles = 1u + c->by_why[CYC_WHY_ISB];
		break;
	case K_MSR:
	case K_CPS:
		/* Table 3-1 "MSR", "CPSID/CPSIE": 1 or 2. We charge 2: a write to the execution
		 * priority or a special register must take effect before the next instruction. */
		c->cycles = 2;
		break;
	case K_EXC:
		/* Table 3-1 "SVC", "BKPT": "-". 1 issue cycle; the exception entry (12) is the core's. */
		c->cycles = 1;
		c->dyn |= CYC_DYN_EXCEPTION;
		break;
	default:
		/* K_FP1, K_WAIT, K_BARRIER (B = 0), K_DP: 1. */
		c->cycles = 1;
		break;
	}
	c->cpi_extra = c->cycles - 1u;
}

void cyc_rules_cost(struct cyc_rules_state *st, const cs_insn *insn, struct cyc_cost *c)
{
	const cs_arm *a = &insn->detail->arm;
	unsigned klass = insn->id < ARM_INS_ENDING ? insn_class[insn->id] : K_DP;
	bool single_load = false, store_overlap = false;

	memset(c, 0, sizeof(*c));
	/* capstone's arm_cc is the Armv7-M condition (A7.3) plus one; AL and INVALID: always. */
	c->cond = (a->cc >= ARM_CC_EQ && a->cc <= ARM_CC_LE) ? (uint8_t)(a->cc - ARM_CC_EQ) : 14u;
	if (c->cond != 14u && insn->id != ARM_INS_IT)
		c->dyn |= CYC_DYN_CONDITIONAL;

	switch (klass) {
	case K_LOAD:
	case K_STORE:
	case K_LOADD:
	case K_STORED:
	case K_LDM:
	case K_STM:
	case K_VLDR:
	case K_VSTR:
	case K_VLDM:
	case K_VSTM:
		cost_memory(st, insn, klass, c, &single_load, &store_overlap);
		break;
	case K_B:
	case K_BX:
	case K_CB:
	case K_TB:
		cost_branch(st, insn, klass, c);
		break;
	case K_DIV:
		/* Table 3-1 "Divide SDIV/UDIV": 2-12, note a. Statically the minimum 2; the core adds
		 * cyc_divide_extra() from the operands (CYC_DYN_DIVIDE; aux names the registers). */
		c->cycles = 2;
		c->cpi_extra = 1;
		c->dyn |= CYC_DYN_DIVIDE;
		if (a->op_count == 3) {
			int rn = cyc_core_reg(a->operands[1].reg), rm = cyc_core_reg(a->operands[2].reg);
			c->aux = (uint8_t)(((unsigned)rn & 15u) << 4 | ((unsigned)rm & 15u));
		}
		break;
	case K_IT:
		/* Table 3-1 "If-then IT": 1; note d: "can be folded onto a preceding 16-bit Thumb
		 * instruction, enabling execution in zero cycles". The predecessor must be in this block. */
		if (st->prev_size == 2) {
			c->cycles = 0;
			c->folded = 1;
		} else {
			c->cycles = 1;
			c->by_why[CYC_WHY_IT] = 1; /* the IT issues alone: ledger reason "it" */
		}
		break;
	case K_DP:
		/* Table 3-1 "MOV PC,Rm", "ADD PC,PC,Rm": 1 + P. Any other data processing: 1. */
		c->cycles = 1;
		if (cyc_writes_pc(a)) {
			/* MOV PC,LR is a return like BX LR (M3 TRM table 15-3 groups them); ADD PC and MOV PC
			 * from another register resolve at execute. */
			bool mov_lr = insn->id == ARM_INS_MOV && lr_target(a);
			c->taken_extra = mov_lr ? refill(st, c, CYC_P_RETURN, CYC_WHY_BRANCH_RETURN)
			                        : refill(st, c, CYC_P_EXECUTE, CYC_WHY_BRANCH_INDIRECT);
			c->dyn |= CYC_DYN_BRANCH;
		}
		break;
	default:
		cost_fp_misc(st, insn, klass, c);
		break;
	}

	/* The FPU result-use stall (fp_late_result): the consumer waits a cycle (CPICNT). */
	if (st->prev_fp_result & cyc_fp_regs(a, CS_AC_READ, klass == K_FP3)) {
		c->cycles += 1u;
		c->cpi_extra += 1u;
		c->by_why[CYC_WHY_FPU_RESULT] = 1u;
	}
	/* The instruction's own cost (its table row) is what no other rule added. */
	uint32_t others = 0;
	for (unsigned w = 0; w < CYC_WHY_N; w++)
		others += c->by_why[w];
	c->by_why[CYC_WHY_ISSUE] = (uint8_t)(c->cycles - others);

	st->prev_fp_result = fp_late_result(insn->id, klass) ? cyc_fp_regs(a, CS_AC_WRITE, false) : 0u;
	st->prev_size = insn->size;
	st->prev_single_load = single_load;
	st->prev_load_dest = single_load ? cyc_written_regs(a) | (a->writeback ? cyc_address_regs(a) : 0u) : 0u;
	st->prev_alu_dest = (klass == K_DP || klass == K_DIV || klass == K_VMOV) ? cyc_written_regs(a) : 0u;
	st->prev_store_overlap = store_overlap;
	st->prev_store_wb = klass == K_STORE && a->writeback ? cyc_address_regs(a) : 0u;
}

void cyc_rules_unknown(struct cyc_rules_state *st, struct cyc_cost *c)
{
	/* Bytes capstone cannot decode (UDF space, data in the code stream): they fault when run, so
	 * charge the issue cycle and let the core charge the exception. */
	memset(c, 0, sizeof(*c));
	c->cycles = 1;
	c->by_why[CYC_WHY_ISSUE] = 1;
	c->cond = 14;
	c->dyn = CYC_DYN_EXCEPTION;
	st->prev_size = 0;
	st->prev_fp_result = 0;
	st->prev_single_load = false;
	st->prev_load_dest = 0;
	st->prev_alu_dest = 0;
	st->prev_store_overlap = false;
	st->prev_store_wb = 0;
}
