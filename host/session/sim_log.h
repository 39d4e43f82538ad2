/* bench-sim's log (its stdout and stderr, kept in the work folder) read as it grows: the firmware's UART lines
 * ("uart: ...", docs/sim.md) and bench-sim's notes ("bench-sim: note: the firmware used CRC (0x40023000), which
 * the virtual board keeps as plain registers"), one complete line at a time. */
#ifndef HOST_SIM_LOG_H
#define HOST_SIM_LOG_H

#include <stddef.h>
#include <stdio.h>

struct sim_log {
	char path[1100];
	long offset;     /* bytes of complete lines handed out */
	char part[1024]; /* an unfinished last line */
	size_t part_len;
};

typedef void (*sim_log_line_fn)(void *ctx, const char *line);

void sim_log_init(struct sim_log *l, const char *path);
/* Hands each new complete line (without its newline) to fn. A log that cannot be read yet is not an error: the
 * next call tries again. Lines longer than the buffer are cut. */
void sim_log_poll(struct sim_log *l, sim_log_line_fn fn, void *ctx);

#endif /* HOST_SIM_LOG_H */
