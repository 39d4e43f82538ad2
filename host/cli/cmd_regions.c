/* bench regions FIRMWARE.elf: what profile-point regions the firmware declares, from the ELF alone
 * (the table `bench_regions` as .data initialises it, names from flash). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli/args.h"
#include "cli/cmd.h"
#include "firmware/counters.h"
#include "firmware/elf.h"
#include "firmware/regions.h"
#include "results/results.h"

static void usage(FILE *out)
{
	fprintf(out, "usage: bench regions FIRMWARE.elf\n\n"
	             "Lists the profile-point regions (target/include/pfp.h) the firmware declares: id and name,\n"
	             "and the table's format. `bench run` reports what they measured (docs/regions.md).\n");
}

int cmd_regions(int argc, char **argv)
{
	struct bench_error err;
	struct elf_file elf;
	struct bench_report rep;
	struct regions_header h;
	const char *path = NULL;
	int rc;

	static const struct option longopts[] = {{"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
	struct cli_args a;
	const char *val;

	bench_error_clear(&err);
	cli_args_start(&a, "regions", argc, argv, "h", longopts);
	while ((rc = cli_args_next(&a, &val, &err)) != CLI_ARG_END) {
		if (rc == 'h') {
			usage(stdout);
			return 0;
		}
		if (rc == CLI_ARG_POSITIONAL && !path) {
			path = val;
			continue;
		}
		return cli_args_unexpected(&a, rc, val, &err);
	}
	if (!path) {
		usage(stderr);
		return 2;
	}
	memset(&elf, 0, sizeof(elf));
	rc = elf_open(path, &elf, &err);
	if (rc < 0) {
		fprintf(stderr, "bench: %s\n", err.msg);
		return bench_exit_code(err.kind);
	}
	results_init(&rep);
	rc = regions_read_elf(&elf, &rep, &h, &err);
	if (rc < 0) {
		fprintf(stderr, "bench: %s\n", err.msg);
		results_free(&rep);
		elf_close(&elf);
		return bench_exit_code(err.kind);
	}
	const struct elf_symbol *sym = elf_symbol(&elf, REGIONS_SYMBOL);
	printf("%s at 0x%08" PRIx32 ": version %u, %zu regions, %u-byte records, records at 0x%08" PRIx32 "\n",
	       REGIONS_SYMBOL, sym ? sym->addr : 0u, h.version, rep.n_regions, h.record_size, h.records_addr);
	printf("%4s  %s\n", "id", "name");
	for (size_t i = 0; i < rep.n_regions; i++)
		printf("%4" PRIu32 "  %s%s\n", rep.regions[i].id, rep.regions[i].name,
		       rep.regions[i].id < 2 ? "  (runtime: calibration)" : "");
	rc = fflush(stdout) == 0 && !ferror(stdout) ? 0 : 6;
	if (rc)
		fprintf(stderr, "bench: writing the listing failed: check the output file or pipe\n");
	results_free(&rep);
	elf_close(&elf);
	return rc;
}
