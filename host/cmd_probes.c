/* bench probes: placeholder until its issue lands; replaced by the real command. */
#include <stdio.h>

#include "cmd.h"

int cmd_probes(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "bench probes: not built yet\n");
	return 6;
}
