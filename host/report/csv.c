/* CSV reporter: one row per result (marker pair and input), RFC 4180 quoting, so a spreadsheet
 * or pandas.read_csv opens it as is. Columns are fixed (docs/reports.md); the run's context is in
 * the JSON report, not here, to keep one table per file. */
#include <string.h>

#include "report/measures_fmt.h"
#include "report/reporter.h"

/* RFC 4180 section 2, rules 6-7: quote a field holding a comma, quote or line break, and double
 * every quote inside it. */
static int csv_field(FILE *out, const char *s)
{
	if (!strpbrk(s, ",\"\r\n"))
		return fputs(s, out) == EOF ? -1 : 0;
	if (putc('"', out) == EOF)
		return -1;
	for (; *s; s++) {
		if (*s == '"' && putc('"', out) == EOF)
			return -1;
		if (putc(*s, out) == EOF)
			return -1;
	}
	return putc('"', out) == EOF ? -1 : 0;
}

static int csv_begin(const struct reporter_ctx *ctx, FILE *out, const struct bench_report *rep, struct bench_error *err)
{
	if (fputs("name,args,unit,n,min,max,mean,median,stddev,time_ns_min,time_ns_mean,error", out) == EOF ||
	    measures_csv_header(out, rep) || fputs("\r\n", out) == EOF)
		return bench_fail(err, BENCH_E_IO, "writing CSV failed");
	return 0;
}

static int csv_result(const struct reporter_ctx *ctx, FILE *out, const struct bench_report *rep,
                      const struct bench_result *res, struct bench_error *err)
{
	const struct bench_stats *s = &res->stats;
	char args[512];
	/* Only cycles become time: an instruction count (--icount) has no duration. */
	bool cycles = !strcmp(res->unit, "cycles");
	double tmin = cycles ? results_cycles_to_ns(rep, s->min) : -1.0;
	double tmean = cycles ? results_cycles_to_ns(rep, s->mean) : -1.0;
	int bad = 0;

	results_args(res, args, sizeof(args));
	bad |= csv_field(out, res->name) || putc(',', out) == EOF;
	bad |= csv_field(out, args) || putc(',', out) == EOF;
	bad |= csv_field(out, res->unit) || putc(',', out) == EOF;
	if (s->n)
		bad |= fprintf(out, "%zu,%.0f,%.0f,%.3f,%.3f,%.3f,", s->n, s->min, s->max, s->mean, s->median,
		               s->stddev) < 0;
	else /* no sample counts: no figure at all, and the error column says why (results_stats) */
		bad |= fputs(",,,,,,", out) == EOF;
	if (s->n && tmin >= 0)
		bad |= fprintf(out, "%.3f,%.3f,", tmin, tmean) < 0;
	else
		bad |= fputs(",,", out) == EOF;
	bad |= csv_field(out, res->error) || measures_csv_row(out, rep, res) || fputs("\r\n", out) == EOF;
	if (bad)
		return bench_fail(err, BENCH_E_IO, "writing CSV failed");
	return 0;
}

static int csv_end(const struct reporter_ctx *ctx, FILE *out, const struct bench_report *rep, struct bench_error *err)
{
	return 0;
}

const struct reporter_ops csv_reporter = {
    .name = "csv",
    .help = "RFC 4180, one row per result, for spreadsheets and pandas",
    .extension = "csv",
    .begin = csv_begin,
    .result = csv_result,
    .end = csv_end,
};
