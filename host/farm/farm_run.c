/* `bench run --farm FILE`: the same firmware on every board of a farm at once, one thread each.
 * Each thread calls run_measure() with its own board, probe serial, free TCL port and work
 * directory (run.h promises no globals; proc.h guards its process list), so the boards' OpenOCDs
 * never share a port. The reports are merged into one: "<board name>/<result>". */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/str.h"
#include "farm/farm.h"
#include "session/probes.h"
#include "session/proc.h"
#include "report/junit.h"
#include "report/outpath.h"
#include "report/reporter.h"
#include "run/run.h"

struct job {
	const struct farm_board *b;
	struct run_opts o;
	struct bench_report rep;
	struct bench_error err;
	char work[1100];
	int rc;
};

static void *job_main(void *arg)
{
	struct job *j = arg;
	j->rc = run_measure(&j->o, &j->rep, &j->err);
	return NULL;
}

static int merge_one(const struct job *j, struct bench_report *dst, struct bench_error *err)
{
	char name[BENCH_NAME_MAX];

	for (size_t i = 0; i < j->rep.n_results; i++) {
		const struct bench_result *src = &j->rep.results[i];
		struct bench_result *r;
		/* A name cut at BENCH_NAME_MAX still starts with the board, which is what tells them apart. */
		if (snprintf(name, sizeof(name), "%s/%s", j->b->name, src->name) < 0)
			return bench_fail(err, BENCH_E_INTERNAL, "formatting a result name failed");
		r = results_get(dst, name, src->args, src->n_args);
		if (!r)
			return bench_fail(err, BENCH_E_NOMEM, "out of memory merging the farm's reports");
		memcpy(r->unit, src->unit, sizeof(r->unit));
		memcpy(r->error, src->error, sizeof(r->error));
		for (size_t k = 0; k < src->n_samples; k++)
			if (results_add_sample(r, src->samples[k], src->sample_flags ? src->sample_flags[k] : 0) < 0)
				return bench_fail(err, BENCH_E_NOMEM, "out of memory merging the farm's reports");
		/* --stack and --code-size (issue 24) stay with their board's result. */
		for (size_t k = 0; k < src->stack.n; k++)
			if (results_stack_add(r, src->stack.bytes[k], src->stack.flags[k]) < 0)
				return bench_fail(err, BENCH_E_NOMEM, "out of memory merging the farm's reports");
		r->code = src->code;
	}
	for (size_t i = 0; i < j->rep.n_regions; i++) {
		struct bench_region_result *g = results_add_region(dst);
		if (!g)
			return bench_fail(err, BENCH_E_NOMEM, "out of memory merging the farm's reports");
		*g = j->rep.regions[i];
		if (snprintf(g->name, sizeof(g->name), "%s/%s", j->b->name, j->rep.regions[i].name) < 0)
			g->name[0] = '\0';
	}
	/* A board's warnings (a failed --poll read) keep their board's name, as its results do; past
	 * BENCH_MAX_WARNINGS the merged report keeps the first ones. */
	for (size_t i = 0; i < j->rep.n_warnings && i < BENCH_MAX_WARNINGS && dst->n_warnings < BENCH_MAX_WARNINGS; i++)
		if (snprintf(dst->warnings[dst->n_warnings++], sizeof(dst->warnings[0]), "%s: %.480s", j->b->name,
		             j->rep.warnings[i]) < 0)
			return bench_fail(err, BENCH_E_INTERNAL, "formatting a warning failed");
	return 0;
}

/* Status: ok when every board is ok, error when none measured anything, incomplete otherwise;
 * the error is the first board's that failed, prefixed with its name. */
static void merge_status(const struct job *jobs, size_t n, struct bench_report *dst)
{
	size_t ok = 0, errors = 0;
	const struct job *first_bad = NULL;

	for (size_t i = 0; i < n; i++) {
		ok += jobs[i].rep.status == BENCH_STATUS_OK && jobs[i].rc == 0;
		errors += jobs[i].rep.status == BENCH_STATUS_ERROR;
		if (!first_bad && (jobs[i].rc != 0 || jobs[i].rep.status != BENCH_STATUS_OK))
			first_bad = &jobs[i];
	}
	dst->status = ok == n ? BENCH_STATUS_OK : errors == n ? BENCH_STATUS_ERROR : BENCH_STATUS_INCOMPLETE;
	if (!first_bad)
		return;
	str_fmt_cut(dst->status_detail, sizeof(dst->status_detail), "%s",
	            first_bad->rc ? bench_err_name(first_bad->err.kind) : first_bad->rep.status_detail);
	if (snprintf(dst->error, sizeof(dst->error), "%s: %s", first_bad->b->name,
	             first_bad->rc ? first_bad->err.msg : first_bad->rep.error) < 0)
		dst->error[0] = '\0';
}

static void merge_context(const struct job *jobs, size_t n, struct bench_report *dst)
{
	size_t used = 0;
	bool modelled = true;

	dst->context = jobs[0].rep.context;
	for (size_t i = 0; i < n; i++) {
		int w;
		modelled &= jobs[i].b->virtual_board;
		if (used >= sizeof(dst->context.probe))
			continue;
		w = snprintf(dst->context.probe + used, sizeof(dst->context.probe) - used, "%s%s", i ? "," : "",
		             jobs[i].b->serial[0] ? jobs[i].b->serial : "virtual");
		used += w > 0 ? (size_t)w : 0;
	}
	str_fmt_cut(dst->context.board, sizeof(dst->context.board), "farm");
	dst->context.cycles_modelled = modelled;
}

int farm_run(const struct farm *f, const struct run_opts *base, struct bench_report *combined, struct bench_error *err)
{
	struct job *jobs = calloc(f->n, sizeof(*jobs));
	pthread_t *threads = calloc(f->n, sizeof(*threads));
	size_t started = 0;
	int rc = 0;

	if (!jobs || !threads) {
		free(jobs);
		free(threads);
		return bench_fail(err, BENCH_E_NOMEM, "out of memory starting the farm");
	}
	for (size_t i = 0; i < f->n && rc == 0; i++) {
		struct job *j = &jobs[i];
		j->b = &f->boards[i];
		j->o = *base; /* shares the sweep values, which run_measure only reads */
		j->o.board = j->b->board;
		j->o.probe = j->b->serial[0] ? j->b->serial : NULL;
		j->o.json = NULL;
		j->o.quiet = true;
		j->o.progress = false;
		j->o.tcl_port = 0;
		if (base->work_dir) {
			if (mkdir(base->work_dir, 0755) && errno != EEXIST)
				rc = bench_fail(err, BENCH_E_IO, "cannot create --work-dir %s: %s", base->work_dir,
				                strerror(errno));
			if (rc == 0 && str_fmt(j->work, sizeof(j->work), "%s/%s", base->work_dir, j->b->name))
				rc = bench_fail(err, BENCH_E_USAGE,
				                "--work-dir %s: longer than %zu characters with a board's name",
				                base->work_dir, sizeof(j->work) - 1);
			j->o.work_dir = j->work;
		}
		results_init(&j->rep);
		bench_error_clear(&j->err);
		if (rc == 0 && pthread_create(&threads[i], NULL, job_main, j) != 0)
			rc = bench_fail(err, BENCH_E_INTERNAL, "cannot start a thread for board '%s'", j->b->name);
		if (rc == 0)
			started++;
	}
	for (size_t i = 0; i < started; i++)
		if (pthread_join(threads[i], NULL) != 0 && rc == 0)
			rc = bench_fail(err, BENCH_E_INTERNAL, "joining the thread of board '%s' failed",
			                jobs[i].b->name);
	if (rc == 0) {
		for (size_t i = 0; i < f->n && rc == 0; i++)
			rc = merge_one(&jobs[i], combined, err);
		merge_context(jobs, f->n, combined);
		merge_status(jobs, f->n, combined);
		results_finish(combined);
		for (size_t i = 0; i < f->n && rc == 0; i++)
			if (jobs[i].rc)
				rc = bench_fail(err, jobs[i].err.kind, "%s: %s", jobs[i].b->name, jobs[i].err.msg);
		/* Per board: a board without a cycle counter measures nothing by design, its results.h says. */
		for (size_t i = 0; i < f->n && rc == 0; i++) {
			struct bench_error uerr;
			if (!results_fail_unmeasured(&jobs[i].rep, &uerr))
				continue;
			rc = bench_fail(err, uerr.kind, "%s: %s", jobs[i].b->name, uerr.msg);
			combined->status = BENCH_STATUS_INCOMPLETE;
			str_fmt_cut(combined->status_detail, sizeof(combined->status_detail), "%s",
			            bench_err_name(uerr.kind));
			str_fmt_cut(combined->error, sizeof(combined->error), "%s", err->msg);
		}
	}
	for (size_t i = 0; i < f->n; i++)
		results_free(&jobs[i].rep);
	free(jobs);
	free(threads);
	return rc;
}

/* Options that name one board or one server make no sense for a farm, which names its own. */
static int refuse_single_board_options(const struct run_opts *o, struct bench_error *err)
{
	const char *bad = o->board      ? "--board"
	                  : o->probe    ? "--probe"
	                  : o->openocd  ? "--openocd"
	                  : o->gdb      ? "--gdb"
	                  : o->tcl_port ? "--tcl-port"
	                                : NULL;
	if (bad)
		return bench_fail(err, BENCH_E_USAGE,
		                  "%s cannot go with --farm: the farm file names each board and probe", bad);
	/* Several boards' lines would interleave on stderr unnamed, and a merged report keeps none. */
	if (o->uart)
		return bench_fail(err, BENCH_E_USAGE,
		                  "--uart cannot go with --farm: run the one board whose output you want with --uart");
	if (o->profile) /* the same: one profile per board, and the merged report keeps none (docs/profile.md) */
		return bench_fail(err, BENCH_E_USAGE,
		                  "--profile cannot go with --farm: profile one board at a time with --board");
	return 0;
}

static int prepare(struct run_opts *o, struct farm *f, struct bench_error *err)
{
	int rc;

	rc = refuse_single_board_options(o, err);
	if (rc == 0) {
		const struct outpath out = {"--json", o->json};
		rc = outpath_check(&out, 1, &o->firmware, 1, err);
	}
	if (rc == 0)
		rc = farm_load(o->farm, f, err);
	if (rc == 0)
		rc = farm_validate(f, o->boards_dir, err);
	for (size_t i = 0; rc == 0 && i < f->n; i++) {
		struct probe_list probes;
		if (f->boards[i].virtual_board)
			continue;
		/* A real board is in the farm: its serial must be attached now, or OpenOCD would fail later
		 * with a less clear message. */
		rc = probes_enumerate(&probes, err);
		if (rc == 0)
			rc = farm_check_serials(f, &probes, err);
		probes_free(&probes);
		break;
	}
	return rc;
}

int farm_cmd_run(struct run_opts *o)
{
	static struct farm f;                                  /* 8 KiB */
	const struct reporter_ctx ctx = {.limits = o->limits}; /* junit marks a case above --max-cycles failed */
	struct bench_report rep;
	struct bench_error err, werr;
	int rc, wrc = 0;

	bench_error_clear(&err);
	bench_error_clear(&werr);
	rc = prepare(o, &f, &err);
	if (rc) {
		fprintf(stderr, "bench: %s\n", err.msg);
		return bench_exit_code(err.kind);
	}
	proc_install_signal_handlers();
	results_init(&rep);
	rc = farm_run(&f, o, &rep, &err);
	if (!o->quiet && rep.n_results) {
		const struct reporter_ops *fmt = reporter_find(o->format ? o->format : "console");
		wrc =
		    fmt ? report_emit(fmt, &ctx, stdout, &rep, &werr) : reporter_unknown("--format", o->format, &werr);
	}
	if (o->json) {
		struct bench_error jerr;
		int jrc = report_write_atomic(reporter_find("json"), &ctx, o->json, &rep, &jerr);
		if (jrc && !wrc) {
			werr = jerr;
			wrc = jrc;
		}
	}
	if (rc)
		fprintf(stderr, "bench: %s\n", err.msg);
	if (wrc)
		fprintf(stderr, "bench: %s\n", werr.msg);
	rc = junit_limit_exit(o->limits, &rep, rc ? bench_exit_code(err.kind) : wrc ? bench_exit_code(werr.kind) : 0);
	results_free(&rep);
	return rc;
}
