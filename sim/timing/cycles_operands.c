/* Which core and FP registers a decoded instruction reads and writes, from capstone's operands
 * (cycles_operands.h): what the rules' dependency stalls and the memory-block rule look at. */
#include "timing/cycles_operands.h"

int cyc_core_reg(int reg)
{
	if (reg >= ARM_REG_R0 && reg <= ARM_REG_R12)
		return reg - ARM_REG_R0;
	if (reg == ARM_REG_SP)
		return 13;
	if (reg == ARM_REG_LR)
		return 14;
	if (reg == ARM_REG_PC)
		return 15;
	return -1;
}

uint32_t cyc_reg_bit(int reg)
{
	int r = cyc_core_reg(reg);
	return r < 0 ? 0u : 1u << r;
}

/* Registers a single load or store uses to form its address (base and index). */
uint32_t cyc_address_regs(const cs_arm *a)
{
	uint32_t mask = 0;
	for (unsigned i = 0; i < a->op_count; i++)
		if (a->operands[i].type == ARM_OP_MEM)
			mask |= cyc_reg_bit(a->operands[i].mem.base) | cyc_reg_bit(a->operands[i].mem.index);
	return mask;
}

/* Does the access add an index register to its base ([Rn, Rm] or [Rn, Rm, LSL #n])? */
bool cyc_has_index(const cs_arm *a)
{
	for (unsigned i = 0; i < a->op_count; i++)
		if (a->operands[i].type == ARM_OP_MEM && a->operands[i].mem.index != ARM_REG_INVALID)
			return true;
	return false;
}

/* Registers any load/store uses to form its address: base and index of a single or dual access,
 * the base of LDM/STM (capstone's first operand), SP for PUSH/POP. */
uint32_t cyc_memory_base_regs(const cs_insn *insn)
{
	const cs_arm *a = &insn->detail->arm;
	switch (insn->id) {
	case ARM_INS_PUSH:
	case ARM_INS_POP:
	case ARM_INS_VPUSH:
	case ARM_INS_VPOP:
		return 1u << 13;
	case ARM_INS_LDM:
	case ARM_INS_LDMDB:
	case ARM_INS_STM:
	case ARM_INS_STMDB:
	case ARM_INS_VLDMIA:
	case ARM_INS_VLDMDB:
	case ARM_INS_VSTMIA:
	case ARM_INS_VSTMDB:
		return a->op_count > 0 && a->operands[0].type == ARM_OP_REG ? cyc_reg_bit(a->operands[0].reg) : 0u;
	default:
		return cyc_address_regs(a);
	}
}

/* Registers an instruction writes as plain register operands (load destinations). */
uint32_t cyc_written_regs(const cs_arm *a)
{
	uint32_t mask = 0;
	for (unsigned i = 0; i < a->op_count; i++)
		if (a->operands[i].type == ARM_OP_REG && (a->operands[i].access & CS_AC_WRITE))
			mask |= cyc_reg_bit(a->operands[i].reg);
	return mask;
}

bool cyc_writes_pc(const cs_arm *a)
{
	return (cyc_written_regs(a) & (1u << 15)) != 0;
}

/* Number of registers in an LDM/STM/PUSH/POP list (the register operands, without the base of
 * LDM/STM, which capstone lists first with write-back or as a read). */
unsigned cyc_list_regs(const cs_insn *insn)
{
	const cs_arm *a = &insn->detail->arm;
	unsigned n = 0;
	bool has_base = insn->id != ARM_INS_PUSH && insn->id != ARM_INS_POP && insn->id != ARM_INS_VPUSH &&
	                insn->id != ARM_INS_VPOP;
	for (unsigned i = has_base ? 1u : 0u; i < a->op_count; i++)
		if (a->operands[i].type == ARM_OP_REG)
			n++;
	return n;
}

bool cyc_is_double_reg(int reg)
{
	return reg >= ARM_REG_D0 && reg <= ARM_REG_D31;
}

/* Does the FP load/store or load/store multiple move doubleword registers? */
bool cyc_moves_doubles(const cs_arm *a)
{
	for (unsigned i = 0; i < a->op_count; i++)
		if (a->operands[i].type == ARM_OP_REG && cyc_is_double_reg(a->operands[i].reg))
			return true;
	return false;
}

/* FP register bits: S0-S31 as bits 0-31, Dn as S2n and S2n+1 (FPv4-SP has D0-D15 only). */
uint64_t cyc_fp_mask(int reg)
{
	if (reg >= ARM_REG_S0 && reg <= ARM_REG_S31)
		return 1ull << (reg - ARM_REG_S0);
	if (reg >= ARM_REG_D0 && reg <= ARM_REG_D15)
		return 3ull << (2 * (reg - ARM_REG_D0));
	return 0;
}

/* FP registers the instruction reads or writes (access flag CS_AC_READ or CS_AC_WRITE). A
 * multiply-accumulate's destination is also its addend: with skip_addend it is left out. */
uint64_t cyc_fp_regs(const cs_arm *a, uint8_t access, bool skip_addend)
{
	uint64_t mask = 0;
	for (unsigned i = skip_addend ? 1u : 0u; i < a->op_count; i++)
		if (a->operands[i].type == ARM_OP_REG && (a->operands[i].access & access))
			mask |= cyc_fp_mask(a->operands[i].reg);
	return mask;
}
