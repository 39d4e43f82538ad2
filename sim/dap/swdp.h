/* The SWD face of the virtual board's debug port. The STM32F4's SWJ-DP (RM0090 38.3, 38.4) is one
 * debug port with two wire protocols: JTAG (dp.c, IDCODE 0x4BA00477) and SWD, whose DPIDR reads
 * 0x2BA01477 (RM0090 38.6.3, "SW-DP"). Both share the DP registers, the MEM-AP and the bus (struct
 * dp); what differs on SWD (ARM IHI 0031C ADIv5.2, chapter B4 and B2.2) is modelled here:
 *   - register 0x0 reads DPIDR and writes ABORT, whose STKCMPCLR/STKERRCLR/WDERRCLR/ORUNERRCLR
 *     clear the sticky flags (B2.2.1); the flags are read-only in CTRL/STAT (B2.2.2);
 *   - 0x8 reads RESEND (the last AP or RDBUFF result again, B2.2.5), writes SELECT;
 *   - AP reads are posted: they return the previous AP read's result, RDBUFF the last (B4.1.3);
 *   - while STICKYERR, STICKYCMP or STICKYORUN is set, AP accesses and DP writes other than to
 *     ABORT answer FAULT and do nothing (B4.2.3, "Sticky flags and DP error responses").
 * Nothing here knows the wire: the ST-LINK (wire/stlink_cmd.c) performs these transactions for its
 * client, as the probe's firmware does on the SWDIO line. */
#ifndef SIM_SWDP_H
#define SIM_SWDP_H

#include <stdbool.h>
#include <stdint.h>

#include "dap/dp.h"

#define SWDP_DPIDR 0x2BA01477u /* RM0090 38.6.3: the STM32F4's SW-DP (Cortex-M4 r0p1, DPv1) */

/* ACK encodings of an SWD transaction (ADIv5.2 B4.2.2), as the probe sees them. */
enum swdp_ack { SWDP_ACK_OK = 1, SWDP_ACK_WAIT = 2, SWDP_ACK_FAULT = 4 };

/* ABORT bits (ADIv5.2 B2.2.1). */
#define SWDP_ABORT_DAPABORT   (1u << 0)
#define SWDP_ABORT_STKCMPCLR  (1u << 1)
#define SWDP_ABORT_STKERRCLR  (1u << 2)
#define SWDP_ABORT_WDERRCLR   (1u << 3)
#define SWDP_ABORT_ORUNERRCLR (1u << 4)

/* One SWD transaction: APnDP selects an AP (SELECT.APSEL/APBANKSEL) or a DP register, a is A[3:2]
 * as a byte address (0x0, 0x4, 0x8, 0xC). On OK a read stores the value in *value (for an AP read,
 * the previous AP read's result: fetch this one from RDBUFF). */
enum swdp_ack swdp_read(struct dp *dp, bool apndp, unsigned a, uint32_t *value);
enum swdp_ack swdp_write(struct dp *dp, bool apndp, unsigned a, uint32_t value);

#endif /* SIM_SWDP_H */
