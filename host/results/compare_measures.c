/* Stack and code size in `bench compare` (results/compare_measures.h). */
#include "results/compare_measures.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static const char *const names[CMP_MEASURES] = {"stack", "code"};

const char *compare_measure_name(enum compare_measure m)
{
	return names[m];
}

void compare_measure_opts_init(struct compare_measure_opts *o)
{
	memset(o, 0, sizeof(*o));
}

/* The measure's figure for RES; false when it has none (not measured, or every sample an overflow). */
static bool value(const struct bench_result *res, enum compare_measure m, uint64_t *v)
{
	if (m == CMP_MEASURE_STACK) {
		*v = res->stack.max;
		return res->stack.n_depths > 0;
	}
	*v = res->code.bytes;
	return res->code.method[0] != '\0';
}

static bool has(const struct bench_result *res, enum compare_measure m)
{
	return m == CMP_MEASURE_STACK ? res->stack.n > 0 : res->code.method[0] != '\0';
}

int compare_measures(const struct bench_report *base, const struct bench_report *cur,
                     const struct compare_measure_opts *o, struct compare_measure_result *out, struct bench_error *err)
{
	memset(out, 0, sizeof(*out));
	out->rows = calloc(base->n_results * CMP_MEASURES + 1, sizeof(*out->rows));
	if (!out->rows)
		return bench_fail(err, BENCH_E_NOMEM, "out of memory comparing reports");
	for (size_t i = 0; i < base->n_results; i++) {
		const struct bench_result *b = &base->results[i];
		const struct bench_result *c = results_find(cur, b->name, b->args, b->n_args);
		for (int m = 0; c && m < CMP_MEASURES; m++) {
			struct compare_measure_row *r = &out->rows[out->n];
			if (!has(b, (enum compare_measure)m))
				continue; /* BASE did not measure it: nothing to hold NEW to */
			r->base = b;
			r->cur = c;
			r->measure = (enum compare_measure)m;
			r->base_known = value(b, r->measure, &r->base_value);
			r->cur_known = value(c, r->measure, &r->cur_value);
			/* Lost (no figure in NEW where BASE had one) or above BASE by more than the threshold. */
			r->regressed =
			    (r->base_known && !r->cur_known) ||
			    (r->base_known && (double)r->cur_value > (double)r->base_value * (1.0 + o->threshold[m]));
			out->regressions += r->regressed;
			out->n++;
		}
	}
	return 0;
}

int compare_measures_print(FILE *out, const struct compare_measure_result *r, const struct compare_measure_opts *o)
{
	int bad = 0;

	if (!r->n)
		return 0;
	bad |= fprintf(out, "\n%-32s %-6s %10s %10s %10s  %s\n", "result", "bytes", "base", "new", "change",
	               "verdict") < 0;
	for (size_t i = 0; i < r->n; i++) {
		const struct compare_measure_row *w = &r->rows[i];
		char label[600], b[24], c[24], d[24];
		results_label(w->base, label, sizeof(label));
		(void)snprintf(b, sizeof(b), w->base_known ? "%" PRIu64 : "-", w->base_value);
		(void)snprintf(c, sizeof(c), w->cur_known ? "%" PRIu64 : "-", w->cur_value);
		(void)snprintf(d, sizeof(d), w->base_known && w->cur_known ? "%+" PRId64 : "-",
		               (int64_t)(w->cur_value - w->base_value));
		bad |= fprintf(out, "%-32s %-6s %10s %10s %10s  %s\n", label, names[w->measure], b, c, d,
		               w->regressed ? (w->cur_known ? "REGRESSED" : "LOST") : "ok") < 0;
	}
	bad |= fprintf(out, "stack and code: a rise above %g%% (stack) or %g%% (code) is a regression\n",
	               o->threshold[CMP_MEASURE_STACK] * 100.0, o->threshold[CMP_MEASURE_CODE] * 100.0) < 0;
	return bad ? -1 : 0;
}

void compare_measures_free(struct compare_measure_result *r)
{
	free(r->rows);
	memset(r, 0, sizeof(*r));
}
