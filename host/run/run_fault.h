/* Turning a target that stopped somewhere unexpected into one line: which exception it is in
 * (IPSR), why (CFSR/HFSR bits, Armv7-M ARM B3.2.15-B3.2.16), and where it came from (the stacked
 * PC of the exception frame, B1.5.6), as a symbol: "HardFault (FORCED; UsageFault NOCP) at fut+0x12". */
#ifndef HOST_RUN_RUN_FAULT_H
#define HOST_RUN_RUN_FAULT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "firmware/elf.h"
#include "transport/backend.h"

#define RUN_REG_CFSR       0xE000ED28u
#define RUN_REG_HFSR       0xE000ED2Cu
#define RUN_REG_MMFAR      0xE000ED34u
#define RUN_REG_BFAR       0xE000ED38u
#define RUN_REG_DEMCR      0xE000EDFCu
#define RUN_CFSR_MMARVALID (1u << 7)  /* MMFAR holds the MemManage address (B3.2.15) */
#define RUN_CFSR_BFARVALID (1u << 15) /* BFAR holds the BusFault address */
/* DEMCR vector catch (Armv7-M ARM C1.6.5): VC_MMERR(4), NOCPERR, CHKERR, STATERR, BUSERR, INTERR,
 * HARDERR(10): halt on entry to any fault handler, with the exception frame intact. */
#define RUN_DEMCR_VC_FAULTS 0x7f0u

/* Names the fault bits: "FORCED; UsageFault NOCP". */
void run_fault_bits(uint32_t cfsr, uint32_t hfsr, char *out, size_t len);
/* "HardFault" for exception number 3, ... ; NULL for thread mode (0) and interrupts. */
const char *run_fault_exception_name(uint32_t ipsr);
/* Names what is at a faulting address on the board ("CRC (0x40023000, plain registers)"); false: unknown. */
typedef bool (*run_fault_namer)(void *ctx, uint32_t addr, char *out, size_t len);

/* Reads xPSR; when the core is in a fault handler (IPSR 2..6), reads CFSR, HFSR and the stacked PC
 * and writes the one-line description into out, returning true. False: not in a fault handler.
 * pc is where the core halted, named when the frame cannot be found. The data address, BFAR or MMFAR when
 * CFSR says it is valid (B3.2.15: BFARVALID, MMARVALID), is given too, named by `namer` when there is one. */
bool run_fault_describe(struct backend *bk, const struct elf_file *elf, uint32_t pc, run_fault_namer namer,
                        void *namer_ctx, char *out, size_t len);
/* Sets the fault vector catches in DEMCR so a fault halts at its handler's entry. */
int run_fault_catch(struct backend *bk, struct bench_error *err);

#endif /* HOST_RUN_RUN_FAULT_H */
