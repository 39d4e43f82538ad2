/* bench-sim's halt records (bench-sim --record=PATH, docs/sim-record.md) read as the file grows:
 * at every entry to Debug state the virtual board appends, and flushes before the debugger can see
 * the halt, what its cycle ledger counted since the previous resume, by calling context (a node
 * of the call tree: the reset context, a BL/BLX callee, an exception handler) and by instruction,
 * with the lowest MSP/PSP seen. The one channel from the virtual board's ledger to bench: exact
 * profiles (run/ --profile exact) and stack depth (--stack) read it through this reader only. */
#ifndef HOST_SESSION_SIM_RECORD_H
#define HOST_SESSION_SIM_RECORD_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"

/* The file bench asks bench-sim for, inside the work folder. */
#define SIM_RECORD_FILE "sim-record"
/* The format this reader reads (the `bench-sim-record N` line). */
#define SIM_RECORD_VERSION 1
/* Ledger reasons a file may name (bench-sim prints its own, core_charge_name()). */
#define SIM_RECORD_MAX_REASONS 32
/* Node 0: the context the core runs in from reset, parent of every other. */
#define SIM_RECORD_ROOT 0u

enum sim_record_kind {
	SIM_RECORD_KIND_ROOT = 0, /* node 0 */
	SIM_RECORD_KIND_CALL,     /* entered by a BL/BLX to entry */
	SIM_RECORD_KIND_EXC,      /* exception `exc`'s handler (entry: its vector) */
	SIM_RECORD_KIND_JUMP,     /* reserved by the format (a detected tail call); bench-sim writes none yet */
};

/* A calling context: the same function called from two contexts is two nodes. */
struct sim_record_node {
	uint32_t id;    /* its index in the reader's node table */
	int64_t parent; /* -1 for the root */
	uint32_t entry; /* the address entered (Thumb bit clear); the root: the reset PC */
	enum sim_record_kind kind;
	unsigned exc; /* SIM_RECORD_KIND_EXC: the exception number (16 + IRQ n) */
};

/* One instruction of one context over the record's interval. */
struct sim_record_pc {
	uint32_t node;
	uint32_t addr;          /* Thumb bit clear */
	uint64_t execs;         /* times it ran (0: cycles charged there with no instruction run) */
	const uint64_t *cycles; /* cycles under each reason, sim_record_n_reasons() of them */
};

/* How often a context was entered in the interval. */
struct sim_record_enter {
	uint32_t node;
	uint64_t count;
};

/* What the core did from the previous resume (reset, for the first record) to this halt. The
 * arrays belong to the reader and stay valid until its next sim_record_next() or close. */
struct sim_record {
	uint64_t seq;                    /* 1, 2, ... one per entry to Debug state */
	uint32_t cyccnt;                 /* DWT_CYCCNT at the halt */
	uint64_t total;                  /* the core's 64-bit cycle count at the halt */
	uint64_t cycles;                 /* total minus the previous record's (minus 0 for the first): the sum
	                                  * of every cycle of pcs[], checked by the reader */
	uint32_t msp_min;                /* lowest MSP while in use, exception frames included */
	uint32_t psp_min;                /* the same for PSP; a stack not used: its value at the halt */
	uint64_t exceptions;             /* exceptions entered (tail-chained ones included) */
	const struct sim_record_pc *pcs; /* by node, then address */
	size_t n_pcs;
	const struct sim_record_enter *enters; /* by node */
	size_t n_enters;
};

struct sim_record_reader;

/* Opens the reader on `path`. The file may not exist yet (bench-sim starting): that is not an
 * error, sim_record_next() answers "not yet" until it does. 0 or -BENCH_E_NOMEM. */
int sim_record_open(struct sim_record_reader **out, const char *path, struct bench_error *err);
/* The next complete record: 1 with *rec filled, 0 when none is complete yet (the file ends
 * inside one, or before it: call again after the next halt), or a negated bench_err
 * (BENCH_E_PROTOCOL: a line bench cannot read, a record whose cycles do not add up, the message
 * naming file:line; BENCH_E_FILE: unreadable). After an error the reader only repeats it. */
int sim_record_next(struct sim_record_reader *r, struct sim_record *rec, struct bench_error *err);
/* The calling contexts read so far (they persist across records): ids 0 .. n-1. */
size_t sim_record_n_nodes(const struct sim_record_reader *r);
const struct sim_record_node *sim_record_node(const struct sim_record_reader *r, uint32_t id);
/* The ledger's reasons, in the order of sim_record_pc.cycles (0 before the header is read). */
unsigned sim_record_n_reasons(const struct sim_record_reader *r);
const char *sim_record_reason(const struct sim_record_reader *r, unsigned i);
/* The index of reason `name`, or -1. */
int sim_record_reason_index(const struct sim_record_reader *r, const char *name);
const char *sim_record_path(const struct sim_record_reader *r);
void sim_record_close(struct sim_record_reader *r);

#endif /* HOST_SESSION_SIM_RECORD_H */
