/* bench run: placeholder until its issue lands; replaced by the real command. */
#include <stdio.h>

#include "cmd.h"

int cmd_run(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "bench run: not built yet\n");
	return 6;
}
