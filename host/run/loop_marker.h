/* The marker handlers (loop_marker.c): what the loop does at each marker kind, and the sample it
 * files. loop.c finds the halt and calls these; loop_marker.c never calls into loop.c. Private to
 * run/. */
#ifndef HOST_RUN_LOOP_MARKER_H
#define HOST_RUN_LOOP_MARKER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "firmware/markers.h"
#include "run/loop_stack.h"
#include "run/loop_state.h"

/* "KIND name" of marker m into buf, or "none yet" without one. */
const char *loop_marker_text(const struct marker *m, char *buf, size_t len);
/* Handles the halt at marker m with the counter at cnt; *done set at DONE. */
int loop_on_marker(struct loop *c, const struct marker *m, uint32_t cnt, bool *done);
/* Files one sample of pair `name` from counter values begin..end (see loop_marker.c). */
int loop_add_sample(struct loop *c, const char *name, uint32_t begin, uint32_t end, uint64_t begin_ms, uint64_t ran_ms,
                    uint8_t flags, const struct loop_stack_fig *x);
/* The wide clock and its exception count now (0 without one); exc may be NULL. */
int loop_wide_now(struct loop *c, uint64_t *now, uint64_t *exc);
/* BENCH_SAMPLE_WRAPPED when the wide clock saw 2^bits cycles or more between begin and end. */
uint8_t loop_wide_wrapped(const struct loop *c, uint64_t begin, uint64_t end);

#endif /* HOST_RUN_LOOP_MARKER_H */
