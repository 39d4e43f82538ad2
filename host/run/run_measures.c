/* Stack depth and code size beside the cycles (run/run_measures.h, docs/run.md "Stack depth",
 * docs/reports.md "Code size"). */
#include "run/run_measures.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/str.h"
#include "firmware/code_size.h"
#include "firmware/markers.h"
#include "firmware/stack.h"
#include "session/sim_record.h"

static int prepare_stack(struct run_measures *m, const struct run_opts *o, const struct elf_file *elf, bool sim_served,
                         struct bench_context *ctx, struct loop_config *cfg, struct bench_error *err)
{
	struct stack_limit lim;
	const char *method = o->stack_method ? o->stack_method : sim_served ? "exact" : "paint";
	int rc;

	if (!o->stack)
		return bench_fail(err, BENCH_E_USAGE, "--stack-limit and --stack-method go with --stack: add --stack");
	if (strcmp(elf_arch(elf), "cortex-m"))
		return bench_fail(err, BENCH_E_USAGE,
		                  "--stack measures a Cortex-M's stack below SP; %s is no Cortex-M image: drop --stack",
		                  o->firmware);
	if (strcmp(method, "paint") && strcmp(method, "exact"))
		return bench_fail(err, BENCH_E_USAGE, "--stack-method %s: give paint or exact", method);
	if (!strcmp(method, "exact") && !sim_served)
		return bench_fail(err, BENCH_E_USAGE,
		                  "--stack-method exact reads the virtual board's lowest SP, which this board has not: "
		                  "use --stack-method paint, or run on the virtual board bench starts");
	rc = o->stack_limit ? stack_limit_parse(o->stack_limit, &lim, err)
	                    : stack_limit_from_elf(elf, o->firmware, &lim, err);
	if (rc)
		return rc;
	str_fmt_cut(ctx->stack_method, sizeof(ctx->stack_method), "%s", method);
	ctx->stack_limit = lim.addr;
	str_fmt_cut(ctx->stack_limit_from, sizeof(ctx->stack_limit_from), "%s", lim.source);
	cfg->stack_limit = lim.addr;
	cfg->stack_limit_from = ctx->stack_limit_from;
	cfg->stack_exact = !strcmp(method, "exact");
	m->want_record |= cfg->stack_exact;
	return 0;
}

int run_measures_prepare(struct run_measures *m, const struct run_opts *o, const struct elf_file *elf, bool sim_served,
                         struct bench_context *ctx, struct loop_config *cfg, struct bench_error *err)
{
	int rc;

	memset(m, 0, sizeof(*m));
	if ((o->stack || o->stack_limit || o->stack_method) &&
	    (rc = prepare_stack(m, o, elf, sim_served, ctx, cfg, err)))
		return rc;
	if (o->code_method && !o->code_size)
		return bench_fail(err, BENCH_E_USAGE, "--code-method goes with --code-size: add --code-size");
	if (o->code_size) {
		if (strcmp(elf_arch(elf), "cortex-m"))
			return bench_fail(err, BENCH_E_USAGE,
			                  "--code-size decodes Thumb code; %s is no Cortex-M image: drop --code-size",
			                  o->firmware);
		if ((rc = code_image_open(elf->path, &m->img, err)))
			return rc;
		m->img_open = true;
		ctx->image_known = true;
		ctx->image_text = m->img.text;
		ctx->image_data = m->img.data;
		ctx->image_bss = m->img.bss;
		if (o->code_method && strcmp(o->code_method, "static") && strcmp(o->code_method, "executed"))
			return bench_fail(err, BENCH_E_USAGE, "--code-method %s: give static or executed",
			                  o->code_method);
		if (o->code_method && !strcmp(o->code_method, "executed") && !sim_served)
			return bench_fail(
			    err, BENCH_E_USAGE,
			    "--code-method executed reads what the virtual board ran, which this board cannot "
			    "say: use --code-method static, or run on the virtual board bench starts");
		/* The virtual board says exactly what ran; anywhere else the call graph is walked after. */
		if (sim_served && !(o->code_method && !strcmp(o->code_method, "static"))) {
			cfg->code_img = &m->img;
			m->want_record = true;
		}
	}
	return 0;
}

int run_measures_open(struct run_measures *m, const char *work_dir, struct bench_error *err)
{
	char path[4200];

	if (!m->want_record)
		return 0;
	if (str_fmt(path, sizeof(path), "%s/%s", work_dir, SIM_RECORD_FILE))
		return bench_fail(err, BENCH_E_USAGE, "work folder %s: too long for its record file", work_dir);
	return sim_record_open(&m->reader, path, err);
}

/* Every record complete so far, the last one kept: it covers the interval that ended at the halt
 * the core is in (bench-sim writes it before the halt can be seen, docs/sim-record.md). */
int run_measures_halt_record(void *ctx, struct loop_record *out, struct bench_error *err)
{
	static const struct loop_record none;
	struct run_measures *m = ctx;
	struct sim_record rec;
	bool found = false;
	int rc;

	*out = none;
	while ((rc = sim_record_next(m->reader, &rec, err)) == 1) {
		uint32_t *pcs =
		    m->n_pcs_cap >= rec.n_pcs ? m->pcs : realloc(m->pcs, (rec.n_pcs ? rec.n_pcs : 1) * sizeof(*pcs));
		if (!pcs)
			return bench_fail(err, BENCH_E_NOMEM, "out of memory reading the virtual board's records");
		if (pcs != m->pcs) {
			m->pcs = pcs;
			m->n_pcs_cap = rec.n_pcs ? rec.n_pcs : 1;
		}
		for (size_t i = 0; i < rec.n_pcs; i++)
			m->pcs[i] = rec.pcs[i].addr;
		out->n_pcs = rec.n_pcs;
		out->msp_min = rec.msp_min;
		out->psp_min = rec.psp_min;
		out->exceptions = rec.exceptions;
		found = true;
	}
	if (rc < 0)
		return rc;
	if (!found)
		return bench_fail(err, BENCH_E_PROTOCOL,
		                  "the virtual board wrote no record of this halt into %s: run again; if it stays, "
		                  "report it with the work folder",
		                  sim_record_path(m->reader));
	out->pcs = m->pcs;
	return 0;
}

/* Where marker pair NAME's BEGIN and END are; false when the pair is not in the ELF. */
static bool pair_addrs(const struct elf_file *elf, const char *name, uint32_t *from, uint32_t *to)
{
	const struct marker *b = NULL, *e = NULL;

	for (size_t i = 0; i < elf->markers.n; i++) {
		const struct marker *k = &elf->markers.v[i];
		if (k->kind == MARKER_BEGIN && !b && !strcmp(k->name, name))
			b = k;
	}
	for (size_t i = 0; b && i < elf->markers.n; i++) {
		const struct marker *k = &elf->markers.v[i];
		if (k->kind == MARKER_END && k->id == b->id && !e)
			e = k;
	}
	if (!b || !e)
		return false;
	*from = b->addr;
	*to = e->addr;
	return true;
}

int run_measures_code(struct run_measures *m, const struct run_opts *o, const struct elf_file *elf,
                      struct bench_report *rep, struct bench_error *err)
{
	if (!m->img_open)
		return 0;
	for (size_t i = 0; i < rep->n_results; i++) {
		struct bench_result *res = &rep->results[i];
		uint32_t from = 0, to = 0;
		int rc;
		if (res->code.method[0] || !res->n_samples)
			continue; /* counted exactly from the records, or nothing ran */
		if (o->start_sym) {
			const struct elf_symbol *s = elf_symbol(elf, o->start_sym);
			if (s && (rc = code_size_static(&m->img, elf, s->addr, s->addr, true, &res->code, err)))
				return rc;
		} else if (pair_addrs(elf, res->name, &from, &to) &&
		           (rc = code_size_static(&m->img, elf, from, to, false, &res->code, err))) {
			return rc;
		}
	}
	return 0;
}

void run_measures_close(struct run_measures *m)
{
	if (m->reader)
		sim_record_close(m->reader);
	m->reader = NULL;
	if (m->img_open)
		code_image_close(&m->img);
	m->img_open = false;
	free(m->pcs);
	m->pcs = NULL;
	m->n_pcs_cap = 0;
}
