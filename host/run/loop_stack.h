/* bench run --stack on any board (issue 24, docs/run.md "Stack depth"): the stack below the stack
 * pointer is painted with a pattern over the probe at BEGIN and scanned at END, the method pqm4's
 * stack benchmarks use, done from the host so the firmware needs no code. One bulk write and one
 * bulk read per sample. Private to run/: loop.c calls it. */
#ifndef HOST_RUN_LOOP_STACK_H
#define HOST_RUN_LOOP_STACK_H

#include <stdbool.h>
#include <stdint.h>

#include "run/loop_state.h"

/* The word painted below SP: FreeRTOS's tskSTACK_FILL_BYTE (0xa5) in every byte, a value code
 * rarely stores (not 0, not -1, not a RAM or flash address on an STM32). */
#define LOOP_STACK_PATTERN 0xA5A5A5A5u
/* The most bench paints a sample: a limit further below SP than this is a mistake (or the whole
 * RAM, which --stack-limit should narrow) and painting it would cost seconds a sample. */
#define LOOP_STACK_MAX_BYTES (1024u * 1024u)

/* What one sample measured besides cycles. */
struct loop_stack_fig {
	bool has_stack;
	uint32_t bytes; /* deepest use below SP at BEGIN */
	uint8_t flags;  /* BENCH_STACK_* (results.h) */
	bool has_code;
	struct bench_code code; /* --code-size from the record: the functions this sample ran */
};

/* At a BEGIN (or --start) halt, outside warm-up: with --stack, paints (loop_stack_paint) or, with
 * the virtual board's records, reads SP and MSP; sets p->painted when END must measure. */
int loop_stack_begin(struct loop *c, const char *where, struct loop_pending *p);
/* At its END halt: the stack figure (scan, or SP at BEGIN less the record's lowest SP on that
 * stack) and, with a code image and records, the code the stretch ran, its own instructions
 * [from, to] (the markers' addresses; 0, 0 with --start) in the function around them left out. */
int loop_stack_end(struct loop *c, const struct loop_pending *p, uint32_t from, uint32_t to, bool exception,
                   struct loop_stack_fig *out);

/* At a BEGIN (or --start) halt: reads SP into *sp and paints [limit, *sp). The first paint of a
 * run is read back whole: RAM bench cannot write fails the run (exit 5) instead of flagging every
 * sample an overflow. `where` names the stretch for messages. */
int loop_stack_paint(struct loop *c, const char *where, uint32_t *sp);
/* At the END halt: scans [limit, sp) for the lowest word that is no longer the pattern. A stretch
 * that changed the word at the limit is flagged BENCH_STACK_OVERFLOW, never given a depth;
 * `exception` (the sample took one) sets BENCH_STACK_EXCEPTION: its frame is in the figure. */
int loop_stack_scan(struct loop *c, uint32_t sp, bool exception, struct loop_stack_fig *out);

#endif /* HOST_RUN_LOOP_STACK_H */
