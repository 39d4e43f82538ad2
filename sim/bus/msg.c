/* See msg.h. */
#include "bus/msg.h"

#include <stdio.h>

void sim_vmsg(const char *fmt, va_list ap)
{
	/* stderr is the last resort: nothing useful to do when writing to it fails */
	(void)fputs("bench-sim: ", stderr);
	(void)vfprintf(stderr, fmt, ap);
	(void)fputc('\n', stderr);
}

void sim_msg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sim_vmsg(fmt, ap);
	va_end(ap);
}
