/* The contract between firmware and host, written once: both target/include/bench.h (firmware)
 * and host/ (bench) include this file, so nothing is typed twice. Plain C99 macros, no types
 * with a layout that depends on the compiler; docs/markers.md documents each. */
#ifndef BENCH_ABI_H
#define BENCH_ABI_H

/* Marker kinds: the BKPT immediate of each marker site and its record's kind byte. */
#define BENCH_KIND_BEGIN     0x01
#define BENCH_KIND_END       0x02
#define BENCH_KIND_SYNC      0x03
#define BENCH_KIND_DONE      0x04
#define BENCH_KIND_CAL_BEGIN 0x05
#define BENCH_KIND_CAL_END   0x06
/* Version of a .bench_markers record: u32 BKPT address, u8 kind, u8 version, u16 id, u8 name length,
 * 3 reserved bytes, the NUL-terminated name, padded to 4 bytes (MARKERS_HEADER_SIZE 12 on the host). */
#define BENCH_RECORD_VERSION 1

/* struct bench_ctl (bench.h): the control block the host reads and writes at SYNC halts. */
#define BENCH_CTL_MAGIC         0x42434854u /* "BCHT" */
#define BENCH_CTL_VERSION       1u
#define BENCH_CTL_OFF_MAGIC     0u
#define BENCH_CTL_OFF_VERSION   4u
#define BENCH_CTL_OFF_STOP      8u  /* host writes 1 at a SYNC halt: leave the measurement loop */
#define BENCH_CTL_OFF_ITERATION 12u /* host writes the repetition number at each SYNC */
#define BENCH_CTL_OFF_STATUS    16u /* BENCH_CTL_STATUS_* from bench_init */
#define BENCH_CTL_SIZE          20u

/* bench_ctl.status */
#define BENCH_CTL_STATUS_OK         0u
#define BENCH_CTL_STATUS_NO_CYCCNT  1u /* no DWT or DWT_CTRL.NOCYCCNT (Armv7-M ARM C1.8.7), or ARMv6-M */
#define BENCH_CTL_STATUS_DWT_LOCKED 2u /* the DWT stayed locked (Cortex-M7 DWT_LSR.SLK, CoreSight lock) */

/* bench_sync() writes this to bench_ctl.iteration before its BKPT; a host overwrites it. */
#define BENCH_ITERATION_NONE 0xFFFFFFFFu

/* The profile-point region table (target/pfp, docs/regions.md "Table layout"): struct pfp_table at
 * symbol `bench_regions` and struct pfp_region records, little-endian, 32-bit pointers (Cortex-M
 * and TriCore alike). target/pfp/pfp.c asserts these offsets against its structs. */
#define PFP_TABLE_SYMBOL  "bench_regions"
#define PFP_TABLE_MAGIC   0x54504650u /* "PFPT" in memory order */
#define PFP_TABLE_VERSION 1u
#define PFP_MAX_EVENTS    4
#define PFP_HEADER_SIZE   64u
#define PFP_RECORD_SIZE   96u /* version 1's record; a host reads larger ones and ignores the tail */

/* struct pfp_table field offsets */
#define PFP_HDR_OFF_MAGIC         0u
#define PFP_HDR_OFF_VERSION       4u
#define PFP_HDR_OFF_HEADER_SIZE   6u
#define PFP_HDR_OFF_RECORD_SIZE   8u
#define PFP_HDR_OFF_COUNT         10u
#define PFP_HDR_OFF_SEQ           12u
#define PFP_HDR_OFF_COUNTER       16u
#define PFP_HDR_OFF_CORE_CLOCK    20u
#define PFP_HDR_OFF_OVERHEAD      24u
#define PFP_HDR_OFF_NEST_OVERHEAD 28u
#define PFP_HDR_OFF_ISR_OVERHEAD  32u
#define PFP_HDR_OFF_FLAGS         36u
#define PFP_HDR_OFF_N_EVENTS      40u
#define PFP_HDR_OFF_EVENTS        44u
#define PFP_HDR_OFF_NAMES         52u
#define PFP_HDR_OFF_REGIONS       56u
#define PFP_HDR_OFF_ERRORS        60u

/* struct pfp_region field offsets */
#define PFP_REC_OFF_COUNT  0u
#define PFP_REC_OFF_FLAGS  4u
#define PFP_REC_OFF_ERRORS 8u
#define PFP_REC_OFF_LAST   12u
#define PFP_REC_OFF_TOTAL  16u
#define PFP_REC_OFF_MIN    24u
#define PFP_REC_OFF_MAX    28u
#define PFP_REC_OFF_EMA    32u
#define PFP_REC_OFF_ALPHA  36u
#define PFP_REC_OFF_EVENTS 48u

/* Region flags (struct pfp_region.flags). */
#define PFP_F_ENABLED 0x1u
#define PFP_F_INSIDE  0x2u /* between Begin and End */
#define PFP_F_LATCHED 0x4u /* a latched End left a partial measurement to carry on */

/* Region error flags (struct pfp_region.errors); each says why the region was disabled or a
 * sample is doubtful. */
#define PFP_E_DOUBLE_BEGIN  0x1u  /* Begin-Begin-End on one id: region disabled (PFP "invalid usage") */
#define PFP_E_NOT_INNERMOST 0x2u  /* End of a region that is not the innermost open one: disabled */
#define PFP_E_WRAP          0x4u  /* an interval of 2^31 cycles or more: the counter may have wrapped */
#define PFP_E_EVT_WRAP      0x8u  /* an event interval long enough for an 8-bit DWT counter to wrap */
#define PFP_E_NEGATIVE      0x10u /* a sample came out below the calibrated overhead; recorded as 0 */

/* Table flags (struct pfp_table.flags). */
#define PFP_T_CALIBRATED 0x1u
#define PFP_T_BASEPRI    0x2u /* critical sections mask by BASEPRI, not PRIMASK */
#define PFP_T_EVENTS     0x4u /* regions record the event set in struct pfp_table.events */

/* Table-wide errors (struct pfp_table.errors). */
#define PFP_TE_BAD_ID       0x1u /* a call named an id >= count: ignored */
#define PFP_TE_EVT_CONFLICT 0x2u /* the event set needs two multiplexer settings on one counter */

#endif /* BENCH_ABI_H */
