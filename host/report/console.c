/* The console reporter: what a user wants first: which firmware on which board, whether the
 * cycles are measured or modelled, the subtracted overhead, then one aligned row per marker pair
 * and input with cycles and time. Column widths come from the whole report, so begin() and each
 * result() compute them the same way (no state between calls). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "base/str.h"
#include "report/console_measures.h"
#include "report/reporter.h"

struct widths {
	int name, args, n, num;
};

static void args_text(const struct bench_result *r, char *out, size_t len)
{
	size_t used = 0;
	out[0] = '\0';
	for (size_t i = 0; i < r->n_args && used < len; i++) {
		int w =
		    snprintf(out + used, len - used, "%s%s=%" PRId64, i ? " " : "", r->args[i].name, r->args[i].value);
		if (w < 0)
			break;
		used += (size_t)w;
	}
	if (!r->n_args)
		str_fmt_cut(out, len, "-");
}

static int num_width(double v)
{
	char b[64];
	return snprintf(b, sizeof(b), "%.1f", v);
}

static void compute_widths(const struct bench_report *rep, struct widths *w)
{
	/* Every row needs the widths of all rows: computed once per report, not once per row (a
	 * 10^6-input sweep made the table 10^12 steps). One report is printed at a time. */
	static struct {
		const struct bench_report *rep;
		size_t n;
		struct widths w;
	} cache;
	char a[256];

	if (cache.rep == rep && cache.n == rep->n_results) {
		*w = cache.w;
		return;
	}

	w->name = 4, w->args = 4, w->n = 1, w->num = 6;
	for (size_t i = 0; i < rep->n_results; i++) {
		const struct bench_result *r = &rep->results[i];
		int l = (int)strlen(r->name);
		if (l > w->name)
			w->name = l;
		args_text(r, a, sizeof(a));
		l = (int)strlen(a);
		if (l > w->args)
			w->args = l;
		l = snprintf(a, sizeof(a), "%zu", r->stats.n);
		if (l > w->n)
			w->n = l;
		if (num_width(r->stats.max) > w->num)
			w->num = num_width(r->stats.max);
	}
	cache.rep = rep;
	cache.n = rep->n_results;
	cache.w = *w;
}

static void fmt_time(const struct bench_report *rep, double cycles, char *out, size_t len)
{
	double ns;

	if (!rep->context.core_clock_hz) {
		str_fmt_cut(out, len, "-");
		return;
	}
	ns = cycles * 1e9 / (double)rep->context.core_clock_hz;
	if (ns < 1e3)
		str_fmt_cut(out, len, "%.1f ns", ns);
	else if (ns < 1e6)
		str_fmt_cut(out, len, "%.2f us", ns / 1e3);
	else if (ns < 1e9)
		str_fmt_cut(out, len, "%.2f ms", ns / 1e6);
	else
		str_fmt_cut(out, len, "%.3f s", ns / 1e9);
}

static int io_fail(struct bench_error *err)
{
	return bench_fail(err, BENCH_E_IO, "writing the console report failed: check the output");
}

static int console_begin(const struct reporter_ctx *ctx, FILE *out, const struct bench_report *rep,
                         struct bench_error *err)
{
	const struct bench_context *c = &rep->context;
	struct widths w;
	const char *fw = strrchr(c->firmware, '/') ? strrchr(c->firmware, '/') + 1 : c->firmware;
	int bad = 0;

	compute_widths(rep, &w);
	bad |= fprintf(out, "%s on %s", fw, c->board[0] ? c->board : "an unnamed board") < 0;
	if (c->core_clock_hz)
		bad |= fprintf(out, " at %.1f MHz", (double)c->core_clock_hz / 1e6) < 0;
	bad |= fprintf(out, ", %s via %s", strcmp(c->counter, "none") ? c->counter : "no counter",
	               c->backend[0] ? c->backend : "?") < 0;
	/* How OpenOCD reaches the probe, as context.transport names it in the JSON (dap, hla, jtag). */
	bad |= fprintf(out, c->transport[0] ? " (transport %s)\n" : "%s\n", c->transport) < 0;
	if (!strcmp(c->counter, "none"))
		bad |= fprintf(out, "no cycle counter on this target: the markers run, no cycles are measured\n\n") < 0;
	else if (c->cycles_modelled)
		bad |=
		    fprintf(out, "cycles are modelled by the virtual board (Cortex-M4 timing model), not measured on "
		                 "silicon\n") < 0;
	if (c->clock_source[0] && strcmp(c->clock_source, "board"))
		bad |=
		    fprintf(out, "clock from %s\n",
		            strcmp(c->clock_source, "firmware") ? "--clock-hz" : "the firmware's SystemCoreClock") < 0;
	if (c->mask_irqs)
		bad |=
		    fprintf(out, "interrupts masked from BEGIN to END (--mask-irqs: DHCSR.C_MASKINTS; NMI and faults "
		                 "still taken)\n") < 0;
	if (strcmp(c->counter, "none"))
		bad |= fprintf(out,
		               "overhead of an empty marker pair: %" PRId64 " cycles, subtracted from every sample\n\n",
		               c->overhead_cycles) < 0;
	if (rep->n_results)
		bad |= fprintf(out, "%-*s  %-*s  %*s  %*s  %*s  %*s  %*s  %*s  %10s\n", w.name, "name", w.args, "args",
		               w.n, "n", w.num, "min", w.num, "median", w.num, "mean", w.num, "max", w.num, "stddev",
		               "time(min)") < 0;
	else
		bad |= fprintf(out, "no samples\n") < 0;
	return bad ? io_fail(err) : 0;
}

/* "  (3 interrupted, excluded)": samples that took an exception, per result (results.h). */
static int interrupted_note(FILE *out, const struct bench_report *rep, const struct bench_result *r)
{
	size_t n = results_interrupted(r);

	if (!n)
		return 0;
	return fprintf(out, "  (%zu of %zu interrupted, %s)", n, r->n_samples,
	               rep->context.keep_interrupted ? "kept" : "excluded");
}

static int console_result(const struct reporter_ctx *ctx, FILE *out, const struct bench_report *rep,
                          const struct bench_result *r, struct bench_error *err)
{
	struct widths w;
	char a[256], t[32];
	const struct bench_stats *s = &r->stats;
	int bad;

	compute_widths(rep, &w);
	args_text(r, a, sizeof(a));
	if (!s->n) {
		bad = fprintf(out, "%-*s  %-*s  %*zu  %s", w.name, r->name, w.args, a, w.n, s->n,
		              r->error[0] ? r->error : "no samples") < 0;
		bad |= interrupted_note(out, rep, r) < 0 || fputc('\n', out) == EOF;
		return bad ? io_fail(err) : 0;
	}
	/* An instruction count (--icount) is no time: the column names its unit instead. */
	if (strcmp(r->unit, "cycles"))
		str_fmt_cut(t, sizeof(t), "%s", r->unit);
	else
		fmt_time(rep, s->min, t, sizeof(t));
	/* Cycles are integers: min, median and max print without decimals when they are whole. */
	bad = fprintf(out, "%-*s  %-*s  %*zu  %*.0f  %*.*f  %*.1f  %*.0f  %*.1f  %10s%s%s", w.name, r->name, w.args, a,
	              w.n, s->n, w.num, s->min, w.num, s->median == (double)(int64_t)s->median ? 0 : 1, s->median,
	              w.num, s->mean, w.num, s->max, w.num, s->stddev, t, r->error[0] ? "  " : "", r->error) < 0;
	bad |= interrupted_note(out, rep, r) < 0 || fputc('\n', out) == EOF;
	return bad ? io_fail(err) : 0;
}

static int console_end(const struct reporter_ctx *ctx, FILE *out, const struct bench_report *rep,
                       struct bench_error *err)
{
	int bad = 0;

	if (rep->n_results)
		bad |= fprintf(out, "(cycles; n samples per row; stddev is the sample standard deviation)\n") < 0;
	if (rep->n_regions) {
		bad |= fprintf(out, "\n%-20s %8s %12s %8s %8s %10s %10s\n", "region", "count", "total", "min", "max",
		               "mean", "ema") < 0;
		for (size_t i = 0; i < rep->n_regions; i++) {
			const struct bench_region_result *g = &rep->regions[i];
			if (g->no_cycles) { /* no cycle counter: the cycle columns were not measured */
				bad |=
				    fprintf(out, "%-20s %8" PRIu64 " %12s %8s %8s %10s %10s%s%s\n", g->name, g->count,
				            "-", "-", "-", "-", "-", g->error[0] ? "  " : "", g->error) < 0;
				continue;
			}
			bad |= fprintf(out, "%-20s %8" PRIu64 " %12" PRIu64 " %8u %8u %10.1f %10.1f%s%s\n", g->name,
			               g->count, g->total, g->min, g->max, g->mean, g->ema, g->error[0] ? "  " : "",
			               g->error) < 0;
		}
	}
	bad |= console_measures(out, rep) < 0;
	/* What the run survived (results.h warnings): below the tables, where a reader of the
	 * numbers sees it; the same lines went to stderr as they happened, which a log may lose. */
	for (size_t i = 0; i < rep->n_warnings && i < BENCH_MAX_WARNINGS; i++)
		bad |= fprintf(out, "%swarning: %s\n", i ? "" : "\n", rep->warnings[i]) < 0;
	if (rep->status != BENCH_STATUS_OK)
		bad |= fprintf(out, "\nstatus: %s (%s)%s%s\n", results_status_name(rep->status), rep->status_detail,
		               rep->error[0] ? ": " : "", rep->error) < 0;
	return bad ? io_fail(err) : 0;
}

const struct reporter_ops console_reporter = {
    .name = "console",
    .help = "the aligned table for people (bench run's default)",
    .extension = "txt",
    .begin = console_begin,
    .result = console_result,
    .end = console_end,
};
