/* The one monotonic clock every layer measures deadlines and phases with. */
#ifndef HOST_BASE_CLOCK_H
#define HOST_BASE_CLOCK_H

#include <stdint.h>

/* Milliseconds on CLOCK_MONOTONIC (never set back, unlike the wall clock). */
uint64_t clock_now_ms(void);

#endif /* HOST_BASE_CLOCK_H */
