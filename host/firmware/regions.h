/* Profile-point regions (issue 4): the host side of target/pfp. The firmware keeps a self-describing
 * table in RAM (symbol `bench_regions`, layout in docs/regions.md and target/include/pfp.h); this
 * module finds it by symbol, reads it through a backend (at the DONE marker, or while the target runs
 * with a sequence-counter retry), validates it and fills bench_report.regions.
 *
 * The decoder is split from the I/O so it can be unit-tested with byte buffers. */
#ifndef HOST_FIRMWARE_REGIONS_H
#define HOST_FIRMWARE_REGIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "bench_abi.h"
#include "results/results.h"

struct backend;
struct elf_file;

/* The table's symbol and its fixed constants (docs/regions.md "Table layout"). */
#define REGIONS_SYMBOL    PFP_TABLE_SYMBOL
#define REGIONS_MAX_COUNT 1024u /* a table claiming more is corrupt */

/* Header as decoded (all little-endian on the wire). */
struct regions_header {
	uint32_t magic;
	uint16_t version, header_size, record_size, count;
	uint32_t seq;
	uint32_t counter_id; /* counters.h: enum counter_id */
	uint32_t core_clock_hz;
	uint32_t overhead;      /* bias of an empty region, subtracted on the target */
	uint32_t nest_overhead; /* bias an empty inner pair leaves in its enclosing region */
	uint32_t isr_overhead;  /* bias an interrupt leaves in the interrupted region */
	uint32_t flags;         /* PFP_T_* */
	uint32_t n_events;
	uint16_t events[PFP_MAX_EVENTS]; /* counters.h: enum papi_event */
	uint32_t names_addr;             /* const char *const names[count], in flash */
	uint32_t records_addr;           /* struct pfp_region records[count], in RAM */
	uint32_t errors;                 /* table-wide PFP_TE_* */
};

/* Returns 0 and fills out, or a negative bench_err with a message naming what is wrong (wrong magic,
 * version, sizes, region count out of range). */
int regions_decode_header(const uint8_t *buf, size_t len, struct regions_header *out, struct bench_error *err);

/* Decodes record i of a record array (hdr->record_size bytes each) into out. Names are not touched. */
int regions_decode_record(const struct regions_header *hdr, const uint8_t *records, size_t len, uint32_t i,
                          struct bench_region_result *out, struct bench_error *err);

/* Reads memory for regions_fetch: the backend while running, or the ELF image for `bench regions`. */
typedef int (*regions_read_fn)(void *ctx, uint32_t addr, void *buf, size_t len, struct bench_error *err);

struct regions_source {
	regions_read_fn read_table; /* where the table (RAM) is read from */
	void *table_ctx;
	regions_read_fn read_names; /* where the names (flash) are read from */
	void *names_ctx;
	unsigned max_tries; /* seqlock retries before "torn"; 0 means 1 try */
};

/* Reads header and records at table_addr consistently (seqlock: seq even and unchanged around the
 * read), validates, and appends one bench_region_result per region to rep. A region whose name cannot
 * be read keeps "region<N>" and an error in its own `error`; the others are still reported. */
int regions_fetch(const struct regions_source *src, uint32_t table_addr, struct bench_report *rep,
                  struct regions_header *hdr_out, struct bench_error *err);

/* bench run calls this at the DONE marker and with --poll MS while the target runs. Returns 0 and
 * adds nothing when the ELF has no `bench_regions` symbol; on a broken table returns a negative
 * bench_err (the caller keeps every other result). Replaces regions already in rep (a later poll
 * supersedes an earlier one). */
/* Marks every region of rep as not measured in cycles (the board's counter is none: what the firmware
 * stored as cycles is not), with the reason in its error and one report warning. */
void regions_mark_no_cycles(struct bench_report *rep);
int regions_read(struct backend *bk, const struct elf_file *elf, struct bench_report *rep, struct bench_error *err);

/* `bench regions FIRMWARE.elf`: the table as the ELF initialises it (names, count, ids), no target.
 * A missing symbol is BENCH_E_NO_MARKERS with what to link, a table that does not decode BENCH_E_ELF
 * naming the file. */
int regions_read_elf(const struct elf_file *elf, struct bench_report *rep, struct regions_header *hdr,
                     struct bench_error *err);

#endif /* HOST_FIRMWARE_REGIONS_H */
