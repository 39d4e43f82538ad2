/* Which memory a decoded Thumb instruction accesses (memops.h): its operand as base, index, shift
 * and displacement, and how many bytes, from capstone's detail (capstone 4, arm.h); and the
 * instruction classes the core hooks (FP, divide). Pure decoding: no unicorn, no core. */
#include "timing/memops.h"

#include <string.h>

/* The left shift of a memory operand's index register (`[rn, rm, lsl #2]`): capstone 4.0.2 leaves
 * mem.lshift 0 and gives the shift as the operand's shift, LSL being the only one Thumb allows. */
static unsigned index_lshift(const cs_arm_op *op)
{
	return op->shift.type == ARM_SFT_LSL ? op->shift.value : (unsigned)op->mem.lshift;
}

/* An FP instruction: Thumb-2 coprocessor space (hw1 = 111x 11xx xxxx xxxx) with coprocessor 10 or
 * 11 in hw2[11:8] (Armv7-M ARM A6.3 / A7.9: the FP extension uses CP10 and CP11 only). */
bool cyc_is_fp(uint16_t hw1, uint16_t hw2)
{
	return (hw1 & 0xEC00u) == 0xEC00u && ((hw2 >> 8) & 0xEu) == 0xAu;
}

/* UDIV/SDIV (A7.7.125, A7.7.178): FB9x/FBBx, F0F0 pattern in hw2. */
bool cyc_is_div(uint16_t hw1, uint16_t hw2)
{
	return ((hw1 & 0xFFF0u) == 0xFB90u || (hw1 & 0xFFF0u) == 0xFBB0u) && (hw2 & 0xF0F0u) == 0xF0F0u;
}

static uint8_t regbyte(unsigned capreg)
{
	return capreg > 255 ? 0 : (uint8_t)capreg;
}

/* Bytes a single load or store touches: an MMIO access or a read is matched to the instruction
 * whose [address, address + size) holds it, so a wider window would take the next word of a POP
 * for the load after it. */
static uint16_t single_size(const cs_insn *in)
{
	const cs_arm *a = &in->detail->arm;
	switch (in->id) {
	case ARM_INS_LDRB:
	case ARM_INS_STRB:
	case ARM_INS_LDRSB:
	case ARM_INS_LDRBT:
	case ARM_INS_STRBT:
	case ARM_INS_LDRSBT:
	case ARM_INS_LDREXB:
	case ARM_INS_STREXB:
	case ARM_INS_TBB:
		return 1;
	case ARM_INS_LDRH:
	case ARM_INS_STRH:
	case ARM_INS_LDRSH:
	case ARM_INS_LDRHT:
	case ARM_INS_STRHT:
	case ARM_INS_LDRSHT:
	case ARM_INS_LDREXH:
	case ARM_INS_STREXH:
	case ARM_INS_TBH:
		return 2;
	case ARM_INS_LDRD:
	case ARM_INS_STRD:
	case ARM_INS_LDREXD:
	case ARM_INS_STREXD:
		return 8;
	case ARM_INS_VLDR:
	case ARM_INS_VSTR: /* VLDR.64 / VSTR.64 move a D register */
		return (a->op_count && a->operands[0].reg >= ARM_REG_D0 && a->operands[0].reg <= ARM_REG_D31) ? 8 : 4;
	default:
		return 4;
	}
}

/* Bytes a register list moves: 4 a core or S register, 8 a D register. */
static uint16_t list_size(const cs_arm *a)
{
	unsigned n = 0;
	for (unsigned k = 0; k < a->op_count; k++)
		if (a->operands[k].type == ARM_OP_REG)
			n += (a->operands[k].reg >= ARM_REG_D0 && a->operands[k].reg <= ARM_REG_D31) ? 8u : 4u;
	return (uint16_t)n;
}

bool cyc_memop_decode(const cs_insn *in, unsigned idx, struct cyc_memop *out)
{
	const cs_arm *a = &in->detail->arm;
	struct cyc_memop m = {.idx = (uint16_t)idx, .scale = 1};
	bool found = false;
	for (unsigned k = 0; k < a->op_count; k++) {
		const cs_arm_op *op = &a->operands[k];
		if (op->type == ARM_OP_MEM && !found) {
			m.base = regbyte(op->mem.base);
			m.index = regbyte(op->mem.index);
			m.scale = (int8_t)(op->mem.scale < 0 ? -1 : 1);
			m.lshift = (uint8_t)index_lshift(op);
			m.disp = op->mem.disp;
			found = true;
		}
	}
	switch (in->id) {
	case ARM_INS_PUSH:
	case ARM_INS_VPUSH:
		m.base = ARM_REG_SP;
		m.down = true;
		m.span = list_size(a);
		found = true;
		break;
	case ARM_INS_POP:
	case ARM_INS_VPOP:
		m.base = ARM_REG_SP;
		m.span = list_size(a);
		found = true;
		break;
	case ARM_INS_LDM:
	case ARM_INS_STM:
	case ARM_INS_LDMDB:
	case ARM_INS_STMDB:
		if (a->op_count > 0 && a->operands[0].type == ARM_OP_REG) {
			m.base = regbyte(a->operands[0].reg);
			m.span = (uint16_t)(4 * (a->op_count - 1));
			m.down = in->id == ARM_INS_LDMDB || in->id == ARM_INS_STMDB;
			found = true;
		}
		break;
	default:
		break;
	}
	if (!found)
		return false;
	if (m.span == 0)
		m.span = single_size(in);
	m.store = strncmp(in->mnemonic, "st", 2) == 0 || strncmp(in->mnemonic, "vst", 3) == 0 ||
	          strncmp(in->mnemonic, "push", 4) == 0 || strncmp(in->mnemonic, "vpush", 5) == 0;
	*out = m;
	return true;
}

bool cyc_is_memory_insn(const cs_insn *in)
{
	const cs_arm *a = &in->detail->arm;
	for (unsigned k = 0; k < a->op_count; k++)
		if (a->operands[k].type == ARM_OP_MEM)
			return true;
	switch (in->id) {
	case ARM_INS_PUSH:
	case ARM_INS_POP:
	case ARM_INS_VPUSH:
	case ARM_INS_VPOP:
	case ARM_INS_LDM:
	case ARM_INS_STM:
	case ARM_INS_LDMDB:
	case ARM_INS_STMDB:
		return true;
	default:
		return false;
	}
}

unsigned cyc_unaligned_extra(unsigned size, uint32_t addr)
{
	if (size == 2u)
		return addr & 1u;
	if (size == 4u && (addr & 3u))
		return (addr & 1u) ? 2u : 1u; /* byte + halfword + byte, or two halfwords */
	return 0;
}
