/* A profile's writers (profile.h): the console's top-N table, folded stacks and a callgrind file. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/str.h"
#include "profile/profile.h"

#define PROFILE_TOP 10

int profile_print_top(FILE *out, const struct bench_profile *p, size_t top)
{
	double rate = p->seconds > 0 ? (double)(p->samples + p->discarded) / p->seconds : 0;
	char scale[96];

	if (p->cycles_known)
		str_fmt_cut(scale, sizeof(scale), "cycles = share x the pair's mean %.1f", p->cycles);
	else
		str_fmt_cut(scale, sizeof(scale), "no cycles: the pair has no measured sample");
	if (fprintf(out, "\nprofile %s: %llu samples of %s (%llu reads while halted dropped, %.0f reads/s); %s\n",
	            p->name, (unsigned long long)p->samples, p->source, (unsigned long long)p->discarded, rate,
	            scale) < 0 ||
	    fprintf(out, "  %-32s %9s %8s   %-8s %12s\n", "function", "samples", "share", "+- error", "cycles") < 0)
		return -1;
	for (size_t i = 0; i < p->n_functions && i < top; i++) {
		const struct bench_profile_fn *f = &p->functions[i];
		char cyc[32];

		if (p->cycles_known)
			str_fmt_cut(cyc, sizeof(cyc), "%12.1f", f->cycles);
		else
			str_fmt_cut(cyc, sizeof(cyc), "%12s", "-");
		if (fprintf(out, "  %-32s %9llu %7.2f %% +- %5.2f %% %s\n", f->name, (unsigned long long)f->samples,
		            100.0 * f->share, 100.0 * f->error, cyc) < 0)
			return -1;
	}
	if (p->n_functions > top && fprintf(out, "  (%zu more functions)\n", p->n_functions - top) < 0)
		return -1;
	return 0;
}

int profile_write_folded(FILE *out, const struct bench_profile *p)
{
	for (size_t i = 0; i < p->n_functions; i++)
		if (fprintf(out, "%s;%s %llu\n", p->name, p->functions[i].name,
		            (unsigned long long)p->functions[i].samples) < 0)
			return -1;
	return 0;
}

int profile_write_callgrind(FILE *out, const struct bench_profile *p, const char *cmd)
{
	uint64_t cycles = 0;
	bool known = p->cycles_known; /* else Samples is the only event: no cycles were measured */

	for (size_t i = 0; i < p->n_lines; i++)
		cycles += p->lines[i].cycles;
	/* Header lines as the Callgrind Format Specification names them (valgrind docs, 3.2.1): positions
	 * are source lines; two events, the PCSR samples and the cycles they stand for. */
	if (fprintf(out,
	            "# callgrind format\nversion: 1\ncreator: bench --profile (DWT_PCSR samples)\n"
	            "cmd: %s %s\npart: 1\npositions: line\n",
	            cmd, p->name) < 0 ||
	    (known && fprintf(out, "events: Samples Cycles\nsummary: %llu %llu\n\n", (unsigned long long)p->samples,
	                      (unsigned long long)cycles) < 0) ||
	    (!known && fprintf(out, "events: Samples\nsummary: %llu\n\n", (unsigned long long)p->samples) < 0))
		return -1;
	for (size_t i = 0; i < p->n_lines; i++) {
		const struct bench_profile_line *l = &p->lines[i];
		const char *file = l->file[0] ? l->file : "???";
		bool first = !i || strcmp(p->lines[i - 1].function, l->function);

		if (first && fprintf(out, "fl=%s\nfn=%s\n", file, l->function) < 0)
			return -1;
		if (!first && strcmp(p->lines[i - 1].file, l->file) && fprintf(out, "fi=%s\n", file) < 0)
			return -1;
		if (fprintf(out, "%u %llu", l->line, (unsigned long long)l->samples) < 0 ||
		    (known && fprintf(out, " %llu", (unsigned long long)l->cycles) < 0) || fputc('\n', out) == EOF)
			return -1;
	}
	return 0;
}

/* PREFIX.EXT, or PREFIX.PAIR.EXT when the report has several profiles. */
static int write_one(const struct bench_report *rep, const struct bench_profile *p, const char *prefix, const char *ext,
                     struct bench_error *err)
{
	char path[4096];
	FILE *f;
	int bad;

	if (rep->n_profiles > 1)
		str_fmt_cut(path, sizeof(path), "%s.%s", prefix, p->name);
	else
		str_fmt_cut(path, sizeof(path), "%s", prefix);
	for (size_t i = 0; rep->n_profiles > 1 && i < p->n_args; i++)
		(void)str_append(path, sizeof(path), ".%s=%" PRId64, p->args[i].name, p->args[i].value);
	(void)str_append(path, sizeof(path), ".%s", ext);
	f = fopen(path, "w");
	if (!f)
		return bench_fail(err, BENCH_E_IO, "cannot write the profile to %s: %s: check the --profile prefix",
		                  path, strerror(errno));
	if (p->exact)
		bad = !strcmp(ext, "folded")
		          ? profile_write_folded_exact(f, p)
		          : profile_write_callgrind_exact(f, p, results_basename(rep->context.firmware));
	else
		bad = !strcmp(ext, "folded") ? profile_write_folded(f, p)
		                             : profile_write_callgrind(f, p, results_basename(rep->context.firmware));
	if (fclose(f) || bad)
		return bench_fail(err, BENCH_E_IO, "writing the profile to %s failed", path);
	return 0;
}

int profile_write_all(const struct bench_report *rep, const char *prefix, FILE *out, struct bench_error *err)
{
	int rc;

	for (size_t i = 0; i < rep->n_profiles; i++) {
		const struct bench_profile *p = &rep->profiles[i];
		/* A sweep has an exact profile per input: the console shows the first few, the files all. */
		bool show = out && i < PROFILE_CONSOLE_MAX;
		if (show &&
		    (p->exact ? profile_print_top_exact(out, p, PROFILE_TOP) : profile_print_top(out, p, PROFILE_TOP)))
			return bench_fail(err, BENCH_E_IO, "writing the profile table failed");
		if (out && i == PROFILE_CONSOLE_MAX &&
		    fprintf(out, "\n(%zu more profiles: in the JSON report%s)\n", rep->n_profiles - i,
		            prefix ? " and the --profile files" : "") < 0)
			return bench_fail(err, BENCH_E_IO, "writing the profile table failed");
		if (prefix && ((rc = write_one(rep, p, prefix, "folded", err)) ||
		               (rc = write_one(rep, p, prefix, "callgrind", err))))
			return rc;
	}
	if (out && profile_print_input_diffs(out, rep))
		return bench_fail(err, BENCH_E_IO, "writing the profile table failed");
	return 0;
}
