/* Stack depth beside the cycles (bench run --stack, issue 24): per-sample figures and their
 * summary. A figure flagged overflow is no depth and stays out of min/max (docs/run.md). */
#include <stdlib.h>

#include "results/results.h"

int results_stack_add(struct bench_result *res, uint32_t bytes, uint8_t flags)
{
	struct bench_stack *s = &res->stack;

	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 16;
		uint32_t *b = realloc(s->bytes, cap * sizeof(*b));
		uint8_t *f;
		if (!b)
			return -1;
		s->bytes = b;
		f = realloc(s->flags, cap * sizeof(*f));
		if (!f)
			return -1;
		s->flags = f;
		s->cap = cap;
	}
	s->bytes[s->n] = flags & BENCH_STACK_OVERFLOW ? 0 : bytes;
	s->flags[s->n] = flags;
	s->n++;
	results_stack_stats(res);
	return 0;
}

void results_stack_stats(struct bench_result *res)
{
	struct bench_stack *s = &res->stack;

	s->n_depths = s->n_overflow = s->n_exception = 0;
	s->min = s->max = 0;
	for (size_t i = 0; i < s->n; i++) {
		if (s->flags[i] & BENCH_STACK_EXCEPTION)
			s->n_exception++;
		if (s->flags[i] & BENCH_STACK_OVERFLOW) {
			s->n_overflow++;
			continue;
		}
		if (!s->n_depths || s->bytes[i] < s->min)
			s->min = s->bytes[i];
		if (!s->n_depths || s->bytes[i] > s->max)
			s->max = s->bytes[i];
		s->n_depths++;
	}
}

void results_stack_free(struct bench_result *res)
{
	free(res->stack.bytes);
	free(res->stack.flags);
	res->stack.bytes = NULL;
	res->stack.flags = NULL;
	res->stack.n = res->stack.cap = 0;
}

size_t results_stack_overflows(const struct bench_report *rep)
{
	size_t n = 0;

	for (size_t i = 0; i < rep->n_results; i++)
		n += rep->results[i].stack.n_overflow;
	return n;
}
