/* JSON report reader: cJSON parses, this maps docs/report-schema.md onto struct bench_report.
 * Refuses another schema_version before looking at anything else, so a future report is never
 * half-understood (the rule Google Benchmark's tools/gbench/util.py follows for its JSON too). */
#include "report/json_read.h"
#include "report/json_measures.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/str.h"
#include "report/json_profile.h"

/* Copies a JSON string field into a fixed buffer; absent or null leaves "". -1 when it is longer
 * than the buffer: bench writes every field from a buffer of the same size, so a longer one was not
 * written by this bench, and a cut name could compare equal to another (bench compare). */
static int copy_str(char *dst, size_t cap, const cJSON *obj, const char *key)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);
	dst[0] = '\0';
	if (cJSON_IsString(it) && it->valuestring)
		return str_copy(dst, cap, it->valuestring);
	return 0;
}

static int too_long(struct bench_error *err, const char *what, const char *where, const char *key, size_t cap)
{
	return bench_fail(err, BENCH_E_REPORT, "%s: %s%s is longer than %zu characters: not a report this bench wrote",
	                  what, where, key, cap - 1);
}

static int get_num(const cJSON *obj, const char *key, double *out)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);
	if (!cJSON_IsNumber(it))
		return -1;
	*out = it->valuedouble;
	return 0;
}

/* Samples are integers of at most 2^53 in magnitude in any report we write (cycles of a 32-bit
 * counter), so a double holds them exactly; anything fractional is a broken report. */
static int to_i64(double d, int64_t *out)
{
	if (!isfinite(d) || d != floor(d) || fabs(d) > 9007199254740992.0)
		return -1;
	*out = (int64_t)d;
	return 0;
}

/* A number for an unsigned field of at most max. Converting a double outside the target type's
 * range is undefined behaviour (C11 6.3.1.4), so a report holding 1e300 or -1 there is refused as
 * broken instead. Returns 1 when the key is absent, 0 with *out set, -1 out of range. */
static int get_uint(const cJSON *o, const char *key, double max, uint64_t *out)
{
	double d;

	if (get_num(o, key, &d))
		return 1;
	if (!isfinite(d) || d < 0 || d > max)
		return -1;
	*out = (uint64_t)d;
	return 0;
}

#define U32_MAX_D 4294967295.0
#define U64_MAX_D 18446744073709549568.0 /* the largest double below 2^64 */

static int read_context(const cJSON *ctx, const char *what, struct bench_context *c, struct bench_error *err)
{
	double d;

	if (!cJSON_IsObject(ctx))
		return bench_fail(err, BENCH_E_REPORT, "%s: no \"context\" object: not a bench report", what);
	{
		const struct {
			char *dst;
			size_t cap;
			const char *key;
		} f[] = {
		    {c->tool_version, sizeof(c->tool_version), "tool_version"},
		    {c->firmware, sizeof(c->firmware), "firmware"},
		    {c->firmware_sha256, sizeof(c->firmware_sha256), "firmware_sha256"},
		    {c->board, sizeof(c->board), "board"},
		    {c->probe, sizeof(c->probe), "probe"},
		    {c->backend, sizeof(c->backend), "backend"},
		    {c->transport, sizeof(c->transport), "transport"},
		    {c->server_version, sizeof(c->server_version), "server_version"},
		    {c->counter, sizeof(c->counter), "counter"},
		    {c->date, sizeof(c->date), "date"},
		};
		for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++)
			if (copy_str(f[i].dst, f[i].cap, ctx, f[i].key))
				return too_long(err, what, "context.", f[i].key, f[i].cap);
	}
	c->cycles_modelled = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(ctx, "cycles_modelled"));
	c->mask_irqs = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(ctx, "mask_irqs"));
	c->keep_interrupted = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(ctx, "keep_interrupted"));
	copy_str(c->clock_source, sizeof(c->clock_source), ctx, "clock_source");
	if (get_uint(ctx, "core_clock_hz", U64_MAX_D, &c->core_clock_hz) < 0)
		return bench_fail(err, BENCH_E_REPORT, "%s: context.core_clock_hz is out of range", what);
	if (get_num(ctx, "overhead_cycles", &d) == 0 && to_i64(d, &c->overhead_cycles) < 0)
		return bench_fail(err, BENCH_E_REPORT, "%s: context.overhead_cycles is not an integer", what);
	return json_measures_read_context(ctx, what, c, err);
}

static int read_args(const cJSON *jargs, const char *what, size_t idx, struct bench_arg *args, size_t *n,
                     struct bench_error *err)
{
	const cJSON *a;

	*n = 0;
	if (!jargs || cJSON_IsNull(jargs))
		return 0;
	if (!cJSON_IsObject(jargs))
		return bench_fail(err, BENCH_E_REPORT, "%s: results[%zu].args is not an object", what, idx);
	cJSON_ArrayForEach(a, jargs)
	{
		if (*n >= BENCH_MAX_ARGS)
			return bench_fail(err, BENCH_E_REPORT, "%s: results[%zu] has more than %d args", what, idx,
			                  BENCH_MAX_ARGS);
		if (!cJSON_IsNumber(a) || to_i64(a->valuedouble, &args[*n].value) < 0)
			return bench_fail(err, BENCH_E_REPORT, "%s: results[%zu].args.%s is not an integer", what, idx,
			                  a->string);
		if (strlen(a->string) >= sizeof(args[*n].name))
			return bench_fail(err, BENCH_E_REPORT, "%s: results[%zu].args has a name longer than %zu bytes",
			                  what, idx, sizeof(args[*n].name) - 1);
		memcpy(args[*n].name, a->string, strlen(a->string) + 1); /* the length was checked above */
		(*n)++;
	}
	return 0;
}

static int read_result(const cJSON *jr, const char *what, size_t idx, struct bench_report *rep, struct bench_error *err)
{
	struct bench_arg args[BENCH_MAX_ARGS];
	size_t n_args, i;
	const cJSON *name = cJSON_GetObjectItemCaseSensitive(jr, "name");
	const cJSON *samples = cJSON_GetObjectItemCaseSensitive(jr, "samples");
	const cJSON *wrapped = cJSON_GetObjectItemCaseSensitive(jr, "wrapped");
	const cJSON *s;
	struct bench_result *res;
	int rc;

	if (!cJSON_IsObject(jr) || !cJSON_IsString(name))
		return bench_fail(err, BENCH_E_REPORT, "%s: results[%zu] has no \"name\"", what, idx);
	/* A longer name would be cut to fit and could then merge with another result. */
	if (strlen(name->valuestring) >= BENCH_NAME_MAX)
		return bench_fail(err, BENCH_E_REPORT, "%s: results[%zu].name is longer than %d bytes", what, idx,
		                  BENCH_NAME_MAX - 1);
	rc = read_args(cJSON_GetObjectItemCaseSensitive(jr, "args"), what, idx, args, &n_args, err);
	if (rc < 0)
		return rc;
	/* bench writes one result per name and input; two would be read as one, their samples pooled
	 * into one median that neither run measured (bench compare, the plots). Refused (issue 26). */
	{
		const struct bench_result *dup = results_find(rep, name->valuestring, args, n_args);
		char label[600];
		if (dup) {
			results_label(dup, label, sizeof(label));
			return bench_fail(err, BENCH_E_REPORT,
			                  "%s: results[%zu] is %s again (results[%zu]): one report holds one result "
			                  "per name and input; split the report or rename one",
			                  what, idx, label, (size_t)(dup - rep->results));
		}
	}
	res = results_get(rep, name->valuestring, args, n_args);
	if (!res)
		return bench_fail(err, BENCH_E_NOMEM, "out of memory reading %s", what);
	if (copy_str(res->unit, sizeof(res->unit), jr, "unit"))
		return too_long(err, what, "a result's ", "unit", sizeof(res->unit));
	if (!res->unit[0])
		memcpy(res->unit, "cycles", sizeof("cycles")); /* the default unit (docs/report-schema.md) */
	if (copy_str(res->error, sizeof(res->error), jr, "error"))
		return too_long(err, what, "a result's ", "error", sizeof(res->error));
	if (samples && !cJSON_IsArray(samples))
		return bench_fail(err, BENCH_E_REPORT, "%s: results[%zu].samples is not an array", what, idx);
	i = 0;
	cJSON_ArrayForEach(s, samples)
	{
		int64_t v;
		if (!cJSON_IsNumber(s) || to_i64(s->valuedouble, &v) < 0)
			return bench_fail(err, BENCH_E_REPORT, "%s: results[%zu].samples[%zu] is not an integer", what,
			                  idx, i);
		if (results_add_sample(res, v, 0) < 0)
			return bench_fail(err, BENCH_E_NOMEM, "out of memory reading %s", what);
		i++;
	}
	cJSON_ArrayForEach(s, wrapped)
	{
		int64_t w;
		if (!cJSON_IsNumber(s) || to_i64(s->valuedouble, &w) < 0 || w < 0 || (size_t)w >= res->n_samples)
			return bench_fail(err, BENCH_E_REPORT, "%s: results[%zu].wrapped holds a bad sample index",
			                  what, idx);
		res->sample_flags[w] |= BENCH_SAMPLE_WRAPPED;
	}
	/* The stats are recomputed from the samples rather than trusted: every reader then agrees
	 * with what `bench run` computed (results.c's stats_compute) even for a hand-edited file. */
	cJSON_ArrayForEach(s, cJSON_GetObjectItemCaseSensitive(jr, "interrupted"))
	{
		int64_t w;
		if (!cJSON_IsNumber(s) || to_i64(s->valuedouble, &w) < 0 || w < 0 || (size_t)w >= res->n_samples)
			return bench_fail(err, BENCH_E_REPORT, "%s: results[%zu].interrupted holds a bad sample index",
			                  what, idx);
		res->sample_flags[w] |= BENCH_SAMPLE_INTERRUPTED;
	}
	results_stats(rep, res);
	return json_measures_read_result(jr, what, idx, res, err);
}

static int read_region(const cJSON *jg, const char *what, size_t idx, struct bench_report *rep, struct bench_error *err)
{
	struct bench_region_result *g;
	const cJSON *events, *e;
	double d;

	if (!cJSON_IsObject(jg))
		return bench_fail(err, BENCH_E_REPORT, "%s: regions[%zu] is not an object", what, idx);
	g = results_add_region(rep);
	if (!g)
		return bench_fail(err, BENCH_E_NOMEM, "out of memory reading %s", what);
	if (copy_str(g->name, sizeof(g->name), jg, "name"))
		return too_long(err, what, "a region's ", "name", sizeof(g->name));
	if (copy_str(g->error, sizeof(g->error), jg, "error"))
		return too_long(err, what, "a region's ", "error", sizeof(g->error));
	{
		static const struct {
			const char *key;
			double max;
		} f[] = {{"id", U32_MAX_D},  {"count", U64_MAX_D}, {"total", U64_MAX_D},      {"min", U32_MAX_D},
		         {"max", U32_MAX_D}, {"last", U32_MAX_D},  {"error_flags", U32_MAX_D}};
		uint64_t v[sizeof(f) / sizeof(f[0])] = {0};
		for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++)
			if (get_uint(jg, f[i].key, f[i].max, &v[i]) < 0)
				return bench_fail(err, BENCH_E_REPORT, "%s: regions[%zu].%s is out of range", what, idx,
				                  f[i].key);
		g->id = (uint32_t)v[0];
		g->count = v[1];
		g->total = v[2];
		g->min = (uint32_t)v[3];
		g->max = (uint32_t)v[4];
		g->last = (uint32_t)v[5];
		g->error_flags = (uint32_t)v[6];
	}
	/* A null total: the board had no cycle counter, the cycle statistics were not measured. */
	g->no_cycles = cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(jg, "total"));
	if (get_num(jg, "mean", &d) == 0)
		g->mean = d;
	if (get_num(jg, "ema", &d) == 0)
		g->ema = d;
	g->enabled = !cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(jg, "enabled"));
	events = cJSON_GetObjectItemCaseSensitive(jg, "events");
	cJSON_ArrayForEach(e, events)
	{
		if (g->n_events >= BENCH_MAX_EVENTS || !cJSON_IsNumber(e) || !e->string) /* an array has no keys */
			break;
		if (!isfinite(e->valuedouble) || e->valuedouble < 0 || e->valuedouble > U64_MAX_D)
			return bench_fail(err, BENCH_E_REPORT, "%s: regions[%zu].events.%s is out of range", what, idx,
			                  e->string);
		if (str_copy(g->events[g->n_events].name, sizeof(g->events[0].name), e->string))
			return too_long(err, what, "a region's event name ", e->string, sizeof(g->events[0].name));
		g->events[g->n_events].value = (uint64_t)e->valuedouble;
		g->n_events++;
	}
	return 0;
}

static int read_status(const cJSON *root, const char *what, struct bench_report *rep, struct bench_error *err)
{
	char s[32];

	if (copy_str(s, sizeof(s), root, "status"))
		s[0] = '\0'; /* longer than any of the three */
	if (!strcmp(s, "ok"))
		rep->status = BENCH_STATUS_OK;
	else if (!strcmp(s, "incomplete"))
		rep->status = BENCH_STATUS_INCOMPLETE;
	else if (!strcmp(s, "error"))
		rep->status = BENCH_STATUS_ERROR;
	else
		return bench_fail(err, BENCH_E_REPORT, "%s: \"status\" is not ok, incomplete or error", what);
	if (copy_str(rep->status_detail, sizeof(rep->status_detail), root, "status_detail"))
		return too_long(err, what, "", "status_detail", sizeof(rep->status_detail));
	if (copy_str(rep->error, sizeof(rep->error), root, "error"))
		return too_long(err, what, "", "error", sizeof(rep->error));
	return 0;
}

static int read_root(const cJSON *root, const char *what, struct bench_report *rep, struct bench_error *err)
{
	const cJSON *ver = cJSON_GetObjectItemCaseSensitive(root, "schema_version");
	const cJSON *results, *regions, *it;
	size_t i;
	int rc;

	if (!cJSON_IsObject(root))
		return bench_fail(err, BENCH_E_REPORT, "%s: not a JSON object: not a bench report", what);
	if (!cJSON_IsNumber(ver))
		return bench_fail(err, BENCH_E_REPORT, "%s: no \"schema_version\": not a bench report", what);
	if (ver->valuedouble != BENCH_SCHEMA_VERSION)
		return bench_fail(err, BENCH_E_REPORT,
		                  "%s: report schema_version %g, this bench reads version %d: re-run it with this "
		                  "bench or use the bench that wrote it",
		                  what, ver->valuedouble, BENCH_SCHEMA_VERSION);
	rep->schema_version = BENCH_SCHEMA_VERSION;
	rc = read_status(root, what, rep, err);
	if (rc < 0)
		return rc;
	rc = read_context(cJSON_GetObjectItemCaseSensitive(root, "context"), what, &rep->context, err);
	if (rc < 0)
		return rc;
	results = cJSON_GetObjectItemCaseSensitive(root, "results");
	if (!cJSON_IsArray(results))
		return bench_fail(err, BENCH_E_REPORT, "%s: no \"results\" array: not a bench report", what);
	i = 0;
	cJSON_ArrayForEach(it, results)
	{
		rc = read_result(it, what, i++, rep, err);
		if (rc < 0)
			return rc;
	}
	/* The warnings a run survived (interrupted samples, restarts): `bench report` shows them too. */
	i = 0;
	cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(root, "warnings"))
	{
		if (!cJSON_IsString(it))
			return bench_fail(err, BENCH_E_REPORT, "%s: warnings[%zu] is not a string", what, i);
		if (!results_add_warning(rep, it->valuestring))
			break; /* past BENCH_MAX_WARNINGS: bench wrote no more than that */
		i++;
	}
	regions = cJSON_GetObjectItemCaseSensitive(root, "regions");
	i = 0;
	cJSON_ArrayForEach(it, regions)
	{
		rc = read_region(it, what, i++, rep, err);
		if (rc < 0)
			return rc;
	}
	/* bench run --profile's profiles, for bench compare's per-function deltas. */
	return json_profile_read_all(cJSON_GetObjectItemCaseSensitive(root, "profile"), what, rep, err);
}

/* RFC 8259 section 4 leaves duplicate names' meaning open and cJSON keeps the first: a report
 * with "samples" twice would be read differently by other tools. Refused, for every object. The
 * names of one object are compared pairwise: a report's objects have a dozen keys, not thousands
 * (an object with more, some args table, costs more but stays bounded by cJSON's nesting limit). */
static int check_keys(const cJSON *node, const char *what, int depth, struct bench_error *err)
{
	const cJSON *a, *b;
	int rc;

	if (depth > 64)
		return bench_fail(err, BENCH_E_REPORT, "%s: nested deeper than 64 levels: not a bench report", what);
	for (a = node ? node->child : NULL; a; a = a->next) {
		if (cJSON_IsObject(node) && a->string)
			for (b = a->next; b; b = b->next)
				if (b->string && !strcmp(a->string, b->string))
					return bench_fail(
					    err, BENCH_E_REPORT,
					    "%s: not valid JSON for bench (key \"%.64s\" given twice in one "
					    "object): pass a report written by `bench run --json`",
					    what, a->string);
		if ((rc = check_keys(a, what, depth + 1, err)))
			return rc;
	}
	return 0;
}

int json_read_text(const char *text, size_t len, const char *what, struct bench_report *rep, struct bench_error *err)
{
	const char *end = NULL;
	cJSON *root = cJSON_ParseWithLengthOpts(text, len, &end, 0);
	int rc;

	if (!root) {
		size_t at = end && end >= text ? (size_t)(end - text) : 0;
		return bench_fail(err, BENCH_E_REPORT,
		                  "%s: not valid JSON (near byte %zu): pass a report written "
		                  "by `bench run --json`",
		                  what, at);
	}
	/* cJSON stops at the end of the first value: anything but white space after it is a second
	 * document or garbage (RFC 8259 section 2: a JSON text is one value). */
	for (size_t at = end ? (size_t)(end - text) : len; at < len; at++)
		if (!strchr(" \t\r\n", text[at]) || !text[at]) {
			cJSON_Delete(root);
			return bench_fail(err, BENCH_E_REPORT,
			                  "%s: not valid JSON (trailing data at byte %zu after the report): pass one "
			                  "report written by `bench run --json`",
			                  what, at);
		}
	rc = check_keys(root, what, 0, err);
	if (rc == 0)
		rc = read_root(root, what, rep, err);
	cJSON_Delete(root);
	return rc;
}

int json_read_file(const char *path, struct bench_report *rep, struct bench_error *err)
{
	FILE *f = stdin;
	char *buf = NULL;
	size_t len = 0, cap = 0;
	int rc;

	if (strcmp(path, "-")) {
		/* O_NONBLOCK and fstat: a FIFO or a device (/dev/zero never ends) is refused at once, not
		 * waited on or read until memory runs out. */
		struct stat st;
		int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
		if (fd < 0)
			return bench_fail(err, BENCH_E_REPORT, "cannot open report %s: %s", path, strerror(errno));
		if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
			close(fd);
			return bench_fail(err, BENCH_E_REPORT,
			                  "report %s is %s, not a file: pass a report written by "
			                  "`bench run --json`",
			                  path,
			                  S_ISFIFO(st.st_mode)  ? "a FIFO"
			                  : S_ISCHR(st.st_mode) ? "a character device"
			                  : S_ISDIR(st.st_mode) ? "a directory"
			                                        : "not a regular file");
		}
		f = fdopen(fd, "rb");
		if (!f) {
			close(fd);
			return bench_fail(err, BENCH_E_NOMEM, "cannot read report %s: %s", path, strerror(errno));
		}
	}
	for (;;) {
		size_t got;
		if (len == cap) {
			size_t ncap = cap ? cap * 2 : 65536;
			char *nb = realloc(buf, ncap);
			if (!nb) {
				free(buf);
				if (f != stdin)
					(void)fclose(f); /* read-only */
				return bench_fail(err, BENCH_E_NOMEM, "out of memory reading %s", path);
			}
			buf = nb;
			cap = ncap;
		}
		got = fread(buf + len, 1, cap - len, f);
		len += got;
		if (got == 0)
			break;
	}
	rc = ferror(f) ? bench_fail(err, BENCH_E_REPORT, "cannot read report %s: %s", path, strerror(errno)) : 0;
	if (f != stdin && fclose(f) != 0 && rc == 0)
		rc = bench_fail(err, BENCH_E_REPORT, "cannot read report %s: %s", path, strerror(errno));
	if (rc == 0)
		rc = json_read_text(buf, len, path, rep, err);
	free(buf);
	return rc;
}
