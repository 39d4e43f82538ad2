/* The JSON reporter: schema version 1 (docs/report-schema.md, docs/report-schema.json). The whole
 * document is built with cJSON and printed at end(), so a reader never sees a partial object
 * (report_write_atomic adds the rename). */
#include "report/json.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/cjson_out.h"
#include "report/json_measures.h"
#include "report/json_profile.h"
#include "report/reporter.h"

static cJSON *str_or_null(const char *s)
{
	return s && *s ? cJSON_CreateString(s) : cJSON_CreateNull();
}

/* Adds item to obj; returns false (and frees item) when either is NULL. */
static bool add(cJSON *obj, const char *key, cJSON *item)
{
	if (!obj || !item) {
		cJSON_Delete(item);
		return false;
	}
	return cJSON_AddItemToObject(obj, key, item);
}

static cJSON *context_json(const struct bench_context *c)
{
	cJSON *o = cJSON_CreateObject();
	bool ok = o;

	ok = ok && add(o, "tool_version", cJSON_CreateString(c->tool_version));
	ok = ok && add(o, "firmware", cJSON_CreateString(c->firmware));
	ok = ok && add(o, "firmware_sha256", cJSON_CreateString(c->firmware_sha256));
	ok = ok && add(o, "board", cJSON_CreateString(c->board));
	ok = ok && add(o, "probe", cJSON_CreateString(c->probe));
	ok = ok && add(o, "backend", cJSON_CreateString(c->backend));
	/* Additive (docs/report-schema.md): only when bench started OpenOCD and so knows the path. */
	if (c->transport[0])
		ok = ok && add(o, "transport", cJSON_CreateString(c->transport));
	ok = ok && add(o, "server_version", cJSON_CreateString(c->server_version));
	ok = ok && add(o, "counter", cJSON_CreateString(c->counter));
	ok = ok && add(o, "cycles_modelled", cJSON_CreateBool(c->cycles_modelled));
	ok = ok && add(o, "core_clock_hz", cJSON_CreateNumber((double)c->core_clock_hz));
	ok = ok && add(o, "overhead_cycles", cJSON_CreateNumber((double)c->overhead_cycles));
	ok = ok && add(o, "date", cJSON_CreateString(c->date));
	if (c->clock_source[0])
		ok = ok && add(o, "clock_source", cJSON_CreateString(c->clock_source));
	ok = ok && add(o, "mask_irqs", cJSON_CreateBool(c->mask_irqs));
	ok = ok && add(o, "keep_interrupted", cJSON_CreateBool(c->keep_interrupted));
	ok = ok && json_measures_context(o, c);
	if (!ok) {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}

static double ns(const struct bench_report *rep, double cycles)
{
	/* Rounded to 0.1 ns: more digits would claim a precision the clock does not have. */
	return round(cycles * 1e10 / (double)rep->context.core_clock_hz) / 10.0;
}

static cJSON *result_json(const struct bench_report *rep, const struct bench_result *r)
{
	cJSON *o = cJSON_CreateObject(), *args = cJSON_CreateObject(), *samples = cJSON_CreateArray(),
	      *wrapped = cJSON_CreateArray(), *interrupted = cJSON_CreateArray();
	bool ok = o && args && samples && wrapped && interrupted;

	for (size_t i = 0; ok && i < r->n_args; i++)
		ok = add(args, r->args[i].name, cJSON_CreateNumber((double)r->args[i].value));
	for (size_t i = 0; ok && i < r->n_samples; i++) {
		ok = cJSON_AddItemToArray(samples, cJSON_CreateNumber((double)r->samples[i]));
		if (ok && r->sample_flags && (r->sample_flags[i] & BENCH_SAMPLE_WRAPPED))
			ok = cJSON_AddItemToArray(wrapped, cJSON_CreateNumber((double)i));
		if (ok && r->sample_flags && (r->sample_flags[i] & BENCH_SAMPLE_INTERRUPTED))
			ok = cJSON_AddItemToArray(interrupted, cJSON_CreateNumber((double)i));
	}
	ok = ok && add(o, "name", cJSON_CreateString(r->name));
	ok = ok && add(o, "args", args);
	args = NULL;
	ok = ok && add(o, "unit", cJSON_CreateString(r->unit));
	ok = ok && add(o, "samples", samples);
	samples = NULL;
	ok = ok && add(o, "wrapped", wrapped);
	wrapped = NULL;
	ok = ok && add(o, "interrupted", interrupted);
	interrupted = NULL;
	ok = ok && add(o, "n", cJSON_CreateNumber((double)r->stats.n));
	if (r->stats.n) {
		ok = ok && add(o, "min", cJSON_CreateNumber(r->stats.min));
		ok = ok && add(o, "max", cJSON_CreateNumber(r->stats.max));
		ok = ok && add(o, "mean", cJSON_CreateNumber(r->stats.mean));
		ok = ok && add(o, "median", cJSON_CreateNumber(r->stats.median));
		ok = ok && add(o, "stddev", cJSON_CreateNumber(r->stats.stddev));
	} else {
		ok = ok && add(o, "min", cJSON_CreateNull()) && add(o, "max", cJSON_CreateNull()) &&
		     add(o, "mean", cJSON_CreateNull()) && add(o, "median", cJSON_CreateNull()) &&
		     add(o, "stddev", cJSON_CreateNull());
	}
	/* Only cycles become time: an instruction count (--icount) has no duration. */
	if (r->stats.n && rep->context.core_clock_hz && !strcmp(r->unit, "cycles")) {
		cJSON *t = cJSON_CreateObject();
		ok = ok && t && add(t, "min", cJSON_CreateNumber(ns(rep, r->stats.min))) &&
		     add(t, "mean", cJSON_CreateNumber(ns(rep, r->stats.mean)));
		ok = ok && add(o, "time_ns", t);
	} else {
		ok = ok && add(o, "time_ns", cJSON_CreateNull());
	}
	ok = ok && add(o, "error", str_or_null(r->error));
	ok = ok && json_measures_result(o, r);
	if (!ok) {
		cJSON_Delete(o);
		cJSON_Delete(args);
		cJSON_Delete(samples);
		cJSON_Delete(wrapped);
		cJSON_Delete(interrupted);
		return NULL;
	}
	return o;
}

static cJSON *region_json(const struct bench_region_result *g)
{
	cJSON *o = cJSON_CreateObject(), *ev = cJSON_CreateObject();
	bool ok = o && ev;

	for (size_t i = 0; ok && i < g->n_events; i++)
		ok = add(ev, g->events[i].name, cJSON_CreateNumber((double)g->events[i].value));
	ok = ok && add(o, "name", cJSON_CreateString(g->name));
	ok = ok && add(o, "id", cJSON_CreateNumber(g->id));
	ok = ok && add(o, "count", cJSON_CreateNumber((double)g->count));
	/* Without a cycle counter the cycle statistics are null, never 0 cycles (docs/report-schema.md). */
	ok = ok && add(o, "total", g->no_cycles ? cJSON_CreateNull() : cJSON_CreateNumber((double)g->total));
	ok = ok && add(o, "min", g->no_cycles ? cJSON_CreateNull() : cJSON_CreateNumber(g->min));
	ok = ok && add(o, "max", g->no_cycles ? cJSON_CreateNull() : cJSON_CreateNumber(g->max));
	ok = ok && add(o, "last", g->no_cycles ? cJSON_CreateNull() : cJSON_CreateNumber(g->last));
	ok = ok && add(o, "mean", g->no_cycles ? cJSON_CreateNull() : cJSON_CreateNumber(g->mean));
	ok = ok && add(o, "ema", g->no_cycles ? cJSON_CreateNull() : cJSON_CreateNumber(g->ema));
	ok = ok && add(o, "enabled", cJSON_CreateBool(g->enabled));
	ok = ok && add(o, "error_flags", cJSON_CreateNumber(g->error_flags));
	ok = ok && add(o, "error", str_or_null(g->error));
	ok = ok && add(o, "events", ev);
	if (!ok) {
		cJSON_Delete(o);
		if (!o)
			cJSON_Delete(ev);
		return NULL;
	}
	return o;
}

/* One sampled profile (bench run --profile, docs/profile.md), additive to schema version 1: the
 * functions, and the source lines where the ELF had DWARF line info for the PC. */
static cJSON *profile_json(const struct bench_profile *p)
{
	cJSON *o = cJSON_CreateObject(), *fns = cJSON_CreateArray(), *lines = cJSON_CreateArray();
	bool ok = o && fns && lines;

	for (size_t i = 0; ok && i < p->n_functions; i++) {
		const struct bench_profile_fn *f = &p->functions[i];
		cJSON *e = cJSON_CreateObject();
		ok = e && cJSON_AddItemToArray(fns, e);
		ok = ok && add(e, "name", cJSON_CreateString(f->name));
		ok = ok && add(e, "samples", cJSON_CreateNumber((double)f->samples));
		ok = ok && add(e, "share", cJSON_CreateNumber(f->share));
		ok = ok && add(e, "error", cJSON_CreateNumber(f->error));
		ok = ok && add(e, "cycles", p->cycles_known ? cJSON_CreateNumber(f->cycles) : cJSON_CreateNull());
	}
	for (size_t i = 0; ok && i < p->n_lines; i++) {
		const struct bench_profile_line *l = &p->lines[i];
		cJSON *e;
		if (!l->file[0])
			continue;
		e = cJSON_CreateObject();
		ok = e && cJSON_AddItemToArray(lines, e);
		ok = ok && add(e, "function", cJSON_CreateString(l->function));
		ok = ok && add(e, "file", cJSON_CreateString(l->file));
		ok = ok && add(e, "line", cJSON_CreateNumber((double)l->line));
		ok = ok && add(e, "samples", cJSON_CreateNumber((double)l->samples));
		ok = ok &&
		     add(e, "cycles", p->cycles_known ? cJSON_CreateNumber((double)l->cycles) : cJSON_CreateNull());
	}
	ok = ok && add(o, "name", cJSON_CreateString(p->name));
	ok = ok && add(o, "source", cJSON_CreateString(p->source));
	ok = ok && add(o, "samples", cJSON_CreateNumber((double)p->samples));
	ok = ok && add(o, "discarded", cJSON_CreateNumber((double)p->discarded));
	ok = ok && add(o, "cycles", p->cycles_known ? cJSON_CreateNumber(p->cycles) : cJSON_CreateNull());
	ok = ok && add(o, "seconds", cJSON_CreateNumber(p->seconds));
	ok = ok && add(o, "functions", fns);
	fns = NULL;
	ok = ok && add(o, "lines", lines);
	lines = NULL;
	if (!ok) {
		cJSON_Delete(o);
		cJSON_Delete(fns);
		cJSON_Delete(lines);
		return NULL;
	}
	return o;
}

cJSON *json_report_build(const struct bench_report *rep)
{
	cJSON *root = cJSON_CreateObject(), *results = cJSON_CreateArray(), *regions = cJSON_CreateArray();
	bool ok = root && results && regions;

	for (size_t i = 0; ok && i < rep->n_results; i++) {
		cJSON *r = result_json(rep, &rep->results[i]);
		ok = r && cJSON_AddItemToArray(results, r);
	}
	for (size_t i = 0; ok && i < rep->n_regions; i++) {
		cJSON *g = region_json(&rep->regions[i]);
		ok = g && cJSON_AddItemToArray(regions, g);
	}
	ok = ok && add(root, "schema_version", cJSON_CreateNumber(rep->schema_version));
	ok = ok && add(root, "status", cJSON_CreateString(results_status_name(rep->status)));
	ok = ok && add(root, "status_detail", cJSON_CreateString(rep->status_detail[0] ? rep->status_detail : "ok"));
	ok = ok && add(root, "error", str_or_null(rep->error));
	ok = ok && add(root, "context", context_json(&rep->context));
	ok = ok && add(root, "results", results);
	results = NULL;
	ok = ok && add(root, "regions", regions);
	regions = NULL;
	if (ok && rep->n_warnings) {
		cJSON *w = cJSON_CreateArray();
		ok = w && add(root, "warnings", w);
		for (size_t i = 0; ok && i < rep->n_warnings && i < BENCH_MAX_WARNINGS; i++) {
			cJSON *s = cJSON_CreateString(rep->warnings[i]);
			ok = s && cJSON_AddItemToArray(w, s);
			if (!ok)
				cJSON_Delete(s);
		}
	}
	if (ok && rep->n_uart) {
		/* The firmware's UART lines (bench run --uart), additive to schema version 1. */
		cJSON *u = cJSON_CreateObject(), *lines = NULL;
		ok = add(root, "uart", u);
		if (ok)
			lines = cJSON_CreateArray();
		ok = ok && add(u, "lines", lines);
		for (size_t i = 0; ok && i < rep->n_uart; i++) {
			cJSON *s = cJSON_CreateString(rep->uart[i]);
			ok = s && cJSON_AddItemToArray(lines, s);
			if (!ok)
				cJSON_Delete(s);
		}
		ok = ok && add(u, "dropped", cJSON_CreateNumber((double)rep->uart_dropped));
	}
	if (ok && rep->n_profiles) {
		cJSON *profiles = cJSON_CreateArray();
		ok = add(root, "profile", profiles);
		for (size_t i = 0; ok && i < rep->n_profiles; i++) {
			const struct bench_profile *bp = &rep->profiles[i];
			cJSON *p = bp->exact ? json_profile_exact(bp) : profile_json(bp);
			ok = p && cJSON_AddItemToArray(profiles, p);
		}
	}
	if (!ok) {
		cJSON_Delete(root);
		cJSON_Delete(results);
		cJSON_Delete(regions);
		return NULL;
	}
	return root;
}

static int json_begin(const struct reporter_ctx *ctx, FILE *out, const struct bench_report *rep,
                      struct bench_error *err)
{
	return 0;
}

static int json_result(const struct reporter_ctx *ctx, FILE *out, const struct bench_report *rep,
                       const struct bench_result *res, struct bench_error *err)
{
	return 0;
}

static int json_end(const struct reporter_ctx *ctx, FILE *out, const struct bench_report *rep, struct bench_error *err)
{
	cJSON *root = json_report_build(rep);
	char *text;
	int bad;

	if (!root)
		return bench_fail(err, BENCH_E_NOMEM, "out of memory building the JSON report");
	if (cjson_out_utf8(root)) { /* a firmware path that is not UTF-8 still gives valid JSON */
		cJSON_Delete(root);
		return bench_fail(err, BENCH_E_NOMEM, "out of memory building the JSON report");
	}
	text = cJSON_Print(root);
	cJSON_Delete(root);
	if (!text)
		return bench_fail(err, BENCH_E_NOMEM, "out of memory printing the JSON report");
	bad = fputs(text, out) == EOF || fputc('\n', out) == EOF;
	cJSON_free(text);
	if (bad)
		return bench_fail(err, BENCH_E_IO, "writing the JSON report failed");
	return 0;
}

const struct reporter_ops json_reporter = {
    .name = "json",
    .help = "the full report (docs/report-schema.md), for tools, bench compare and bench report",
    .extension = "json",
    .begin = json_begin,
    .result = json_result,
    .end = json_end,
};
