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

#endif /* BENCH_ABI_H */
