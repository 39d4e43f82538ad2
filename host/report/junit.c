/* JUnit XML reporter. The layout follows the de-facto schema Jenkins and GitLab read (the Ant
 * JUnit task's testsuites/testsuite/testcase, with <failure> for a broken limit and <error> for a
 * result that could not be measured); one testsuite per report, named after the firmware. */
#include "report/junit.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/str.h"
#include "report/markup.h"

/* Each measure's flag, unit and example, as messages name them. */
static const struct {
	const char *flag, *unit, *example, *type;
} measures[JUNIT_MEASURES] = {
    [JUNIT_CYCLES] = {"--max-cycles", "cycles", "fut=40", "max-cycles"},
    [JUNIT_STACK] = {"--max-stack", "bytes", "fut=256", "max-stack"},
};

const char *junit_measure_flag(enum junit_measure m)
{
	return measures[m].flag;
}

int junit_limit_parse(struct junit_limits *l, const char *arg, struct bench_error *err)
{
	return junit_limit_parse_measure(l, arg, JUNIT_CYCLES, err);
}

int junit_limit_parse_measure(struct junit_limits *l, const char *arg, enum junit_measure measure,
                              struct bench_error *err)
{
	const char *eq = strrchr(arg, '='), *flag = measures[measure].flag;
	char *end;
	long long v;
	size_t len, i;

	if (!eq || eq == arg || !eq[1])
		return bench_fail(err, BENCH_E_USAGE, "%s '%s': expected NAME=N, e.g. %s %s", flag, arg, flag,
		                  measures[measure].example);
	len = (size_t)(eq - arg);
	if (len >= BENCH_NAME_MAX)
		return bench_fail(err, BENCH_E_USAGE, "%s '%s': name longer than %d characters", flag, arg,
		                  BENCH_NAME_MAX - 1);
	errno = 0;
	v = strtoll(eq + 1, &end, 10);
	if (errno || *end || v < 0)
		return bench_fail(err, BENCH_E_USAGE, "%s '%s': N must be a whole number of %s >= 0", flag, arg,
		                  measures[measure].unit);
	for (i = 0; i < l->n; i++)
		if (l->items[i].measure == measure && strlen(l->items[i].name) == len &&
		    !strncmp(l->items[i].name, arg, len))
			break;
	if (i == l->n) {
		if (l->n == JUNIT_MAX_LIMITS)
			return bench_fail(err, BENCH_E_USAGE, "more than %d limits (--max-cycles, --max-stack)",
			                  JUNIT_MAX_LIMITS);
		l->n++;
	}
	memcpy(l->items[i].name, arg, len);
	l->items[i].name[len] = '\0';
	l->items[i].max_cycles = v;
	l->items[i].measure = measure;
	return 0;
}

/* A limit names a result by its marker pair's name; a farm's merged report prefixes it with the
 * board ("sim-a/fut"), and the limit holds on every board. */
static bool limit_names(const char *limit, const char *result)
{
	const char *slash = strrchr(result, '/');

	return !strcmp(limit, result) || (slash && !strcmp(limit, slash + 1));
}

/* One limit against RES: a stack limit needs a depth (a possible overflow, or no --stack, is nothing
 * to check, which fails as no sample does). */
static enum junit_verdict check_one(const struct junit_limit *k, const struct bench_result *res)
{
	if (k->measure == JUNIT_STACK)
		return !res->stack.n_depths                       ? JUNIT_UNMEASURED
		       : res->stack.max > (uint64_t)k->max_cycles ? JUNIT_EXCEEDED
		                                                  : JUNIT_WITHIN;
	if (!res->stats.n)
		return JUNIT_UNMEASURED;
	return res->stats.max > (double)k->max_cycles ? JUNIT_EXCEEDED : JUNIT_WITHIN;
}

/* How bad a verdict is, to keep the worst of several limits. */
static int severity(enum junit_verdict v)
{
	return v == JUNIT_EXCEEDED ? 3 : v == JUNIT_UNMEASURED ? 2 : v == JUNIT_WITHIN ? 1 : 0;
}

enum junit_verdict junit_limit_check_measure(const struct junit_limits *l, const struct bench_result *res,
                                             int64_t *limit, enum junit_measure *measure)
{
	enum junit_verdict worst = JUNIT_NO_LIMIT;

	for (size_t i = 0; l && i < l->n; i++) {
		enum junit_verdict v;
		if (!limit_names(l->items[i].name, res->name))
			continue;
		v = check_one(&l->items[i], res);
		if (severity(v) <= severity(worst))
			continue;
		worst = v;
		if (limit)
			*limit = l->items[i].max_cycles;
		if (measure)
			*measure = l->items[i].measure;
	}
	return worst;
}

enum junit_verdict junit_limit_check(const struct junit_limits *l, const struct bench_result *res, int64_t *limit)
{
	return junit_limit_check_measure(l, res, limit, NULL);
}

bool junit_limit_exceeded(const struct junit_limits *l, const struct bench_result *res, int64_t *limit)
{
	enum junit_verdict v = junit_limit_check(l, res, limit);

	return v == JUNIT_EXCEEDED || v == JUNIT_UNMEASURED;
}

size_t junit_limit_explain(FILE *err, const struct junit_limits *l, const struct bench_report *const *reps,
                           size_t n_reps)
{
	const struct bench_result *empty = NULL;
	size_t above = 0, unmeasured = 0;
	enum junit_measure am = JUNIT_CYCLES, um = JUNIT_CYCLES, m = JUNIT_CYCLES;
	char label[600];

	for (size_t r = 0; r < n_reps; r++)
		for (size_t i = 0; i < reps[r]->n_results; i++) {
			enum junit_verdict v = junit_limit_check_measure(l, &reps[r]->results[i], NULL, &m);
			if (v == JUNIT_EXCEEDED && !above++)
				am = m;
			if (v == JUNIT_UNMEASURED && !unmeasured++) {
				empty = &reps[r]->results[i];
				um = m;
			}
		}
	if (!above && !unmeasured)
		return 0;
	if (!unmeasured) {
		fprintf(err, "bench: %zu result%s above %s\n", above, above == 1 ? "" : "s", measures[am].flag);
		return above;
	}
	results_label(empty, label, sizeof(label));
	if (above)
		fprintf(err, "bench: %zu result%s above %s and ", above, above == 1 ? "" : "s", measures[am].flag);
	else
		fputs("bench: ", err);
	fprintf(err, "%zu result%s with no sample to check against %s (%s: %s)\n", unmeasured,
	        unmeasured == 1 ? "" : "s", measures[um].flag, label,
	        um == JUNIT_STACK ? "no stack depth: every sample a possible overflow, or no --stack"
	        : empty->error[0] ? empty->error
	                          : "no sample measured");
	return above + unmeasured;
}

size_t junit_limit_failures(const struct junit_limits *l, const struct bench_report *rep)
{
	size_t n = 0;
	for (size_t i = 0; i < rep->n_results; i++)
		n += junit_limit_exceeded(l, &rep->results[i], NULL);
	return n;
}

const char *junit_limit_unmatched(const struct junit_limits *l, const struct bench_report *const *reps, size_t n_reps)
{
	for (size_t i = 0; l && i < l->n; i++) {
		bool found = false;
		for (size_t r = 0; r < n_reps && !found; r++)
			for (size_t k = 0; k < reps[r]->n_results && !found; k++)
				found = limit_names(l->items[i].name, reps[r]->results[k].name);
		if (!found)
			return l->items[i].name;
	}
	return NULL;
}

static enum junit_measure limit_measure(const struct junit_limits *l, const char *name)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->items[i].name == name)
			return l->items[i].measure;
	return JUNIT_CYCLES;
}

int junit_limit_exit(const struct junit_limits *l, const struct bench_report *rep, int code)
{
	const char *unmatched;
	size_t n;

	if (code)
		return code;
	/* A limit on a misspelt name would never fail: a CI gate that cannot fire. */
	if ((unmatched = junit_limit_unmatched(l, &rep, 1))) {
		fprintf(stderr, "bench: %s %s: no result is named %s: check the name (bench lists its results)\n",
		        measures[limit_measure(l, unmatched)].flag, unmatched, unmatched);
		return bench_exit_code(BENCH_E_USAGE);
	}
	n = junit_limit_explain(stderr, l, &rep, 1);
	return n ? 1 : 0;
}

/* A run that stopped early gets one extra test case carrying its error, so CI shows it red. */
static bool run_failed(const struct bench_report *rep)
{
	return rep->status != BENCH_STATUS_OK;
}

static int prop(FILE *out, const char *name, const char *value)
{
	if (fprintf(out, "      <property name=\"%s\" value=\"", name) < 0 || markup_xml_puts(out, value) < 0 ||
	    fputs("\"/>\n", out) == EOF)
		return -1;
	return 0;
}

static int junit_begin(const struct reporter_ctx *ctx, FILE *out, const struct bench_report *rep,
                       struct bench_error *err)
{
	const char *fw = results_basename(rep->context.firmware);
	size_t errors = run_failed(rep), failures = junit_limit_failures(ctx->limits, rep);
	size_t tests = rep->n_results + errors;
	char clock[32];
	int bad = 0;

	/* A result with no sample that counts is an error case unless a limit already fails it. */
	for (size_t i = 0; i < rep->n_results; i++)
		errors += !rep->results[i].stats.n &&
		          junit_limit_check(ctx->limits, &rep->results[i], NULL) == JUNIT_NO_LIMIT;
	str_fmt_cut(clock, sizeof(clock), "%" PRIu64, rep->context.core_clock_hz);
	bad |= fprintf(out,
	               "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"bench\" tests=\"%zu\" "
	               "failures=\"%zu\" errors=\"%zu\">\n  <testsuite name=\"",
	               tests, failures, errors) < 0;
	bad |= markup_xml_puts(out, fw) < 0;
	bad |= fprintf(out, "\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" skipped=\"0\" timestamp=\"", tests,
	               failures, errors) < 0;
	bad |= markup_xml_puts(out, rep->context.date) < 0 || fputs("\">\n    <properties>\n", out) == EOF;
	bad |=
	    prop(out, "firmware", rep->context.firmware) || prop(out, "firmware_sha256", rep->context.firmware_sha256);
	bad |= prop(out, "board", rep->context.board) || prop(out, "probe", rep->context.probe);
	bad |= prop(out, "counter", rep->context.counter) || prop(out, "core_clock_hz", clock);
	bad |= prop(out, "cycles_modelled", rep->context.cycles_modelled ? "true" : "false");
	bad |= fputs("    </properties>\n", out) == EOF;
	if (bad)
		return bench_fail(err, BENCH_E_IO, "writing JUnit XML failed");
	return 0;
}

static int junit_result(const struct reporter_ctx *ctx, FILE *out, const struct bench_report *rep,
                        const struct bench_result *res, struct bench_error *err)
{
	const struct bench_stats *s = &res->stats;
	char label[600];
	/* only cycles become time: an instruction count (--icount) is no duration (time 0, as unknown) */
	double ns = strcmp(res->unit, "cycles") ? -1.0 : results_cycles_to_ns(rep, s->mean);
	int64_t limit = 0;
	enum junit_measure m = JUNIT_CYCLES;
	int bad = 0;

	results_label(res, label, sizeof(label));
	bad |= fputs("    <testcase classname=\"", out) == EOF;
	bad |= markup_xml_puts(out, results_basename(rep->context.firmware)) < 0 || fputs("\" name=\"", out) == EOF;
	bad |= markup_xml_puts(out, label) < 0;
	/* JUnit's time is seconds; one execution of the code under test (the mean), when the clock is known. */
	bad |= fprintf(out, "\" time=\"%.9f\">\n", ns >= 0 && s->n ? ns / 1e9 : 0.0) < 0;
	switch (junit_limit_check_measure(ctx->limits, res, &limit, &m)) {
	case JUNIT_EXCEEDED:
		bad |= fprintf(out, "      <failure type=\"%s\" message=\"max %.0f %s &gt; limit %lld\"/>\n",
		               measures[m].type, m == JUNIT_STACK ? (double)res->stack.max : s->max,
		               m == JUNIT_STACK ? "bytes of stack" : res->unit, (long long)limit) < 0;
		break;
	case JUNIT_UNMEASURED: /* nothing to check is no pass */
		bad |= fprintf(out, "      <failure type=\"%s\" message=\"no sample to check against limit %lld: ",
		               measures[m].type, (long long)limit) < 0;
		bad |= markup_xml_puts(out, m == JUNIT_STACK ? "no stack depth (a possible overflow, or no --stack)"
		                            : res->error[0]  ? res->error
		                                             : "no sample measured") < 0 ||
		       fputs("\"/>\n", out) == EOF;
		break;
	case JUNIT_NO_LIMIT:
	case JUNIT_WITHIN:
		if (!s->n)
			bad |= fputs("      <error type=\"measurement\" message=\"", out) == EOF ||
			       markup_xml_puts(out, res->error[0] ? res->error : "no sample measured") < 0 ||
			       fputs("\"/>\n", out) == EOF;
		break;
	}
	if (s->n)
		bad |=
		    fprintf(
		        out,
		        "      <system-out>n=%zu min=%.0f max=%.0f mean=%.3f median=%.3f stddev=%.3f %s</system-out>\n",
		        s->n, s->min, s->max, s->mean, s->median, s->stddev, res->unit) < 0;
	bad |= fputs("    </testcase>\n", out) == EOF;
	if (bad)
		return bench_fail(err, BENCH_E_IO, "writing JUnit XML failed");
	return 0;
}

static int junit_end(const struct reporter_ctx *ctx, FILE *out, const struct bench_report *rep, struct bench_error *err)
{
	int bad = 0;

	if (run_failed(rep)) {
		bad |= fputs("    <testcase classname=\"bench\" name=\"run\" time=\"0\">\n      <error type=\"", out) ==
		       EOF;
		bad |= markup_xml_puts(out, rep->status_detail[0] ? rep->status_detail : "error") < 0;
		bad |= fputs("\" message=\"", out) == EOF || markup_xml_puts(out, rep->error) < 0;
		bad |= fputs("\"/>\n    </testcase>\n", out) == EOF;
	}
	bad |= fputs("  </testsuite>\n</testsuites>\n", out) == EOF;
	if (bad)
		return bench_fail(err, BENCH_E_IO, "writing JUnit XML failed");
	return 0;
}

const struct reporter_ops junit_reporter = {
    .name = "junit",
    .help = "JUnit XML for Jenkins, GitLab and GitHub test views; --max-cycles fails a case",
    .extension = "xml",
    .begin = junit_begin,
    .result = junit_result,
    .end = junit_end,
};
