/* The virtual board's ARM JTAG-DP (ARM IHI 0031C ADIv5.2, chapter B3 "The JTAG Debug Port" and B2
 * "DP reference information"): the data registers behind the 4-bit JTAG instructions, the DP
 * registers CTRL/STAT, SELECT and RDBUFF, and the one AHB-AP (ap.c) behind APACC.
 *
 * What the debugger sees, as on a Cortex-M4 with the JTAG-DP (Cortex-M4 TRM r0p1 8.1):
 *   IR 0x8 ABORT (35 bits), 0xA DPACC (35), 0xB APACC (35), 0xE IDCODE (32, 0x4BA00477),
 *   0xF and every other value BYPASS (1).
 *   A DPACC/APACC scan shifts in {DATAIN[34:3], A[3:2] in [2:1], RnW in [0]} and shifts out
 *   {ReadResult[34:3], ACK[2:0]}; ReadResult is the result of the previous read (reads are
 *   posted, B3.2.2), ACK is OK/FAULT 0b010 or WAIT 0b001 (B3.3.2).
 * Faults on JTAG-DP are not acknowledged per scan: an AP error sets CTRL/STAT.STICKYERR, which the
 * debugger reads and clears by writing 1 to it (B2.2.2, OpenOCD adi_v5_jtag.c
 * jtagdp_transaction_endcheck()). */
#ifndef SIM_DP_H
#define SIM_DP_H

#include <stdbool.h>
#include <stdint.h>

#include "dap/ap.h"
#include "bus/bus.h"

#define DP_IR_LEN    4
#define DP_IR_ABORT  0x8u
#define DP_IR_DPACC  0xAu
#define DP_IR_APACC  0xBu
#define DP_IR_IDCODE 0xEu
#define DP_IR_BYPASS 0xFu

#define DP_IDCODE 0x4BA00477u /* JTAG-DP of the Cortex-M3/M4 (Cortex-M4 TRM 8.1.2) */

#define DP_ACK_WAIT     0x1u
#define DP_ACK_OK_FAULT 0x2u

/* DP register addresses A[3:2] (B2.2, table B2-1). */
#define DP_REG_CTRL_STAT 0x4u
#define DP_REG_SELECT    0x8u
#define DP_REG_RDBUFF    0xCu

/* CTRL/STAT bits (B2.2.2). */
#define DP_CTRL_ORUNDETECT    (1u << 0)
#define DP_CTRL_STICKYORUN    (1u << 1)
#define DP_CTRL_TRNMODE_MASK  (3u << 2)
#define DP_CTRL_STICKYCMP     (1u << 4)
#define DP_CTRL_STICKYERR     (1u << 5)
#define DP_CTRL_MASKLANE_MASK (0xFu << 8)
#define DP_CTRL_TRNCNT_MASK   (0xFFFu << 12)
#define DP_CTRL_CDBGRSTREQ    (1u << 26)
#define DP_CTRL_CDBGRSTACK    (1u << 27)
#define DP_CTRL_CDBGPWRUPREQ  (1u << 28)
#define DP_CTRL_CDBGPWRUPACK  (1u << 29)
#define DP_CTRL_CSYSPWRUPREQ  (1u << 30)
#define DP_CTRL_CSYSPWRUPACK  (1u << 31)

/* The bits a CTRL/STAT write stores (B2.2.2); STICKY* are write-one-to-clear on a JTAG-DP, READOK
 * and WDATAERR are SW-DP only and read as zero here. */
#define DP_CTRL_WRITABLE                                                                                               \
	(DP_CTRL_ORUNDETECT | DP_CTRL_TRNMODE_MASK | DP_CTRL_MASKLANE_MASK | DP_CTRL_TRNCNT_MASK |                     \
	 DP_CTRL_CDBGRSTREQ | DP_CTRL_CDBGPWRUPREQ | DP_CTRL_CSYSPWRUPREQ)
#define DP_CTRL_STICKY (DP_CTRL_STICKYORUN | DP_CTRL_STICKYCMP | DP_CTRL_STICKYERR)

struct dp_stats {
	uint64_t dp_reads, dp_writes;
	uint64_t ap_reads, ap_writes;
	uint64_t sticky_errors; /* transactions that set STICKYERR */
	uint64_t waits;         /* scans answered WAIT */
	uint64_t aborts;        /* ABORT writes with DAPABORT */
};

struct dp {
	uint32_t ctrl_stat; /* the stored bits; the ACKs are derived from the REQs on read */
	uint32_t select;
	uint32_t read_result; /* posted: shifted out by the next DPACC/APACC scan */
	bool scan_waited;     /* the current scan captured WAIT: its update is ignored */
	unsigned inject_wait; /* the next n DPACC/APACC scans answer WAIT (tests of the debugger) */
	struct mem_ap ap;
	struct dp_stats stats;
};

/* The scan chains behind the 4-bit instruction `ir` (B3.2), as a JTAG TAP drives them: the data
 * register's length in bits, its Capture-DR value (shifted out LSB first), its Update-DR with the
 * bits shifted in. The TAP itself is the wire's (wire/jtag_dp.c plugs these into it). */
unsigned dp_scan_length(unsigned ir);
uint64_t dp_scan_capture(struct dp *dp, unsigned ir);
void dp_scan_update(struct dp *dp, unsigned ir, uint64_t value);

void dp_init(struct dp *dp, struct sim_bus *bus);
/* Power-on reset of the debug port: power domains off, sticky flags clear, SELECT 0. */
void dp_reset(struct dp *dp);
/* The next n DPACC/APACC scans answer WAIT without doing anything, as a DP whose AP is still busy
 * with a slow transfer (B3.3.2). ABORT.DAPABORT cancels what is left. */
void dp_inject_wait(struct dp *dp, unsigned n);
/* The CTRL/STAT value a read returns (ACKs follow their REQs at once: power is always there). */
uint32_t dp_ctrl_stat(const struct dp *dp);
/* One AP access through SELECT (APSEL, APBANKSEL) and A[3:2] = a, shared by the JTAG-DP's APACC
 * and the SW-DP (swdp.c): a read leaves its result in read_result (posted), an error sets
 * CTRL/STAT.STICKYERR. */
void dp_ap_access(struct dp *dp, bool rnw, unsigned a, uint32_t data);
/* All DAP transactions so far (DPACC + APACC), for the control interface. */
uint64_t dp_transactions(const struct dp *dp);

#endif /* SIM_DP_H */
