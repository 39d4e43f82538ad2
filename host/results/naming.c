/* How every format names a result and its inputs: one label per result, so console, CSV, JUnit,
 * BMF, GitHub, HTML, SVG and `bench compare` agree (results.h). */
#include <stdio.h>
#include <string.h>

#include "base/str.h"
#include "results/results.h"

static void args_join(const struct bench_result *res, char *buf, size_t cap, char sep)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < res->n_args && used < cap; i++) {
		int n = snprintf(buf + used, cap - used, "%s%s=%lld", i ? (sep == ',' ? "," : ";") : "",
		                 res->args[i].name, (long long)res->args[i].value);
		if (n < 0)
			break;
		used += (size_t)n;
	}
}

void results_label(const struct bench_result *res, char *buf, size_t cap)
{
	char args[512];

	if (!res->n_args) {
		str_fmt_cut(buf, cap, "%s", res->name);
		return;
	}
	args_join(res, args, sizeof(args), ',');
	str_fmt_cut(buf, cap, "%s[%s]", res->name, args); /* callers' 600 bytes hold 64 + 512 + 3 */
}

void results_args(const struct bench_result *res, char *buf, size_t cap)
{
	args_join(res, buf, cap, ';');
}

const char *results_basename(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

double results_cycles_to_ns(const struct bench_report *rep, double cycles)
{
	if (!rep->context.core_clock_hz)
		return -1.0;
	return cycles * 1e9 / (double)rep->context.core_clock_hz;
}
