/* The JSON report's profiles read back (json_profile.h) for bench compare's per-function deltas. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/str.h"
#include "report/json_profile.h"

/* A count or cycles: a number from 0 to 2^53 (exact in a double); null gives -1 (not measured). */
static double numv(const cJSON *it, bool *ok)
{
	if (cJSON_IsNull(it))
		return -1.0;
	if (!cJSON_IsNumber(it) || !isfinite(it->valuedouble) || it->valuedouble < 0 ||
	    it->valuedouble > 9007199254740992.0) {
		*ok = false;
		return 0;
	}
	return it->valuedouble;
}

static double num(const cJSON *o, const char *key, bool *ok)
{
	return numv(cJSON_GetObjectItemCaseSensitive(o, key), ok);
}

/* A count that must be there: null or absent is malformed (a cast of -1.0 to an unsigned type
 * would be undefined, C11 6.3.1.4). */
static uint64_t count(const cJSON *it, bool *ok)
{
	double d = numv(it, ok);

	if (d < 0 || !it) {
		*ok = false;
		return 0;
	}
	return (uint64_t)d;
}

static uint64_t count_of(const cJSON *o, const char *key, bool *ok)
{
	return count(cJSON_GetObjectItemCaseSensitive(o, key), ok);
}

static bool str(char *dst, size_t cap, const cJSON *o, const char *key)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, key);
	return cJSON_IsString(it) && it->valuestring && it->valuestring[0] && !str_copy(dst, cap, it->valuestring);
}

static int bad(struct bench_error *err, const char *what, size_t i, const char *field)
{
	return bench_fail(err, BENCH_E_REPORT,
	                  "%s: profile[%zu].%s is missing or malformed: not a report this bench wrote", what, i, field);
}

static int read_args(const cJSON *o, struct bench_profile *p)
{
	const cJSON *args = cJSON_GetObjectItemCaseSensitive(o, "args"), *a;

	if (args && !cJSON_IsObject(args))
		return -1;
	cJSON_ArrayForEach(a, args)
	{
		if (p->n_args >= BENCH_MAX_ARGS || !a->string || !cJSON_IsNumber(a) || !isfinite(a->valuedouble) ||
		    fabs(a->valuedouble) > 9007199254740992.0 || a->valuedouble != floor(a->valuedouble) ||
		    str_copy(p->args[p->n_args].name, sizeof(p->args[0].name), a->string))
			return -1;
		p->args[p->n_args++].value = (int64_t)a->valuedouble;
	}
	return 0;
}

static int read_reasons(const cJSON *o, struct bench_profile *p)
{
	const cJSON *arr = cJSON_GetObjectItemCaseSensitive(o, "reasons"), *r;
	int n = cJSON_GetArraySize(arr);

	if (!cJSON_IsArray(arr) || n > 32 || !(p->reasons = calloc(n ? (size_t)n : 1, sizeof(*p->reasons))))
		return -1;
	cJSON_ArrayForEach(r, arr)
	{
		if (!cJSON_IsString(r) || str_copy(p->reasons[p->n_reasons], sizeof(p->reasons[0]), r->valuestring))
			return -1;
		p->n_reasons++;
	}
	return 0;
}

static int read_fn(const cJSON *e, const struct bench_profile *p, struct bench_profile_fn *f)
{
	bool ok = str(f->name, sizeof(f->name), e, "name");
	const cJSON *by = cJSON_GetObjectItemCaseSensitive(e, "by_reason"), *v;
	size_t r = 0;

	if (!p->exact) {
		f->samples = count_of(e, "samples", &ok);
		f->share = num(e, "share", &ok);
		f->cycles = num(e, "cycles", &ok);
		return ok ? 0 : -1;
	}
	f->self = count_of(e, "cycles", &ok);
	f->cycles = (double)f->self;
	f->share = num(e, "share", &ok);
	f->incl = count_of(e, "inclusive", &ok);
	f->calls = count_of(e, "calls", &ok);
	f->execs = count_of(e, "instructions", &ok);
	if (!ok || cJSON_GetArraySize(by) != (int)p->n_reasons ||
	    !(f->by_reason = calloc(p->n_reasons ? p->n_reasons : 1, sizeof(uint64_t))))
		return -1;
	cJSON_ArrayForEach(v, by)
	{
		f->by_reason[r++] = count(v, &ok);
	}
	return ok ? 0 : -1;
}

/* An exact profile's instructions (for bench report's annotated listing). */
static int read_insns(const cJSON *o, struct bench_profile *p)
{
	const cJSON *arr = cJSON_GetObjectItemCaseSensitive(o, "instructions"), *e;
	size_t n = (size_t)cJSON_GetArraySize(arr);
	bool ok = true;

	if (!arr)
		return 0;
	if (!cJSON_IsArray(arr) || !(p->insns = calloc(n ? n : 1, sizeof(*p->insns))))
		return -1;
	cJSON_ArrayForEach(e, arr)
	{
		struct bench_profile_insn *in = &p->insns[p->n_insns];
		const cJSON *addr = cJSON_GetObjectItemCaseSensitive(e, "address"), *by, *v;
		const cJSON *line = cJSON_GetObjectItemCaseSensitive(e, "line");
		char *end = NULL;
		size_t r = 0;
		unsigned long a = cJSON_IsString(addr) ? strtoul(addr->valuestring, &end, 16) : 0;

		if (!end || *end || a > 0xFFFFFFFFul || !str(in->function, sizeof(in->function), e, "function"))
			return -1;
		in->addr = (uint32_t)a;
		(void)str(in->file, sizeof(in->file), e, "file");
		(void)str(in->disasm, sizeof(in->disasm), e, "disassembly");
		in->line = cJSON_IsNumber(line) && line->valuedouble >= 1 && line->valuedouble < 1e9
		               ? (unsigned)line->valuedouble
		               : 0;
		in->execs = count_of(e, "executions", &ok);
		in->cycles = count_of(e, "cycles", &ok);
		by = cJSON_GetObjectItemCaseSensitive(e, "by_reason");
		if (!ok || cJSON_GetArraySize(by) != (int)p->n_reasons ||
		    !(in->by_reason = calloc(p->n_reasons ? p->n_reasons : 1, sizeof(uint64_t))))
			return -1;
		p->n_insns++;
		cJSON_ArrayForEach(v, by)
		{
			in->by_reason[r++] = count(v, &ok);
		}
		if (!ok)
			return -1;
	}
	return 0;
}

/* An exact profile's folded stacks (bench report's flame graph). */
static int read_stacks(const cJSON *o, struct bench_profile *p)
{
	const cJSON *arr = cJSON_GetObjectItemCaseSensitive(o, "stacks"), *e;
	size_t n = (size_t)cJSON_GetArraySize(arr);
	bool ok = true;

	if (!arr)
		return 0;
	if (!cJSON_IsArray(arr) || !(p->stacks = calloc(n ? n : 1, sizeof(*p->stacks))))
		return -1;
	cJSON_ArrayForEach(e, arr)
	{
		const cJSON *f = cJSON_GetObjectItemCaseSensitive(e, "frames");
		struct bench_profile_stack *st = &p->stacks[p->n_stacks];
		if (!cJSON_IsString(f) || !f->valuestring[0] || !(st->frames = strdup(f->valuestring)))
			return -1;
		p->n_stacks++;
		st->cycles = count_of(e, "cycles", &ok);
		if (!ok)
			return -1;
	}
	return 0;
}

/* One entry: 0, 1 when its source is unknown (skipped), -1 when malformed (field names the part). */
static int read_one(const cJSON *o, struct bench_profile *p, const char **field)
{
	char source[16];
	const cJSON *fns, *e;
	bool ok = true;
	size_t n;

	memset(p, 0, sizeof(*p));
	*field = "source";
	if (!cJSON_IsObject(o) || !str(source, sizeof(source), o, "source"))
		return -1;
	if (strcmp(source, "ledger") && strcmp(source, "DWT_PCSR"))
		return 1;
	memcpy(p->source, source, sizeof(p->source));
	p->exact = !strcmp(source, "ledger");
	*field = "name";
	if (!str(p->name, sizeof(p->name), o, "name"))
		return -1;
	*field = "cycles";
	p->cycles = num(o, "cycles", &ok);
	p->cycles_known = p->cycles >= 0;
	if (!ok)
		return -1;
	if (p->exact) {
		p->total = count_of(o, "cycles", &ok);
		if (!ok)
			return -1;
		*field = "stretches";
		p->stretches = count_of(o, "stretches", &ok);
		p->summed = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "summed"));
		if (!ok)
			return -1;
		*field = "args";
		if (read_args(o, p))
			return -1;
		*field = "reasons";
		if (read_reasons(o, p))
			return -1;
		*field = "instructions";
		if (read_insns(o, p))
			return -1;
		*field = "stacks";
		if (read_stacks(o, p))
			return -1;
	} else {
		*field = "samples";
		p->samples = count_of(o, "samples", &ok);
		if (!ok)
			return -1;
	}
	*field = "functions";
	fns = cJSON_GetObjectItemCaseSensitive(o, "functions");
	n = (size_t)cJSON_GetArraySize(fns);
	if (!cJSON_IsArray(fns) || !(p->functions = calloc(n ? n : 1, sizeof(*p->functions))))
		return -1;
	cJSON_ArrayForEach(e, fns)
	{
		if (read_fn(e, p, &p->functions[p->n_functions]))
			return -1;
		p->n_functions++;
	}
	return 0;
}

int json_profile_read_all(const cJSON *arr, const char *what, struct bench_report *rep, struct bench_error *err)
{
	const cJSON *o;
	size_t i = 0, n = (size_t)cJSON_GetArraySize(arr);

	if (!arr || !n)
		return 0;
	if (!cJSON_IsArray(arr))
		return bench_fail(err, BENCH_E_REPORT, "%s: \"profile\" is not an array: not a report this bench wrote",
		                  what);
	if (!(rep->profiles = calloc(n, sizeof(*rep->profiles))))
		return bench_fail(err, BENCH_E_NOMEM, "out of memory reading %s", what);
	cJSON_ArrayForEach(o, arr)
	{
		const char *field = "";
		int rc = read_one(o, &rep->profiles[rep->n_profiles], &field);
		if (rc < 0) {
			results_profile_free(&rep->profiles[rep->n_profiles]);
			return bad(err, what, i, field);
		}
		if (rc == 0)
			rep->n_profiles++;
		i++;
	}
	return 0;
}
