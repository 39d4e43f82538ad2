/* Registers a capstone-decoded Thumb instruction uses (cycles_operands.c): core registers as a
 * bit mask (bit n = Rn), FP registers as S0-S31 bits. Part of the cycle model (sim/timing). */
#ifndef SIM_TIMING_CYCLES_OPERANDS_H
#define SIM_TIMING_CYCLES_OPERANDS_H

#include <capstone/capstone.h>
#include <stdbool.h>
#include <stdint.h>

/* A capstone register's number: R0..R12 0..12, SP 13, LR 14, PC 15; -1 for any other. */
int cyc_core_reg(int reg);
/* Its bit (1 << number), 0 for any other register. */
uint32_t cyc_reg_bit(int reg);

/* Registers a single load or store uses to form its address (base and index). */
uint32_t cyc_address_regs(const cs_arm *a);

/* Does the access add an index register to its base ([Rn, Rm] or [Rn, Rm, LSL #n])? */
bool cyc_has_index(const cs_arm *a);

/* Registers any load/store uses to form its address: base and index of a single or dual access,
 * the base of LDM/STM (capstone's first operand), SP for PUSH/POP. */
uint32_t cyc_memory_base_regs(const cs_insn *insn);

/* Registers an instruction writes as plain register operands (load destinations). */
uint32_t cyc_written_regs(const cs_arm *a);

/* Does it write PC as a register operand (a load into PC, MOV PC)? */
bool cyc_writes_pc(const cs_arm *a);

/* Number of registers in an LDM/STM/PUSH/POP list (the register operands, without the base of
 * LDM/STM, which capstone lists first with write-back or as a read). */
unsigned cyc_list_regs(const cs_insn *insn);

/* D0-D31 (capstone's ids). */
bool cyc_is_double_reg(int reg);

/* Does the FP load/store or load/store multiple move doubleword registers? */
bool cyc_moves_doubles(const cs_arm *a);

/* FP register bits: S0-S31 as bits 0-31, Dn as S2n and S2n+1 (FPv4-SP has D0-D15 only). */
uint64_t cyc_fp_mask(int reg);

/* FP registers the instruction reads or writes (access flag CS_AC_READ or CS_AC_WRITE). A
 * multiply-accumulate's destination is also its addend: with skip_addend it is left out. */
uint64_t cyc_fp_regs(const cs_arm *a, uint8_t access, bool skip_addend);

#endif /* SIM_TIMING_CYCLES_OPERANDS_H */
