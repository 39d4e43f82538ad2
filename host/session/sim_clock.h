/* A second clock for the virtual board: bench-sim's 64-bit cycle count (`stats` on its control
 * interface, docs/sim.md), read at BEGIN and END so a stretch of 2^32 cycles or more, which
 * DWT_CYCCNT wraps through unseen, is flagged. The host's wall clock cannot do that here: the
 * simulator skips sleep far faster than real time. */
#ifndef HOST_SESSION_SIM_CLOCK_H
#define HOST_SESSION_SIM_CLOCK_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"

/* Connects to 127.0.0.1:port. Returns the socket (>= 0) or a negated bench_err (BENCH_E_CONNECT). */
int sim_clock_open(uint16_t port, struct bench_error *err);
/* The simulator's cycle count since its start. 0, or a negated bench_err (connection, protocol). */
int sim_clock_cycles(int fd, uint64_t *cycles, struct bench_error *err);
/* What the virtual board has at addr ("CRC (0x40023000, modelled)", "a reserved hole in the peripheral map"):
 * bench-sim's `where` command. 0, or a negated bench_err. */
int sim_clock_where(int fd, uint32_t addr, char *out, size_t len, struct bench_error *err);
/* The same `stats` reply's cycle count and its count of exceptions the core has taken (entries
 * and tail-chains), so a stretch that took one is seen exactly, with no DWT_EXCCNT wrap; and,
 * unless resets is NULL, its count of core resets of any cause (resets=). */
int sim_clock_stats(int fd, uint64_t *cycles, uint64_t *exceptions, uint64_t *resets, struct bench_error *err);
void sim_clock_close(int fd);

#endif /* HOST_SESSION_SIM_CLOCK_H */
