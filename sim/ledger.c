/* bench-sim --ledger (ledger.h). */
#include "ledger.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "bus/msg.h"

void sim_ledger_start(struct sim_ledger *l, struct sim_core *core, FILE *out)
{
	struct core_stats st = {0};
	core_get_stats(core, &st);
	*l = (struct sim_ledger){.start = st.cycles, .out = out};
	/* Totals only: the core adds a whole block's sums by reason (core_set_ledger_totals). */
	core_set_ledger_totals(core, l->by_why);
}

void sim_ledger_halt(void *ctx)
{
	struct sim_ledger *l = ctx;
	fprintf(l->out, "ledger-since-last");
	for (unsigned i = 0; i < CORE_CHARGE_N; i++) {
		uint64_t d = l->by_why[i] - l->at_halt[i];
		if (d)
			fprintf(l->out, " %s=%" PRIu64, core_charge_name((enum core_charge_why)i), d);
		l->at_halt[i] = l->by_why[i];
	}
	fprintf(l->out, "\n");
}

static uint64_t ledger_total(const struct sim_ledger *l)
{
	uint64_t t = 0;
	for (unsigned i = 0; i < CORE_CHARGE_N; i++)
		t += l->by_why[i];
	return t;
}

/* Every reason, zeros too, so a script reads the same keys from every run. */
static int write_json(const struct sim_ledger *l, uint64_t total, const char *path)
{
	FILE *f = fopen(path, "w");
	if (!f) {
		sim_msg("--ledger=%s: %s: give a file bench-sim can write", path, strerror(errno));
		return -1;
	}
	fprintf(f, "{\n  \"cycles\": %" PRIu64 ",\n  \"by_reason\": {", total);
	for (unsigned i = 0; i < CORE_CHARGE_N; i++)
		fprintf(f, "%s\n    \"%s\": %" PRIu64, i ? "," : "", core_charge_name((enum core_charge_why)i),
		        l->by_why[i]);
	fprintf(f, "\n  }\n}\n");
	if (ferror(f) | (fclose(f) != 0)) {
		sim_msg("--ledger=%s: writing failed: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

int sim_ledger_report(const struct sim_ledger *l, struct sim_core *core, FILE *out, const char *json_path)
{
	struct core_stats st = {0};
	core_get_stats(core, &st);
	uint64_t total = ledger_total(l), counted = st.cycles - l->start;
	for (unsigned i = 0; i < CORE_CHARGE_N; i++) {
		if (l->by_why[i] == 0)
			continue;
		fprintf(out, "ledger %s %" PRIu64 " %.2f%%\n", core_charge_name((enum core_charge_why)i), l->by_why[i],
		        100.0 * (double)l->by_why[i] / (double)total);
	}
	fprintf(out, "ledger total %" PRIu64 "\n", total);
	if (total != counted) {
		sim_msg("the ledger's total %" PRIu64 " is not the %" PRIu64 " cycles the core counted: a cycle-model "
		        "bug, please report it with the ELF",
		        total, counted);
		return -1;
	}
	return json_path ? write_json(l, total, json_path) : 0;
}
