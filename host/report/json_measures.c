/* `stack` and `code` in the JSON report (report/json_measures.h; docs/report-schema.md):
 *   result:  "code": {"method": "static"|"executed", "bytes", "functions", "unknown_calls",
 *                     "inline_bytes", "sections": {".text": N, ...}}
 *   context: "image": {"text", "data", "bss"} as binutils' `size` prints them
 *   result:  "stack": {"bytes": [N|null per sample], "overflow": [i...], "exception": [i...],
 *                      "min": N|null, "max": N|null}
 *   context: "stack": {"method": "paint"|"exact", "limit": N, "limit_from": "..."}
 * A sample flagged overflow has null, never a depth; min and max are over the depths. */
#include "report/json_measures.h"

#include <math.h>
#include <string.h>

#include "base/str.h"

static bool add(cJSON *obj, const char *key, cJSON *item)
{
	if (!obj || !item) {
		cJSON_Delete(item);
		return false;
	}
	return cJSON_AddItemToObject(obj, key, item);
}

static cJSON *num_or_null(bool known, double v)
{
	return known ? cJSON_CreateNumber(v) : cJSON_CreateNull();
}

/* "code": {"method", "bytes", "functions", "unknown_calls", "inline_bytes", "sections": {NAME: N}} */
static bool code_result(cJSON *o, const struct bench_code *k)
{
	cJSON *c, *secs;
	bool ok;

	if (!k->method[0])
		return true;
	c = cJSON_CreateObject();
	secs = cJSON_CreateObject();
	ok = c && secs && add(c, "method", cJSON_CreateString(k->method));
	ok = ok && add(c, "bytes", cJSON_CreateNumber((double)k->bytes));
	ok = ok && add(c, "functions", cJSON_CreateNumber((double)k->n_functions));
	ok = ok && add(c, "unknown_calls", cJSON_CreateNumber((double)k->unknown_calls));
	ok = ok && add(c, "inline_bytes", cJSON_CreateNumber(k->inline_bytes));
	for (size_t i = 0; ok && i < k->n_sections; i++)
		ok = add(secs, k->sections[i].name, cJSON_CreateNumber((double)k->sections[i].bytes));
	if (!ok) {
		cJSON_Delete(secs);
		cJSON_Delete(c);
		return false;
	}
	/* add() frees what it could not attach: secs with c's failure, c with o's. */
	return add(c, "sections", secs) ? add(o, "code", c) : (cJSON_Delete(c), false);
}

bool json_measures_result(cJSON *o, const struct bench_result *res)
{
	const struct bench_stack *s = &res->stack;
	cJSON *st, *bytes, *over, *exc;
	bool ok;

	if (!code_result(o, &res->code))
		return false;
	if (!s->n)
		return true;
	st = cJSON_CreateObject();
	bytes = cJSON_CreateArray();
	over = cJSON_CreateArray();
	exc = cJSON_CreateArray();
	ok = st && bytes && over && exc;
	for (size_t i = 0; ok && i < s->n; i++) {
		bool of = s->flags[i] & BENCH_STACK_OVERFLOW;
		ok = cJSON_AddItemToArray(bytes, num_or_null(!of, s->bytes[i]));
		if (ok && of)
			ok = cJSON_AddItemToArray(over, cJSON_CreateNumber((double)i));
		if (ok && (s->flags[i] & BENCH_STACK_EXCEPTION))
			ok = cJSON_AddItemToArray(exc, cJSON_CreateNumber((double)i));
	}
	ok = ok && add(st, "bytes", bytes);
	bytes = NULL;
	ok = ok && add(st, "overflow", over);
	over = NULL;
	ok = ok && add(st, "exception", exc);
	exc = NULL;
	ok = ok && add(st, "min", num_or_null(s->n_depths, s->min));
	ok = ok && add(st, "max", num_or_null(s->n_depths, s->max));
	if (ok)
		return add(o, "stack", st);
	cJSON_Delete(st);
	cJSON_Delete(bytes);
	cJSON_Delete(over);
	cJSON_Delete(exc);
	return false;
}

bool json_measures_context(cJSON *o, const struct bench_context *c)
{
	cJSON *st;
	bool ok;

	if (c->image_known) {
		cJSON *im = cJSON_CreateObject();
		ok = im && add(im, "text", cJSON_CreateNumber((double)c->image_text));
		ok = ok && add(im, "data", cJSON_CreateNumber((double)c->image_data));
		ok = ok && add(im, "bss", cJSON_CreateNumber((double)c->image_bss));
		if (!ok) {
			cJSON_Delete(im);
			return false;
		}
		if (!add(o, "image", im))
			return false;
	}
	if (!c->stack_method[0])
		return true;
	st = cJSON_CreateObject();
	ok = st && add(st, "method", cJSON_CreateString(c->stack_method));
	ok = ok && add(st, "limit", cJSON_CreateNumber(c->stack_limit));
	ok = ok && add(st, "limit_from", cJSON_CreateString(c->stack_limit_from));
	if (ok)
		return add(o, "stack", st);
	cJSON_Delete(st);
	return false;
}

/* An array item that is a whole number in [0, max). */
static bool index_ok(const cJSON *v, size_t max)
{
	return cJSON_IsNumber(v) && v->valuedouble >= 0 && v->valuedouble < (double)max &&
	       floor(v->valuedouble) == v->valuedouble;
}

static int bad(struct bench_error *err, const char *what, size_t idx, const char *key)
{
	return bench_fail(err, BENCH_E_REPORT, "%s: results[%zu].stack.%s is malformed: fix or drop it", what, idx,
	                  key);
}

/* A whole number from 0 to 2^53 under KEY of O into *V; false when absent or not one. */
static bool get_count(const cJSON *o, const char *key, uint64_t *v)
{
	const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, key);

	if (!cJSON_IsNumber(x) || x->valuedouble < 0 || x->valuedouble > 9007199254740992.0 ||
	    floor(x->valuedouble) != x->valuedouble)
		return false;
	*v = (uint64_t)x->valuedouble;
	return true;
}

static int read_code(const cJSON *jr, const char *what, size_t idx, struct bench_code *k, struct bench_error *err)
{
	const cJSON *c = cJSON_GetObjectItemCaseSensitive(jr, "code");
	const cJSON *m, *secs, *x;
	uint64_t n = 0, u = 0, in = 0;

	if (!c || cJSON_IsNull(c))
		return 0;
	m = cJSON_GetObjectItemCaseSensitive(c, "method");
	secs = cJSON_GetObjectItemCaseSensitive(c, "sections");
	if (!cJSON_IsObject(c) || !cJSON_IsString(m) || strlen(m->valuestring) >= sizeof(k->method) ||
	    !get_count(c, "bytes", &k->bytes) || !get_count(c, "functions", &n) || !get_count(c, "unknown_calls", &u) ||
	    !get_count(c, "inline_bytes", &in) || in > UINT32_MAX || (secs && !cJSON_IsObject(secs)))
		return bench_fail(err, BENCH_E_REPORT, "%s: results[%zu].code is malformed: fix or drop it", what, idx);
	(void)str_copy(k->method, sizeof(k->method), m->valuestring);
	k->n_functions = (size_t)n;
	k->unknown_calls = (size_t)u;
	k->inline_bytes = (uint32_t)in;
	cJSON_ArrayForEach(x, secs)
	{
		if (k->n_sections == BENCH_CODE_MAX_SECTIONS || !get_count(secs, x->string, &n))
			return bench_fail(err, BENCH_E_REPORT, "%s: results[%zu].code.sections is malformed", what,
			                  idx);
		str_fmt_cut(k->sections[k->n_sections].name, sizeof(k->sections[0].name), "%s", x->string);
		k->sections[k->n_sections++].bytes = n;
	}
	return 0;
}

int json_measures_read_result(const cJSON *jr, const char *what, size_t idx, struct bench_result *res,
                              struct bench_error *err)
{
	const cJSON *st = cJSON_GetObjectItemCaseSensitive(jr, "stack");
	const cJSON *bytes, *v;
	int rc;

	if ((rc = read_code(jr, what, idx, &res->code, err)))
		return rc;
	if (!st || cJSON_IsNull(st))
		return 0;
	bytes = cJSON_GetObjectItemCaseSensitive(st, "bytes");
	if (!cJSON_IsObject(st) || !cJSON_IsArray(bytes) || (size_t)cJSON_GetArraySize(bytes) != res->n_samples)
		return bad(err, what, idx, "bytes (one figure per sample)");
	cJSON_ArrayForEach(v, bytes)
	{
		bool of = cJSON_IsNull(v);
		if (!of && !index_ok(v, (size_t)UINT32_MAX + 1u))
			return bad(err, what, idx, "bytes");
		if (results_stack_add(res, of ? 0 : (uint32_t)v->valuedouble, of ? BENCH_STACK_OVERFLOW : 0))
			return bench_fail(err, BENCH_E_NOMEM, "out of memory reading %s", what);
	}
	cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(st, "exception"))
	{
		if (!index_ok(v, res->stack.n))
			return bad(err, what, idx, "exception");
		res->stack.flags[(size_t)v->valuedouble] |= BENCH_STACK_EXCEPTION;
	}
	results_stack_stats(res);
	return 0;
}

int json_measures_read_context(const cJSON *ctx, const char *what, struct bench_context *c, struct bench_error *err)
{
	const cJSON *st = cJSON_GetObjectItemCaseSensitive(ctx, "stack");
	const cJSON *im = cJSON_GetObjectItemCaseSensitive(ctx, "image");
	const cJSON *m, *l, *f;

	if (im && !cJSON_IsNull(im)) {
		if (!get_count(im, "text", &c->image_text) || !get_count(im, "data", &c->image_data) ||
		    !get_count(im, "bss", &c->image_bss))
			return bench_fail(err, BENCH_E_REPORT, "%s: context.image is malformed: fix or drop it", what);
		c->image_known = true;
	}
	if (!st || cJSON_IsNull(st))
		return 0;
	m = cJSON_GetObjectItemCaseSensitive(st, "method");
	l = cJSON_GetObjectItemCaseSensitive(st, "limit");
	f = cJSON_GetObjectItemCaseSensitive(st, "limit_from");
	if (!cJSON_IsObject(st) || !cJSON_IsString(m) || strlen(m->valuestring) >= sizeof(c->stack_method) ||
	    (l && !index_ok(l, (size_t)UINT32_MAX + 1u)) || (f && !cJSON_IsString(f)))
		return bench_fail(err, BENCH_E_REPORT, "%s: context.stack is malformed: fix or drop it", what);
	(void)str_copy(c->stack_method, sizeof(c->stack_method), m->valuestring);
	c->stack_limit = l ? (uint32_t)l->valuedouble : 0;
	if (f)
		str_fmt_cut(c->stack_limit_from, sizeof(c->stack_limit_from), "%s", f->valuestring);
	return 0;
}
