/* bench-sim's one stderr line format ("bench-sim: ..."), for every layer that reports something
 * (the control loop in main.c, the wire servers). It sits at the bottom of the sim's layers so any
 * of them may use it. */
#ifndef SIM_BUS_MSG_H
#define SIM_BUS_MSG_H

#include <stdarg.h>

/* Writes "bench-sim: " + the formatted text + a newline to stderr. */
void sim_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void sim_vmsg(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

#endif /* SIM_BUS_MSG_H */
