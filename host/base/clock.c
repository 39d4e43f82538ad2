/* See clock.h. */
#include "base/clock.h"

#include <time.h>

uint64_t clock_now_ms(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
		return 0; /* cannot fail for CLOCK_MONOTONIC on Linux; 0 makes every deadline expire */
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}
