/* The stack and code tables of the console report (report/console_measures.h): one row per result with
 * stack figures, min and max bytes below SP at BEGIN, and what the figures hold (exception frames)
 * or are not (a possible overflow is no depth). */
#include "report/console_measures.h"

#include <inttypes.h>
#include <string.h>

static bool any_stack(const struct bench_report *rep)
{
	for (size_t i = 0; i < rep->n_results; i++)
		if (rep->results[i].stack.n)
			return true;
	return false;
}

static int row(FILE *out, const struct bench_result *r)
{
	const struct bench_stack *s = &r->stack;
	char label[600];
	int bad = 0;

	results_label(r, label, sizeof(label));
	if (s->n_depths)
		bad |= fprintf(out, "%-32s %6zu %8" PRIu32 " %8" PRIu32, label, s->n, s->min, s->max) < 0;
	else
		bad |= fprintf(out, "%-32s %6zu %8s %8s", label, s->n, "-", "-") < 0;
	if (s->n_overflow)
		bad |= fprintf(out, "  %zu reached the limit: possible overflow, no depth", s->n_overflow) < 0;
	if (s->n_exception)
		bad |= fprintf(out, "  %zu with an exception frame", s->n_exception) < 0;
	return bad || fputc('\n', out) == EOF ? -1 : 0;
}

static bool any_code(const struct bench_report *rep)
{
	for (size_t i = 0; i < rep->n_results; i++)
		if (rep->results[i].code.method[0])
			return true;
	return false;
}

/* "code: bytes of the functions ..." with one row a result: bytes, functions, by section. */
static int code_table(FILE *out, const struct bench_report *rep)
{
	const struct bench_context *c = &rep->context;
	int bad = 0;

	if (c->image_known)
		bad |=
		    fprintf(out, "\nimage (as `size` prints it): text %" PRIu64 ", data %" PRIu64 ", bss %" PRIu64 "\n",
		            c->image_text, c->image_data, c->image_bss) < 0;
	if (!any_code(rep))
		return bad ? -1 : 0;
	bad |= fprintf(out, "code: bytes of the functions each stretch runs\n%-32s %8s %9s %8s  %s\n", "result",
	               "bytes", "functions", "method", "by section") < 0;
	for (size_t i = 0; i < rep->n_results; i++) {
		const struct bench_code *k = &rep->results[i].code;
		char label[600];
		if (!k->method[0])
			continue;
		results_label(&rep->results[i], label, sizeof(label));
		bad |= fprintf(out, "%-32s %8" PRIu64 " %9zu %8s ", label, k->bytes, k->n_functions, k->method) < 0;
		for (size_t j = 0; j < k->n_sections; j++)
			bad |= fprintf(out, " %s %" PRIu64, k->sections[j].name, k->sections[j].bytes) < 0;
		if (k->unknown_calls)
			bad |= fprintf(out, "  %zu calls through pointers not counted", k->unknown_calls) < 0;
		bad |= fputc('\n', out) == EOF;
	}
	return bad ? -1 : 0;
}

int console_measures(FILE *out, const struct bench_report *rep)
{
	const struct bench_context *c = &rep->context;
	int bad = 0;

	if (code_table(out, rep) < 0)
		return -1;
	if (!any_stack(rep))
		return 0;
	bad |= fprintf(out, "\nstack: bytes used below SP at BEGIN, %s, limit 0x%08" PRIx32 " (%s)\n",
	               strcmp(c->stack_method, "exact") ? "painted and scanned over the probe"
	                                                : "the virtual board's lowest MSP/PSP",
	               c->stack_limit, c->stack_limit_from[0] ? c->stack_limit_from : "?") < 0;
	bad |= fprintf(out, "%-32s %6s %8s %8s\n", "result", "n", "min", "max") < 0;
	for (size_t i = 0; i < rep->n_results; i++)
		if (rep->results[i].stack.n)
			bad |= row(out, &rep->results[i]) < 0;
	return bad ? -1 : 0;
}
