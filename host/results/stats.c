/* Statistics of one result's samples: n, min, max, mean, median, sample standard deviation (n-1,
 * as Google Benchmark's "stddev" aggregate). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "results/results.h"

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/* Median on a sorted copy; for a large n without memory, falls back to the mean (never happens
 * for the sizes a run keeps, but the function must not fail). */
static double median_of(const int64_t *samples, size_t n, double fallback)
{
	int64_t *tmp = malloc(n * sizeof(*tmp));
	double m;
	size_t mid;

	if (!tmp)
		return fallback;
	memcpy(tmp, samples, n * sizeof(*tmp));
	qsort(tmp, n, sizeof(*tmp), cmp_i64);
	mid = n / 2; /* the upper middle: an index, so integer division is meant */
	if (n % 2)
		m = (double)tmp[mid];
	else
		m = ((double)tmp[mid - 1] + (double)tmp[mid]) / 2.0;
	free(tmp);
	return m;
}

void stats_compute(const int64_t *samples, size_t n, struct bench_stats *out)
{
	int64_t sum = 0;
	double mean, m2 = 0.0;

	memset(out, 0, sizeof(*out));
	out->n = n;
	if (n == 0)
		return;
	out->min = out->max = (double)samples[0];
	/* Samples are cycle counts below 2^33: their integer sum is exact for any n a run can hold. */
	for (size_t i = 0; i < n; i++) {
		double x = (double)samples[i];
		sum += samples[i];
		if (x < out->min)
			out->min = x;
		if (x > out->max)
			out->max = x;
	}
	mean = (double)sum / (double)n;
	/* Two passes: the squared deviations from the exact mean, no cancellation near 2^32. */
	for (size_t i = 0; i < n; i++) {
		double d = (double)samples[i] - mean;
		m2 += d * d;
	}
	out->mean = mean;
	out->stddev = n > 1 ? sqrt(m2 / (double)(n - 1)) : 0.0;
	out->median = median_of(samples, n, mean);
}
