/* A progress bar on stderr for runs longer than a second, only when stderr is a TTY: nothing of
 * it reaches a pipe or a log. */
#ifndef HOST_RUN_PROGRESS_H
#define HOST_RUN_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct progress {
	FILE *out;
	bool enabled; /* out is a TTY and the caller asked for it */
	bool shown;   /* something was drawn (end() clears the line) */
	uint64_t start_ms, last_ms;
	size_t total;
};

void progress_begin(struct progress *p, FILE *out, bool want, size_t total);
/* Redraws at most every 100 ms, and only once the run has taken a second. */
void progress_update(struct progress *p, size_t done);
void progress_end(struct progress *p);

#endif /* HOST_RUN_PROGRESS_H */
