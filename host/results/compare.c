/* bench compare's engine; see compare.h. */
#include "results/compare.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/str.h"

/* scipy.stats.mannwhitneyu, method="auto": exact when one sample has at most 8 values and there are
 * no ties. Beyond 64 values in the other sample the exact table grows large and the normal
 * approximation is already close, so it is used instead. */
#define UTEST_EXACT_MAX       8
#define UTEST_EXACT_OTHER_MAX 64

void compare_opts_init(struct compare_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->threshold = 0.01;
	o->alpha = 0.05;
}

int compare_parse_threshold(const char *s, double *out, struct bench_error *err)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || errno || !isfinite(v) || v < 0)
		return bench_fail(err, BENCH_E_USAGE, "--threshold '%s': expected a percentage like 1%% or 0.5%%", s);
	if (*end == '%') {
		v /= 100.0;
		end++;
	}
	if (*end)
		return bench_fail(err, BENCH_E_USAGE, "--threshold '%s': expected a percentage like 1%% or 0.5%%", s);
	*out = v;
	return 0;
}

int compare_check(const struct bench_report *base, const char *base_name, const struct bench_report *cur,
                  const char *cur_name, const struct compare_opts *o, struct bench_error *err)
{
	const char *bf = results_basename(base->context.firmware), *cf = results_basename(cur->context.firmware);

	if (base->schema_version != cur->schema_version)
		return bench_fail(err, BENCH_E_REPORT,
		                  "%s has schema_version %d, %s has %d: re-run both with the same bench", base_name,
		                  base->schema_version, cur_name, cur->schema_version);
	/* A CI gate must not pass on a run that did not finish: its missing samples are not "no change". */
	for (int i = 0; i < 2; i++) {
		const struct bench_report *r = i ? cur : base;
		if (r->status != BENCH_STATUS_OK)
			return bench_fail(
			    err, BENCH_E_REPORT,
			    "%s is a run that did not finish (status %s: %.200s): fix that run and compare "
			    "complete reports",
			    i ? cur_name : base_name, results_status_name(r->status),
			    r->error[0] ? r->error : r->status_detail);
	}
	if (strcmp(base->context.board, cur->context.board) && !o->allow_other_board)
		return bench_fail(err, BENCH_E_REPORT,
		                  "%s was measured on board '%s' but %s on '%s': compare runs on the same board (or "
		                  "pass --allow-different-board)",
		                  base_name, base->context.board, cur_name, cur->context.board);
	/* The same SHA-256 is the same firmware whatever its file is called (a renamed artefact). */
	if (base->context.firmware_sha256[0] && !strcmp(base->context.firmware_sha256, cur->context.firmware_sha256))
		return 0;
	if (strcmp(bf, cf) && !o->allow_other_firmware)
		return bench_fail(err, BENCH_E_REPORT,
		                  "%s measured firmware '%s' but %s measured '%s': compare runs of the same firmware "
		                  "(or pass --allow-different-firmware)",
		                  base_name, bf, cur_name, cf);
	return 0;
}

static const struct bench_result *find(const struct bench_report *r, const struct bench_result *like)
{
	return results_find(r, like->name, like->args, like->n_args); /* by the index: no n^2 over big reports */
}

/* Exact or tie-free figures are cycles and instruction counts; anything else (a time) is noisy. */
static bool is_noisy(const struct bench_result *r)
{
	return strcmp(r->unit, "cycles") && strcmp(r->unit, "instructions");
}

static void judge(struct compare_row *row, const struct compare_opts *o)
{
	const struct bench_result *b = row->base, *c = row->cur;
	bool beyond_up, beyond_down;

	if (!c) {
		row->verdict = CMP_ONLY_BASE;
		return;
	}
	if (!b) {
		row->verdict = CMP_ONLY_NEW;
		return;
	}
	/* Nothing counts in NEW: whatever BASE had, that is no evidence of "same" (two empty sides
	 * compared equal let a gate pass on a benchmark that measured nothing, issue 26). */
	if (!c->stats.n) {
		row->verdict = CMP_UNMEASURED;
		return;
	}
	if (!b->stats.n) {
		row->verdict = CMP_ONLY_NEW;
		return;
	}
	row->base_median = b->stats.median;
	row->cur_median = c->stats.median;
	row->change = row->cur_median - row->base_median;
	row->ratio = row->base_median != 0 ? row->change / fabs(row->base_median) : 0;
	/* With a zero base every extra cycle is beyond any relative threshold. */
	beyond_up = row->change > o->threshold * fabs(row->base_median) && row->change > 0;
	beyond_down = -row->change > o->threshold * fabs(row->base_median) && row->change < 0;
	if (o->utest_always || is_noisy(b) || is_noisy(c)) {
		row->tested = true;
		row->p_value = compare_mann_whitney_p(b->samples, b->n_samples, c->samples, c->n_samples);
		if (row->p_value >= o->alpha)
			beyond_up = beyond_down = false;
	}
	row->verdict = beyond_up ? CMP_REGRESSED : beyond_down ? CMP_IMPROVED : CMP_SAME;
}

int compare_reports(const struct bench_report *base, const struct bench_report *cur, const struct compare_opts *o,
                    struct compare_result *out, struct bench_error *err)
{
	size_t cap = base->n_results + cur->n_results;

	memset(out, 0, sizeof(*out));
	out->rows = calloc(cap ? cap : 1, sizeof(*out->rows));
	if (!out->rows)
		return bench_fail(err, BENCH_E_NOMEM, "out of memory comparing reports");
	for (size_t i = 0; i < base->n_results; i++) {
		struct compare_row *row = &out->rows[out->n++];
		row->base = &base->results[i];
		row->cur = find(cur, row->base);
	}
	for (size_t i = 0; i < cur->n_results; i++)
		if (!find(base, &cur->results[i]))
			out->rows[out->n++].cur = &cur->results[i];
	for (size_t i = 0; i < out->n; i++) {
		judge(&out->rows[i], o);
		/* A result gone from NEW is a benchmark that stopped running: the gate must not pass on it. */
		out->regressions += out->rows[i].verdict == CMP_REGRESSED || out->rows[i].verdict == CMP_UNMEASURED ||
		                    out->rows[i].verdict == CMP_ONLY_BASE;
	}
	return 0;
}

void compare_free(struct compare_result *r)
{
	free(r->rows);
	memset(r, 0, sizeof(*r));
}

const char *compare_verdict_name(enum compare_verdict v)
{
	static const char *const names[] = {
	    [CMP_SAME] = "same",
	    [CMP_IMPROVED] = "improved",
	    [CMP_REGRESSED] = "REGRESSED",
	    [CMP_UNMEASURED] = "UNMEASURED",
	    [CMP_ONLY_BASE] = "MISSING in new",
	    [CMP_ONLY_NEW] = "only in new",
	};
	return (unsigned)v < sizeof(names) / sizeof(names[0]) ? names[v] : "?";
}

/* ---- Mann-Whitney U ------------------------------------------------------------------------ */

struct ranked {
	int64_t v;
	int from_a;
};

static int cmp_ranked(const void *x, const void *y)
{
	const struct ranked *p = x, *q = y;
	return (p->v > q->v) - (p->v < q->v);
}

/* Number of orderings of m a's and n b's whose U (count of (a, b) pairs with a > b) is u,
 * by the recurrence of Mann and Whitney (1947), eq. (1): f(m,n,u) = f(m-1,n,u-n) + f(m,n-1,u).
 * memo holds (m+1) x (n+1) x (M*N+1) entries, -1 for "not yet computed". */
struct u_memo {
	double *v;
	int n, un;
};

static double u_count(int m, int n, int u, struct u_memo *mm)
{
	double *slot;

	if (u < 0 || u > m * n)
		return 0;
	if (m == 0 || n == 0)
		return u == 0;
	slot = &mm->v[((size_t)m * (size_t)(mm->n + 1) + (size_t)n) * (size_t)mm->un + (size_t)u];
	if (*slot < 0)
		*slot = u_count(m - 1, n, u - n, mm) + u_count(m, n - 1, u, mm);
	return *slot;
}

/* Two-sided exact p: twice the upper tail at the larger U, capped at 1 (scipy's _mwu_exact). */
static double exact_p(int m, int n, double u_max)
{
	struct u_memo mm = {NULL, n, m * n + 1};
	size_t cells = (size_t)(m + 1) * (size_t)(n + 1) * (size_t)mm.un;
	double total = 0, tail = 0;

	mm.v = malloc(cells * sizeof(*mm.v));
	if (!mm.v)
		return 1.0;
	for (size_t i = 0; i < cells; i++)
		mm.v[i] = -1;
	for (int u = 0; u <= m * n; u++) {
		double c = u_count(m, n, u, &mm);
		total += c;
		if (u >= u_max)
			tail += c;
	}
	free(mm.v);
	return fmin(1.0, 2.0 * tail / total);
}

double compare_mann_whitney_p(const int64_t *a, size_t na, const int64_t *b, size_t nb)
{
	size_t n = na + nb, i = 0;
	struct ranked *all;
	double r_a = 0, ties = 0, u1, u2, u_max, mu, sigma, z;

	if (!na || !nb)
		return 1.0;
	all = malloc(n * sizeof(*all));
	if (!all)
		return 1.0; /* cannot test: "not significant" never invents a regression */
	for (size_t k = 0; k < na; k++)
		all[k] = (struct ranked){a[k], 1};
	for (size_t k = 0; k < nb; k++)
		all[na + k] = (struct ranked){b[k], 0};
	qsort(all, n, sizeof(*all), cmp_ranked);
	while (i < n) {
		size_t j = i;
		double rank;
		while (j < n && all[j].v == all[i].v)
			j++;
		rank = (double)(i + 1 + j) / 2.0; /* average of ranks i+1 .. j */
		for (size_t k = i; k < j; k++)
			r_a += all[k].from_a ? rank : 0;
		ties += pow((double)(j - i), 3) - (double)(j - i);
		i = j;
	}
	free(all);
	u1 = r_a - (double)na * (double)(na + 1) / 2.0;
	u2 = (double)na * (double)nb - u1;
	u_max = fmax(u1, u2);
	if (ties == 0 && (na <= UTEST_EXACT_MAX || nb <= UTEST_EXACT_MAX) && na <= UTEST_EXACT_OTHER_MAX &&
	    nb <= UTEST_EXACT_OTHER_MAX)
		return exact_p((int)na, (int)nb, u_max);
	mu = (double)na * (double)nb / 2.0;
	sigma = sqrt((double)na * (double)nb / 12.0 * (((double)n + 1) - ties / ((double)n * ((double)n - 1))));
	if (sigma == 0)
		return 1.0; /* every value equal: no evidence of a difference */
	z = (u_max - mu - 0.5) / sigma;
	return fmin(1.0, erfc(z / sqrt(2.0)));
}

/* ---- the table ----------------------------------------------------------------------------- */

#define COLS 7

static void row_cells(const struct compare_row *row, char cells[COLS][160])
{
	const struct bench_result *any = row->base ? row->base : row->cur;
	bool both = row->verdict == CMP_SAME || row->verdict == CMP_IMPROVED || row->verdict == CMP_REGRESSED;

	results_label(any, cells[0], 160);
	str_fmt_cut(cells[1], 160, "%s", row->base && row->base->stats.n ? "" : "-");
	str_fmt_cut(cells[2], 160, "%s", row->cur && row->cur->stats.n ? "" : "-");
	if (row->base && row->base->stats.n)
		str_fmt_cut(cells[1], 160, "%.1f", row->base->stats.median);
	if (row->cur && row->cur->stats.n)
		str_fmt_cut(cells[2], 160, "%.1f", row->cur->stats.median);
	str_fmt_cut(cells[3], 160, "%s", "");
	str_fmt_cut(cells[4], 160, "%s", "");
	if (both) {
		str_fmt_cut(cells[3], 160, "%+.1f", row->change);
		if (row->base_median != 0)
			str_fmt_cut(cells[4], 160, "%+.2f%%", row->ratio * 100.0);
	}
	if (row->tested)
		str_fmt_cut(cells[5], 160, "%.4f", row->p_value);
	else
		str_fmt_cut(cells[5], 160, "%s", "");
	str_fmt_cut(cells[6], 160, "%s", compare_verdict_name(row->verdict));
}

/* Names left-aligned, numbers right-aligned, two spaces between columns, no trailing blanks. */
static void print_row(FILE *out, const size_t w[COLS], const char *const cells[COLS])
{
	for (int c = 0; c < COLS - 1; c++)
		fprintf(out, c == 0 ? "%-*s  " : "%*s  ", (int)w[c], cells[c]);
	fprintf(out, "%s\n", cells[COLS - 1]);
}

int compare_print(FILE *out, const struct compare_result *r, const struct compare_opts *o, struct bench_error *err)
{
	static const char *const head[COLS] = {"result", "base", "new", "change", "change %", "p (U test)", "verdict"};
	char cells[COLS][160];
	size_t w[COLS];

	for (int c = 0; c < COLS; c++)
		w[c] = strlen(head[c]);
	for (size_t i = 0; i < r->n; i++) {
		row_cells(&r->rows[i], cells);
		for (int c = 0; c < COLS; c++)
			w[c] = strlen(cells[c]) > w[c] ? strlen(cells[c]) : w[c];
	}
	print_row(out, w, head);
	for (size_t i = 0; i < r->n; i++) {
		const char *p[COLS];
		row_cells(&r->rows[i], cells);
		for (int c = 0; c < COLS; c++)
			p[c] = cells[c];
		print_row(out, w, p);
	}
	/* A result missing from NEW or with nothing that counts fails the gate too, but is no slowdown
	 * beyond the threshold: each kind is counted apart. */
	size_t missing = 0, unmeasured = 0, beyond;
	for (size_t i = 0; i < r->n; i++) {
		missing += r->rows[i].verdict == CMP_ONLY_BASE;
		unmeasured += r->rows[i].verdict == CMP_UNMEASURED;
	}
	beyond = r->regressions - missing - unmeasured;
	fprintf(out, "%zu result%s compared, %zu regression%s beyond %.2f%% (of the base median)", r->n,
	        r->n == 1 ? "" : "s", beyond, beyond == 1 ? "" : "s", o->threshold * 100.0);
	if (missing)
		fprintf(out, ", %zu missing from new", missing);
	if (unmeasured)
		fprintf(out, ", %zu with no sample that counts in new", unmeasured);
	fputc('\n', out);
	if (ferror(out))
		return bench_fail(err, BENCH_E_IO, "writing the comparison failed");
	return 0;
}
