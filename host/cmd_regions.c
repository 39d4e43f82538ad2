/* bench regions: placeholder until its issue lands; replaced by the real command. */
#include <stdio.h>

#include "cmd.h"

int cmd_regions(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "bench regions: not built yet\n");
	return 6;
}
