/* Markers: how firmware and host agree (docs/markers.md). The firmware puts BKPT #imm at each
 * marker site and records every site in the non-allocated ELF section `.bench_markers`; this unit
 * decodes that section from bytes (elf.c hands it the section data) and answers "which marker is
 * at this PC". Pure data in, data out: no libelf here, so the fuzz target links this unit alone. */
#ifndef HOST_FIRMWARE_MARKERS_H
#define HOST_FIRMWARE_MARKERS_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "bench_abi.h"
#include "results/results.h"

/* The BKPT immediates (docs/markers.md). 0xAB is semihosting and never a marker. */
enum marker_kind {
	MARKER_BEGIN = BENCH_KIND_BEGIN,
	MARKER_END = BENCH_KIND_END,
	MARKER_SYNC = BENCH_KIND_SYNC,
	MARKER_DONE = BENCH_KIND_DONE,
	MARKER_CAL_BEGIN = BENCH_KIND_CAL_BEGIN,
	MARKER_CAL_END = BENCH_KIND_CAL_END,
};

#define MARKERS_RECORD_VERSION BENCH_RECORD_VERSION
#define MARKERS_SECTION        ".bench_markers"
#define MARKERS_HEADER_SIZE    12u

struct marker {
	uint32_t addr; /* address of the BKPT instruction, Thumb bit clear */
	enum marker_kind kind;
	uint16_t id; /* BEGIN and END of one pair share it; one id per pair name (markers_decode renumbers
	              * the ids two translation units both chose) */
	char name[BENCH_NAME_MAX];
};

struct marker_set {
	struct marker *v; /* sorted by addr */
	size_t n;
};

/* Decodes the section bytes. Records with addr 0 (discarded by the linker) are skipped. Errors
 * (BENCH_E_NO_MARKERS): a truncated record, a record of another version, an unknown kind, a
 * name that does not fit. Returns 0 or a negated bench_err; on success *out owns its memory. */
int markers_decode(const uint8_t *data, size_t len, struct marker_set *out, struct bench_error *err);
void markers_free(struct marker_set *m);
/* The marker whose BKPT is at addr (Thumb bit ignored), or NULL. */
const struct marker *markers_at(const struct marker_set *m, uint32_t addr);
/* The first marker of a kind, or NULL. */
const struct marker *markers_first(const struct marker_set *m, enum marker_kind kind);
size_t markers_count(const struct marker_set *m, enum marker_kind kind);
/* "BEGIN", "END", ...; "?" for anything else. */
const char *markers_kind_name(unsigned kind);

#endif /* HOST_FIRMWARE_MARKERS_H */
