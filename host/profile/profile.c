/* Samples kept per marker pair and counted per function and per source line (profile.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/str.h"
#include "profile/profile.h"

void profile_init(struct profile *p)
{
	memset(p, 0, sizeof(*p));
}

void profile_free(struct profile *p)
{
	for (size_t i = 0; i < p->n; i++)
		free(p->stretches[i].pcs);
	free(p->stretches);
	profile_init(p);
}

struct profile_stretch *profile_stretch(struct profile *p, const char *name)
{
	struct profile_stretch *grown;

	for (size_t i = 0; i < p->n; i++)
		if (!strcmp(p->stretches[i].name, name))
			return &p->stretches[i];
	grown = realloc(p->stretches, (p->n + 1) * sizeof(*grown));
	if (!grown)
		return NULL;
	p->stretches = grown;
	memset(&grown[p->n], 0, sizeof(*grown));
	str_fmt_cut(grown[p->n].name, sizeof(grown[p->n].name), "%s", name);
	return &grown[p->n++];
}

int profile_add(struct profile_stretch *s, uint32_t pcsr)
{
	if (pcsr == PROFILE_PCSR_HALTED) {
		s->discarded++;
		return 0;
	}
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 4096;
		uint32_t *grown = realloc(s->pcs, cap * sizeof(*grown));
		if (!grown)
			return -1;
		s->pcs = grown;
		s->cap = cap;
	}
	s->pcs[s->n++] = pcsr & ~1u; /* PCSR holds an instruction address; bit 0 is not the Thumb bit */
	return 0;
}

int profile_check_board(const struct board *b, struct bench_error *err)
{
	/* PCSR is a DWT register (Armv7-M ARM C1.8.8): a board whose cycle counter is the DWT's has
	 * one on the Cortex-M3/M4/M7 bench supports. QEMU models no DWT and the TriCore has no PC
	 * sampler a debugger reads while the core runs. */
	if (!strcmp(b->backend, "qemu"))
		return bench_fail(err, BENCH_E_USAGE,
		                  "--profile needs DWT_PCSR (the PC sampled while the core runs), which board %s "
		                  "does not have (QEMU models no DWT): profile on the virtual board sim-stm32f4 "
		                  "or a Cortex-M board reached through OpenOCD",
		                  b->name);
	if (strcmp(b->counter, "DWT_CYCCNT"))
		return bench_fail(err, BENCH_E_USAGE,
		                  "--profile needs DWT_PCSR (the PC sampled while the core runs), which board %s "
		                  "does not have (its counter is %s, not the DWT's): profile on a Cortex-M board "
		                  "with a DWT",
		                  b->name, b->counter[0] ? b->counter : "none");
	return 0;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

/* A function while counting: where it was first seen, carried through the sort. */
struct fn_acc {
	struct bench_profile_fn f;
	size_t first;
};

static int cmp_fn(const void *a, const void *b)
{
	const struct fn_acc *x = a, *y = b;
	if (x->f.samples != y->f.samples)
		return x->f.samples < y->f.samples ? 1 : -1;
	return strcmp(x->f.name, y->f.name);
}

/* One distinct PC with its count, resolved once. */
struct site {
	uint32_t pc;
	uint64_t samples;
	size_t fn; /* index into the functions array */
	const char *file;
	unsigned line;
	double exact; /* samples scaled to cycles */
	uint64_t cycles;
	size_t rank; /* the function's place after sorting */
};

static int cmp_site(const void *a, const void *b)
{
	const struct site *x = a, *y = b;
	int c;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	if ((c = strcmp(x->file, y->file)))
		return c;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return (x->pc > y->pc) - (x->pc < y->pc);
}

static int cmp_remainder(const void *a, const void *b)
{
	const struct site *x = a, *y = b;
	double rx = x->exact - floor(x->exact), ry = y->exact - floor(y->exact);
	if (rx != ry)
		return rx < ry ? 1 : -1;
	return (x->pc > y->pc) - (x->pc < y->pc);
}

/* Integer cycles per site that add up to round(total) exactly (largest remainder), so every
 * writer's total equals the pair's cycles. Leaves sites sorted by remainder. */
static void apportion(struct site *sites, size_t n, uint64_t n_samples, double total)
{
	uint64_t want = (uint64_t)llround(total), have = 0;

	if (!n)
		return;
	for (size_t i = 0; i < n; i++) {
		sites[i].exact = total * (double)sites[i].samples / (double)n_samples;
		sites[i].cycles = (uint64_t)floor(sites[i].exact);
		have += sites[i].cycles;
	}
	qsort(sites, n, sizeof(*sites), cmp_remainder);
	for (size_t i = 0; have < want; i = (i + 1) % n, have++)
		sites[i].cycles++;
}

/* Distinct PCs of s, counted and resolved to a function (by name into fns) and a line. */
static int resolve(const struct profile_stretch *s, const struct elf_file *elf, struct profile_lines *lines,
                   struct site **out_sites, size_t *n_sites, struct fn_acc **out_fns, size_t *n_fns)
{
	uint32_t *pcs = malloc((s->n ? s->n : 1) * sizeof(*pcs));
	struct site *sites = calloc(s->n ? s->n : 1, sizeof(*sites));
	struct fn_acc *fns = calloc(s->n ? s->n : 1, sizeof(*fns));
	size_t ns = 0, nf = 0;

	if (!pcs || !sites || !fns) {
		free(pcs);
		free(sites);
		free(fns);
		return -1;
	}
	memcpy(pcs, s->pcs, s->n * sizeof(*pcs));
	qsort(pcs, s->n, sizeof(*pcs), cmp_u32);
	for (size_t i = 0; i < s->n; i++) {
		const struct elf_symbol *sym;
		char name[BENCH_NAME_MAX];
		uint32_t off;
		size_t f;

		if (ns && sites[ns - 1].pc == pcs[i]) {
			sites[ns - 1].samples++;
			fns[sites[ns - 1].fn].f.samples++;
			continue;
		}
		sym = elf ? elf_symbol_at(elf, pcs[i], &off) : NULL;
		str_fmt_cut(name, sizeof(name), "%s", sym && sym->is_func ? sym->name : "[unknown]");
		for (f = 0; f < nf && strcmp(fns[f].f.name, name); f++)
			;
		if (f == nf) {
			str_fmt_cut(fns[nf].f.name, sizeof(fns[nf].f.name), "%s", name);
			fns[nf].first = nf;
			nf++;
		}
		fns[f].f.samples++;
		sites[ns].pc = pcs[i];
		sites[ns].samples = 1;
		sites[ns].fn = f;
		if (!lines || !profile_lines_find(lines, pcs[i], &sites[ns].file, &sites[ns].line)) {
			sites[ns].file = "";
			sites[ns].line = 0;
		}
		ns++;
	}
	free(pcs);
	*out_sites = sites;
	*n_sites = ns;
	*out_fns = fns;
	*n_fns = nf;
	return 0;
}

/* Sites of one function on the same file and line become one line record. */
static int collect_lines(struct site *sites, size_t ns, const struct bench_profile_fn *fns, struct bench_profile *out)
{
	out->lines = calloc(ns ? ns : 1, sizeof(*out->lines));
	if (!out->lines)
		return -1;
	for (size_t i = 0; i < ns; i++) {
		struct bench_profile_line *l = out->n_lines ? &out->lines[out->n_lines - 1] : NULL;
		if (!l || i == 0 || sites[i - 1].rank != sites[i].rank || strcmp(l->file, sites[i].file) ||
		    l->line != sites[i].line) {
			l = &out->lines[out->n_lines++];
			str_fmt_cut(l->function, sizeof(l->function), "%s", fns[sites[i].rank].name);
			str_fmt_cut(l->file, sizeof(l->file), "%s", sites[i].file);
			l->line = sites[i].line;
		}
		l->samples += sites[i].samples;
		l->cycles += sites[i].cycles;
	}
	return 0;
}

int profile_aggregate(const struct profile_stretch *s, const struct elf_file *elf, struct profile_lines *lines,
                      double mean_cycles, struct bench_profile *out)
{
	struct site *sites;
	struct fn_acc *acc;
	size_t ns, nf, *rank_of;
	double n = (double)s->n;

	memset(out, 0, sizeof(*out));
	str_fmt_cut(out->name, sizeof(out->name), "%s", s->name);
	str_fmt_cut(out->source, sizeof(out->source), "DWT_PCSR");
	out->samples = s->n;
	out->discarded = s->discarded;
	out->cycles_known = mean_cycles >= 0;
	if (!out->cycles_known)
		mean_cycles = 0;
	out->cycles = mean_cycles;
	out->seconds = s->seconds;
	if (resolve(s, elf, lines, &sites, &ns, &acc, &nf))
		return -1;
	rank_of = calloc(nf ? nf : 1, sizeof(*rank_of));
	out->functions = calloc(nf ? nf : 1, sizeof(*out->functions));
	if (!rank_of || !out->functions) {
		free(rank_of);
		free(sites);
		free(acc);
		results_profile_free(out);
		return -1;
	}
	qsort(acc, nf, sizeof(*acc), cmp_fn);
	for (size_t f = 0; f < nf; f++) {
		struct bench_profile_fn *fn = &out->functions[f];
		double p = (double)acc[f].f.samples / n;

		*fn = acc[f].f;
		rank_of[acc[f].first] = f;
		fn->share = p;
		/* The share is a binomial proportion: its standard error is sqrt(p (1 - p) / n). */
		fn->error = sqrt(p * (1.0 - p) / n);
		fn->cycles = p * mean_cycles;
	}
	out->n_functions = nf;
	free(acc);
	for (size_t i = 0; i < ns; i++)
		sites[i].rank = rank_of[sites[i].fn];
	free(rank_of);
	apportion(sites, ns, s->n, mean_cycles);
	qsort(sites, ns, sizeof(*sites), cmp_site);
	if (collect_lines(sites, ns, out->functions, out)) {
		free(sites);
		results_profile_free(out);
		return -1;
	}
	free(sites);
	return 0;
}

/* The mean cycles of every sample of rep's results named name (all inputs); -1 when none. */
static double mean_of(const struct bench_report *rep, const char *name)
{
	double sum = 0;
	size_t n = 0;

	for (size_t i = 0; i < rep->n_results; i++) {
		const struct bench_result *r = &rep->results[i];
		if (strcmp(r->name, name) || strcmp(r->unit, "cycles"))
			continue;
		for (size_t k = 0; k < r->n_samples; k++)
			sum += (double)r->samples[k];
		n += r->n_samples;
	}
	return n ? sum / (double)n : -1.0;
}

int profile_to_report(const struct profile *p, const char *elf_path, const struct elf_file *elf,
                      struct bench_report *rep, struct bench_error *err)
{
	struct profile_lines *lines;
	int rc = 0;

	if (!p->n)
		return 0;
	rep->profiles = calloc(p->n, sizeof(*rep->profiles));
	if (!rep->profiles)
		return bench_fail(err, BENCH_E_NOMEM, "out of memory counting the profile");
	lines = profile_lines_open(elf_path);
	for (size_t i = 0; i < p->n && !rc; i++) {
		if (!p->stretches[i].n) { /* too short for one read: said, not shown as an empty profile */
			char w[256];
			str_fmt_cut(
			    w, sizeof(w),
			    "--profile: no PCSR sample of %s (each of its stretches ended before a read landed in "
			    "it): repeat it in a loop inside the stretch, or give it a longer input",
			    p->stretches[i].name);
			(void)results_add_warning(rep, w); /* a full list already warns */
			continue;
		}
		if (profile_aggregate(&p->stretches[i], elf, lines, mean_of(rep, p->stretches[i].name),
		                      &rep->profiles[rep->n_profiles]))
			rc = bench_fail(err, BENCH_E_NOMEM, "out of memory counting the profile");
		else
			rep->n_profiles++;
	}
	profile_lines_close(lines);
	return rc;
}
