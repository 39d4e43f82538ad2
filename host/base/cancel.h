/* Asking "should I stop?" without knowing who decides: the run owns the answer (a signal, a farm
 * thread's flag) and hands it down, so transports never read the signal handler's global and both
 * backends notice Ctrl-C inside a long command the same way: between poll slices of at most 100 ms. */
#ifndef HOST_BASE_CANCEL_H
#define HOST_BASE_CANCEL_H

#include <stdbool.h>
#include <stddef.h>

struct bench_cancel {
	bool (*fn)(void *ctx); /* NULL: never cancelled */
	void *ctx;
};

/* Longest wait between two looks at a bench_cancel, in ms. */
#define BENCH_CANCEL_SLICE_MS 100u

static inline bool bench_cancelled(const struct bench_cancel *c)
{
	return c != NULL && c->fn != NULL && c->fn(c->ctx);
}

#endif /* HOST_BASE_CANCEL_H */
