/* An exact profile's writers (profile.h): the console's top-N table with the main reasons, folded
 * stacks with cycles, and a callgrind file whose events are the cycles, the instructions executed
 * and the ledger's reasons, with calls and their inclusive costs. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/str.h"
#include "profile/profile.h"

void profile_label(const struct bench_profile *p, char *out, size_t len)
{
	str_fmt_cut(out, len, "%s", p->name);
	for (size_t i = 0; i < p->n_args; i++)
		(void)str_append(out, len, "%s%s=%" PRId64, i ? "," : "[", p->args[i].name, p->args[i].value);
	if (p->n_args)
		(void)str_append(out, len, "]");
}

int profile_print_top_exact(FILE *out, const struct bench_profile *p, size_t top)
{
	char label[160];

	profile_label(p, label, sizeof(label));
	if (p->summed ? fprintf(out,
	                        "\nprofile %s: exact (the virtual board's cycle ledger): %" PRIu64
	                        " cycles, the sum of %" PRIu64 " stretches that ran differently\n",
	                        label, p->total, p->stretches) < 0
	              : fprintf(out,
	                        "\nprofile %s: exact (the virtual board's cycle ledger): %" PRIu64
	                        " cycles a stretch, the %" PRIu64 " measured ran alike\n",
	                        label, p->total, p->stretches) < 0 ||
	                    (p->note[0] && fprintf(out, "  note: %s\n", p->note) < 0) ||
	                    fprintf(out, "  %-28s %10s %8s %10s %7s %8s  %s\n", "function", "cycles", "share",
	                            "inclusive", "calls", "instrs", "main reasons (cycles)") < 0)
		return -1;
	for (size_t i = 0; i < p->n_functions && i < top; i++) {
		const struct bench_profile_fn *f = &p->functions[i];
		char why[160];

		results_profile_main_reasons(p, f->by_reason, why, sizeof(why));
		if (fprintf(out, "  %-28s %10" PRIu64 " %6.2f %% %10" PRIu64 " %7" PRIu64 " %8" PRIu64 "  %s\n",
		            f->name, f->self, 100.0 * f->share, f->incl, f->calls, f->execs, why) < 0)
			return -1;
	}
	if (p->n_functions > top && fprintf(out, "  (%zu more functions)\n", p->n_functions - top) < 0)
		return -1;
	return 0;
}

int profile_write_folded_exact(FILE *out, const struct bench_profile *p)
{
	char label[160];

	profile_label(p, label, sizeof(label));
	for (size_t i = 0; i < p->n_stacks; i++)
		if (p->stacks[i].cycles &&
		    fprintf(out, "%s;%s %" PRIu64 "\n", label, p->stacks[i].frames, p->stacks[i].cycles) < 0)
			return -1;
	return 0;
}

/* The file of a function's first instruction, as its fn= record names it; "???" when none. */
static const char *fn_file(const struct bench_profile *p, const char *fn)
{
	for (size_t i = 0; i < p->n_insns; i++)
		if (!strcmp(p->insns[i].function, fn))
			return p->insns[i].file[0] ? p->insns[i].file : "???";
	return "???";
}

static unsigned line_at(const struct bench_profile *p, uint32_t addr)
{
	for (size_t i = 0; i < p->n_insns; i++)
		if (p->insns[i].addr == addr)
			return p->insns[i].line;
	return 0;
}

static int costs(FILE *out, const struct bench_profile *p, uint64_t cycles, uint64_t execs, const uint64_t *by)
{
	if (fprintf(out, " %" PRIu64 " %" PRIu64, cycles, execs) < 0)
		return -1;
	for (size_t r = 0; r < p->n_reasons; r++)
		if (fprintf(out, " %" PRIu64, by[r]) < 0)
			return -1;
	return fputc('\n', out) == EOF ? -1 : 0;
}

/* One function's record: its instructions (positions: address and line), then its calls. */
static int write_fn(FILE *out, const struct bench_profile *p, const char *fn)
{
	const char *cur = fn_file(p, fn);

	if (fprintf(out, "fl=%s\nfn=%s\n", cur, fn) < 0)
		return -1;
	for (size_t i = 0; i < p->n_insns; i++) {
		const struct bench_profile_insn *in = &p->insns[i];
		const char *file = in->file[0] ? in->file : "???";
		if (strcmp(in->function, fn))
			continue;
		if (strcmp(file, cur) && fprintf(out, "fi=%s\n", file) < 0)
			return -1;
		cur = file;
		if (fprintf(out, "0x%08" PRIx32 " %u", in->addr, in->line) < 0 ||
		    costs(out, p, in->cycles, in->execs, in->by_reason))
			return -1;
	}
	for (size_t k = 0; k < p->n_calls; k++) {
		const struct bench_profile_call *c = &p->calls[k];
		const struct bench_profile_insn *entry = NULL;
		/* A call made before the stretch began (0 calls in it) has no calls= line: callgrind_annotate
		 * would take its cost line for the caller's own. */
		if (strcmp(c->caller, fn) || !c->calls)
			continue;
		for (size_t i = 0; i < p->n_insns && !entry; i++)
			if (!strcmp(p->insns[i].function, c->callee))
				entry = &p->insns[i];
		if (fprintf(out, "cfl=%s\ncfn=%s\ncalls=%" PRIu64 " 0x%08" PRIx32 " %u\n0x%08" PRIx32 " %u",
		            fn_file(p, c->callee), c->callee, c->calls, entry ? entry->addr : 0,
		            entry ? entry->line : 0, c->caller_addr, line_at(p, c->caller_addr)) < 0 ||
		    costs(out, p, c->incl, c->incl_execs, c->incl_by_reason))
			return -1;
	}
	return fputc('\n', out) == EOF ? -1 : 0;
}

int profile_write_callgrind_exact(FILE *out, const struct bench_profile *p, const char *cmd)
{
	char label[160];
	uint64_t execs = 0;

	profile_label(p, label, sizeof(label));
	for (size_t f = 0; f < p->n_functions; f++)
		execs += p->functions[f].execs;
	/* Callgrind Format Specification (valgrind docs): positions are an instruction address and its
	 * source line, so KCachegrind shows cycles per instruction; one event per ledger reason. */
	if (fprintf(out,
	            "# callgrind format\nversion: 1\ncreator: bench --profile (the virtual board's cycle ledger)\n"
	            "cmd: %s %s\npart: 1\npositions: instr line\nevents: Cycles Ir",
	            cmd, label) < 0)
		return -1;
	for (size_t r = 0; r < p->n_reasons; r++)
		if (fprintf(out, " %s", p->reasons[r]) < 0)
			return -1;
	{
		uint64_t *by = calloc(p->n_reasons ? p->n_reasons : 1, sizeof(*by));
		int bad;
		if (!by)
			return -1;
		for (size_t f = 0; f < p->n_functions; f++)
			for (size_t r = 0; r < p->n_reasons; r++)
				by[r] += p->functions[f].by_reason[r];
		bad = fprintf(out, "\nsummary:") < 0 || costs(out, p, p->total, execs, by) || fputc('\n', out) == EOF;
		free(by);
		if (bad)
			return -1;
	}
	for (size_t f = 0; f < p->n_functions; f++)
		if (write_fn(out, p, p->functions[f].name))
			return -1;
	return 0;
}
