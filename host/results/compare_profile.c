/* Profiles side by side (compare_profile.h). */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/str.h"
#include "results/compare.h"
#include "results/compare_profile.h"

/* Whole cycles without a decimal, a mean with one. */
static int prec(double v)
{
	return v == floor(v) ? 0 : 1;
}

static struct profile_delta *row_of(struct profile_diff *d, const char *name)
{
	for (size_t i = 0; i < d->n; i++)
		if (!strcmp(d->rows[i].name, name))
			return &d->rows[i];
	return NULL;
}

static int cmp_delta(const void *x, const void *y)
{
	const struct profile_delta *a = x, *b = y;
	double da = fabs(a->b - a->a), db = fabs(b->b - b->a);
	if (da != db)
		return da < db ? 1 : -1;
	return strcmp(a->name, b->name);
}

static bool same_reasons(const struct bench_profile *a, const struct bench_profile *b)
{
	if (!a->exact || !b->exact || a->n_reasons != b->n_reasons || a->n_reasons > PROFILE_DIFF_REASONS)
		return false;
	for (size_t r = 0; r < a->n_reasons; r++)
		if (strcmp(a->reasons[r], b->reasons[r]))
			return false;
	return true;
}

int profile_diff(const struct bench_profile *a, const struct bench_profile *b, struct profile_diff *out)
{
	size_t cap = a->n_functions + b->n_functions;

	memset(out, 0, sizeof(*out));
	out->a = a;
	out->b = b;
	out->reasons = same_reasons(a, b);
	out->rows = calloc(cap ? cap : 1, sizeof(*out->rows));
	if (!out->rows)
		return -1;
	for (int side = 0; side < 2; side++) {
		const struct bench_profile *p = side ? b : a;
		for (size_t i = 0; i < p->n_functions; i++) {
			const struct bench_profile_fn *f = &p->functions[i];
			struct profile_delta *r = row_of(out, f->name);
			double k = p->exact && p->summed && p->stretches > 1 ? 1.0 / (double)p->stretches : 1.0;
			double incl = p->exact ? k * (double)f->incl : f->cycles;
			if (!r) {
				r = &out->rows[out->n++];
				str_fmt_cut(r->name, sizeof(r->name), "%s", f->name);
			}
			*(side ? &r->b : &r->a) = k * f->cycles;
			*(side ? &r->b_incl : &r->a_incl) = incl;
			*(side ? &r->in_b : &r->in_a) = true;
			for (size_t q = 0; out->reasons && f->by_reason && q < p->n_reasons; q++)
				r->by_reason[q] += (side ? k : -k) * (double)f->by_reason[q];
		}
	}
	qsort(out->rows, out->n, sizeof(*out->rows), cmp_delta);
	return 0;
}

void profile_diff_free(struct profile_diff *d)
{
	free(d->rows);
	memset(d, 0, sizeof(*d));
}

static bool same_args(const struct bench_profile *p, const struct bench_arg *args, size_t n_args)
{
	if (p->n_args != n_args)
		return false;
	for (size_t i = 0; i < n_args; i++)
		if (p->args[i].value != args[i].value || strcmp(p->args[i].name, args[i].name))
			return false;
	return true;
}

const struct bench_profile *profile_find(const struct bench_report *rep, const char *name, const struct bench_arg *args,
                                         size_t n_args)
{
	for (size_t i = 0; i < rep->n_profiles; i++) {
		const struct bench_profile *p = &rep->profiles[i];
		if (!strcmp(p->name, name) && (!p->exact || same_args(p, args, n_args)))
			return p;
	}
	return NULL;
}

/* "block_taken +12, flash_fetch +5": the reasons that changed most. */
static void reasons_text(const struct profile_diff *d, const struct profile_delta *r, char *out, size_t len)
{
	bool used[PROFILE_DIFF_REASONS] = {false};

	out[0] = '\0';
	for (int k = 0; d->reasons && k < 3; k++) {
		size_t best = SIZE_MAX;
		for (size_t i = 0; i < d->a->n_reasons; i++)
			if (!used[i] && r->by_reason[i] &&
			    (best == SIZE_MAX || fabs(r->by_reason[i]) > fabs(r->by_reason[best])))
				best = i;
		if (best == SIZE_MAX)
			break;
		used[best] = true;
		(void)str_append(out, len, "%s%s %+.*f", out[0] ? ", " : "", d->a->reasons[best],
		                 prec(r->by_reason[best]), r->by_reason[best]);
	}
}

static double per_stretch(const struct bench_profile *p)
{
	if (!p->exact)
		return p->cycles;
	return p->summed && p->stretches > 1 ? (double)p->total / (double)p->stretches : (double)p->total;
}

static void cell(char *out, size_t len, bool present, double v)
{
	if (present)
		str_fmt_cut(out, len, "%.*f", prec(v), v);
	else
		str_fmt_cut(out, len, "-");
}

int profile_diff_print(FILE *out, const struct profile_diff *d, const char *title, size_t top)
{
	double ta = per_stretch(d->a), tb = per_stretch(d->b);
	size_t shown = 0;

	if (fprintf(out, "\n%s: %+.*f cycles (%.*f -> %.*f)\n", title, prec(tb - ta), tb - ta, prec(ta), ta, prec(tb),
	            tb) < 0 ||
	    fprintf(out, "  %-28s %10s %10s %10s %10s  %s\n", "function", "A", "B", "B - A", "incl B - A",
	            d->reasons ? "reasons that changed (cycles)" : "") < 0)
		return -1;
	for (size_t i = 0; i < d->n && shown < top; i++) {
		const struct profile_delta *r = &d->rows[i];
		char a[24], b[24], why[160];
		if (r->a == r->b && r->a_incl == r->b_incl)
			continue;
		cell(a, sizeof(a), r->in_a, r->a);
		cell(b, sizeof(b), r->in_b, r->b);
		reasons_text(d, r, why, sizeof(why));
		if (fprintf(out, "  %-28s %10s %10s %+10.*f %+10.*f  %s\n", r->name, a, b, prec(r->b - r->a),
		            r->b - r->a, prec(r->b_incl - r->a_incl), r->b_incl - r->a_incl, why) < 0)
			return -1;
		shown++;
	}
	if (!shown && fprintf(out, "  (no function changed)\n") < 0)
		return -1;
	return 0;
}

int compare_print_profiles(FILE *out, const struct bench_report *base, const struct bench_report *cur,
                           const struct compare_result *r)
{
	for (size_t i = 0; i < r->n; i++) {
		const struct compare_row *row = &r->rows[i];
		const struct bench_profile *a, *b;
		struct profile_diff d;
		char label[BENCH_NAME_MAX * 4], title[BENCH_NAME_MAX * 5];
		int bad;

		if (!row->base || !row->cur)
			continue;
		a = profile_find(base, row->base->name, row->base->args, row->base->n_args);
		b = profile_find(cur, row->cur->name, row->cur->args, row->cur->n_args);
		if (!a || !b)
			continue;
		if (profile_diff(a, b, &d))
			return -1;
		results_label(row->cur, label, sizeof(label));
		str_fmt_cut(title, sizeof(title), "profile %s: NEW (B) against BASE (A)%s", label,
		            a->exact != b->exact ? ", one exact and one sampled" : "");
		bad = profile_diff_print(out, &d, title, 10);
		profile_diff_free(&d);
		if (bad)
			return -1;
	}
	return 0;
}
