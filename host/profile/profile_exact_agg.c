/* One result's ledger counted per instruction, function, call stack, call and source line
 * (profile_exact.h). A cell's function is the ELF symbol covering its address; its call stack is
 * the path of calling-context nodes from the root, each named by the symbol at its entry, with the
 * cell's own function added when it is not the node's (a tail call by B pushes no node,
 * docs/sim-record.md). An exception's handler is a node of its own, so it is its own frame. */
#include <stdlib.h>
#include <string.h>

#include "base/str.h"
#include "profile/profile_exact.h"

#define STACK_MAX 4096 /* characters of one folded stack; deeper ones keep their innermost frames */

/* What each cell resolves to, once. */
struct cell_info {
	size_t fn;        /* index into the functions */
	const char *file; /* owned by the profile_lines */
	unsigned line;
};

struct agg {
	const struct profile_exact *x;
	const struct profile_ledger *l;
	const struct elf_file *elf;
	struct bench_profile *out;
	size_t cap_fns;
};

static void name_at(const struct elf_file *elf, uint32_t addr, char *out, size_t len)
{
	uint32_t off;
	const struct elf_symbol *sym = elf ? elf_symbol_at(elf, addr, &off) : NULL;

	str_fmt_cut(out, len, "%s", sym && sym->is_func ? sym->name : "[unknown]");
}

/* The function of that name, added when new; SIZE_MAX when out of memory. */
static size_t fn_index(struct agg *a, const char *name)
{
	struct bench_profile *p = a->out;

	for (size_t i = 0; i < p->n_functions; i++)
		if (!strcmp(p->functions[i].name, name))
			return i;
	if (p->n_functions == a->cap_fns) {
		size_t cap = a->cap_fns ? 2 * a->cap_fns : 16;
		struct bench_profile_fn *f = realloc(p->functions, cap * sizeof(*f));
		if (!f)
			return SIZE_MAX;
		p->functions = f;
		a->cap_fns = cap;
	}
	memset(&p->functions[p->n_functions], 0, sizeof(p->functions[0]));
	str_fmt_cut(p->functions[p->n_functions].name, BENCH_NAME_MAX, "%s", name);
	p->functions[p->n_functions].by_reason = calloc(p->n_reasons ? p->n_reasons : 1, sizeof(uint64_t));
	if (!p->functions[p->n_functions].by_reason)
		return SIZE_MAX;
	return p->n_functions++;
}

/* The frames of node n from the root, outermost first, separated by ';', then `leaf` unless it is
 * the innermost frame already. A stack deeper than STACK_DEPTH keeps its innermost frames. */
#define STACK_DEPTH 256
static void stack_of(const struct agg *a, uint32_t n, const char *leaf, char *out, size_t len)
{
	int64_t path[STACK_DEPTH], k = n;
	size_t depth = 0;
	char name[BENCH_NAME_MAX];
	const char *last = "";

	out[0] = '\0';
	for (; k >= 0 && (size_t)k < a->x->n_nodes && depth < STACK_DEPTH; k = a->x->nodes[k].parent)
		path[depth++] = k;
	while (depth-- > 0) {
		name_at(a->elf, a->x->nodes[path[depth]].entry, name, sizeof(name));
		(void)str_append(out, len, "%s%s", out[0] ? ";" : "", name); /* a cut stack still sums right */
		last = strrchr(out, ';') ? strrchr(out, ';') + 1 : out;
	}
	if (strcmp(last, leaf))
		(void)str_append(out, len, "%s%s", out[0] ? ";" : "", leaf);
}

/* Whether `name` is a frame of the ';'-separated stack. */
static bool on_stack(const char *stack, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = stack; p; p = strchr(p, ';')) {
		if (*p == ';')
			p++;
		if (!strncmp(p, name, n) && (p[n] == ';' || !p[n]))
			return true;
	}
	return false;
}

static int add_stack(struct bench_profile *p, const char *frames, uint64_t cycles, size_t *cap)
{
	for (size_t i = 0; i < p->n_stacks; i++)
		if (!strcmp(p->stacks[i].frames, frames)) {
			p->stacks[i].cycles += cycles;
			return 0;
		}
	if (p->n_stacks == *cap) {
		size_t c = *cap ? 2 * *cap : 16;
		struct bench_profile_stack *s = realloc(p->stacks, c * sizeof(*s));
		if (!s)
			return -1;
		p->stacks = s;
		*cap = c;
	}
	if (!(p->stacks[p->n_stacks].frames = strdup(frames)))
		return -1;
	p->stacks[p->n_stacks++].cycles = cycles;
	return 0;
}

/* Exclusive and inclusive cycles per function, the stacks, and the cells' functions and lines. */
static int count_cells(struct agg *a, struct profile_lines *lines, struct cell_info *info)
{
	const struct profile_ledger *l = a->l;
	struct bench_profile *p = a->out;
	size_t cap_stacks = 0;
	char *stack = malloc(STACK_MAX);

	if (!stack)
		return -1;
	for (size_t i = 0; i < l->n; i++) {
		const struct profile_cell *c = &l->cells[i];
		char name[BENCH_NAME_MAX];
		uint64_t cyc = 0;
		struct bench_profile_fn *f;

		name_at(a->elf, c->addr, name, sizeof(name));
		if ((info[i].fn = fn_index(a, name)) == SIZE_MAX) {
			free(stack);
			return -1;
		}
		f = &p->functions[info[i].fn];
		for (size_t r = 0; r < l->n_reasons; r++) {
			f->by_reason[r] += profile_ledger_cycles(l, i, r);
			cyc += profile_ledger_cycles(l, i, r);
		}
		f->self += cyc;
		f->execs += c->execs;
		if (!lines || !profile_lines_find(lines, c->addr, &info[i].file, &info[i].line)) {
			info[i].file = "";
			info[i].line = 0;
		}
		stack_of(a, c->node, name, stack, STACK_MAX);
		if (add_stack(p, stack, cyc, &cap_stacks)) {
			free(stack);
			return -1;
		}
	}
	free(stack);
	/* Inclusive: every stack's cycles count once for each function on it. */
	for (size_t s = 0; s < p->n_stacks; s++)
		for (size_t f = 0; f < p->n_functions; f++)
			if (on_stack(p->stacks[s].frames, p->functions[f].name))
				p->functions[f].incl += p->stacks[s].cycles;
	return 0;
}

static int cmp_stack(const void *a, const void *b)
{
	const struct bench_profile_stack *x = a, *y = b;
	if (x->cycles != y->cycles)
		return x->cycles < y->cycles ? 1 : -1;
	return strcmp(x->frames, y->frames);
}

/* The calls: node n entered from its parent, with the cycles of n's subtree. */
static int count_calls(struct agg *a)
{
	const struct profile_exact *x = a->x;
	const struct profile_ledger *l = a->l;
	struct bench_profile *p = a->out;
	size_t nr = l->n_reasons ? l->n_reasons : 1;
	uint64_t *sub = calloc((x->n_nodes ? x->n_nodes : 1) * nr, sizeof(*sub));
	uint32_t *first = calloc(x->n_nodes ? x->n_nodes : 1, sizeof(*first));
	uint64_t *sub_execs = calloc(x->n_nodes ? x->n_nodes : 1, sizeof(*sub_execs));
	size_t cap = 0;

	if (!sub || !first || !sub_execs) {
		free(sub);
		free(first);
		free(sub_execs);
		return -1;
	}
	for (size_t i = 0; i < l->n; i++) {
		uint32_t n = l->cells[i].node;
		if (n >= x->n_nodes)
			continue;
		for (size_t r = 0; r < l->n_reasons; r++)
			sub[n * nr + r] += profile_ledger_cycles(l, i, r);
		sub_execs[n] += l->cells[i].execs;
		if (!first[n] || l->cells[i].addr < first[n])
			first[n] = l->cells[i].addr;
	}
	/* A parent's id is below its child's: one pass from the last id up sums every subtree. */
	for (size_t n = x->n_nodes; n-- > 0;) {
		if (x->nodes[n].parent < 0)
			continue;
		for (size_t r = 0; r < l->n_reasons; r++)
			sub[(size_t)x->nodes[n].parent * nr + r] += sub[n * nr + r];
		sub_execs[x->nodes[n].parent] += sub_execs[n];
	}
	for (size_t n = 0; n < x->n_nodes; n++) {
		const struct profile_node *nd = &x->nodes[n];
		uint64_t calls = n < l->n_enters ? l->enters[n] : 0, incl = 0;
		char caller[BENCH_NAME_MAX], callee[BENCH_NAME_MAX];
		size_t k;

		for (size_t r = 0; r < l->n_reasons; r++)
			incl += sub[n * nr + r];
		if (nd->parent < 0 || (!calls && !incl))
			continue;
		name_at(a->elf, x->nodes[nd->parent].entry, caller, sizeof(caller));
		name_at(a->elf, nd->entry, callee, sizeof(callee));
		if ((k = fn_index(a, callee)) == SIZE_MAX)
			break;
		p->functions[k].calls += calls;
		for (k = 0;
		     k < p->n_calls && (strcmp(p->calls[k].caller, caller) || strcmp(p->calls[k].callee, callee)); k++)
			;
		if (k == p->n_calls) {
			if (k == cap) {
				size_t c = cap ? 2 * cap : 16;
				struct bench_profile_call *v = realloc(p->calls, c * sizeof(*v));
				if (!v)
					break;
				p->calls = v;
				cap = c;
			}
			memset(&p->calls[k], 0, sizeof(p->calls[k]));
			str_fmt_cut(p->calls[k].caller, BENCH_NAME_MAX, "%s", caller);
			str_fmt_cut(p->calls[k].callee, BENCH_NAME_MAX, "%s", callee);
			p->calls[k].caller_addr = first[nd->parent] ? first[nd->parent] : x->nodes[nd->parent].entry;
			if (!(p->calls[k].incl_by_reason = calloc(nr, sizeof(uint64_t))))
				break;
			p->n_calls++;
		}
		p->calls[k].calls += calls;
		p->calls[k].incl += incl;
		p->calls[k].incl_execs += sub_execs[n];
		for (size_t r = 0; r < l->n_reasons; r++)
			p->calls[k].incl_by_reason[r] += sub[n * nr + r];
	}
	free(sub);
	free(first);
	free(sub_execs);
	return 0;
}

static int cmp_insn(const void *a, const void *b)
{
	const struct bench_profile_insn *x = a, *y = b;
	return (x->addr > y->addr) - (x->addr < y->addr);
}

/* Per instruction (all contexts together, by address) and per (function, file, line). */
static int count_insns_lines(struct agg *a, const struct cell_info *info, const size_t *rank)
{
	const struct profile_ledger *l = a->l;
	struct bench_profile *p = a->out;
	size_t nr = l->n_reasons ? l->n_reasons : 1;

	p->insns = calloc(l->n ? l->n : 1, sizeof(*p->insns));
	p->lines = calloc(l->n ? l->n : 1, sizeof(*p->lines));
	if (!p->insns || !p->lines)
		return -1;
	for (size_t i = 0; i < l->n; i++) { /* cells are by address (profile_ledger_take sorts them) */
		const struct profile_cell *c = &l->cells[i];
		struct bench_profile_insn *in = NULL;
		uint64_t cyc = 0;

		for (size_t k = 0; k < p->n_insns && !in; k++)
			if (p->insns[k].addr == c->addr)
				in = &p->insns[k];
		if (!in) {
			in = &p->insns[p->n_insns++];
			in->addr = c->addr;
			str_fmt_cut(in->function, sizeof(in->function), "%s", p->functions[rank[info[i].fn]].name);
			str_fmt_cut(in->file, sizeof(in->file), "%s", info[i].file);
			in->line = info[i].line;
			if (!(in->by_reason = calloc(nr, sizeof(uint64_t))))
				return -1;
		}
		for (size_t r = 0; r < l->n_reasons; r++) {
			in->by_reason[r] += profile_ledger_cycles(l, i, r);
			cyc += profile_ledger_cycles(l, i, r);
		}
		in->execs += c->execs;
		in->cycles += cyc;
	}
	qsort(p->insns, p->n_insns, sizeof(*p->insns), cmp_insn);
	/* Lines by function (most cycles first), then in the order of their first instruction. */
	for (size_t f = 0; f < p->n_functions; f++) {
		size_t from = p->n_lines;
		for (size_t i = 0; i < p->n_insns; i++) {
			const struct bench_profile_insn *in = &p->insns[i];
			struct bench_profile_line *ln = NULL;
			if (strcmp(in->function, p->functions[f].name))
				continue;
			for (size_t k = from; k < p->n_lines && !ln; k++)
				if (!strcmp(p->lines[k].file, in->file) && p->lines[k].line == in->line)
					ln = &p->lines[k];
			if (!ln) {
				ln = &p->lines[p->n_lines++];
				str_fmt_cut(ln->function, sizeof(ln->function), "%s", in->function);
				str_fmt_cut(ln->file, sizeof(ln->file), "%s", in->file);
				ln->line = in->line;
			}
			ln->cycles += in->cycles;
			ln->execs += in->execs;
		}
	}
	return 0;
}

static int cmp_fn_self(const void *a, const void *b)
{
	const struct bench_profile_fn *x = a, *y = b;
	if (x->self != y->self)
		return x->self < y->self ? 1 : -1;
	if (x->incl != y->incl)
		return x->incl < y->incl ? 1 : -1;
	return strcmp(x->name, y->name);
}

/* Functions most exclusive cycles first; rank[old index] = new index. */
static int sort_functions(struct bench_profile *p, size_t *rank)
{
	struct bench_profile_fn *old = malloc((p->n_functions ? p->n_functions : 1) * sizeof(*old));

	if (!old)
		return -1;
	memcpy(old, p->functions, p->n_functions * sizeof(*old));
	qsort(p->functions, p->n_functions, sizeof(*p->functions), cmp_fn_self);
	for (size_t i = 0; i < p->n_functions; i++)
		for (size_t k = 0; k < p->n_functions; k++)
			if (!strcmp(old[i].name, p->functions[k].name))
				rank[i] = k;
	free(old);
	return 0;
}

int profile_exact_aggregate(const struct profile_exact *x, const struct profile_exact_result *res,
                            const struct elf_file *elf, struct profile_lines *lines, struct bench_profile *out)
{
	/* Stretches that all ran alike: the profile of one; else of their sum. */
	const struct profile_ledger *l = res->differ ? &res->l : &res->first;
	struct agg a = {.x = x, .l = l, .elf = elf, .out = out};
	struct cell_info *info = calloc(l->n ? l->n : 1, sizeof(*info));
	size_t *rank = NULL;
	int rc = -1;

	memset(out, 0, sizeof(*out));
	str_fmt_cut(out->name, sizeof(out->name), "%s", res->name);
	str_fmt_cut(out->source, sizeof(out->source), "ledger");
	str_fmt_cut(out->note, sizeof(out->note), "%s", res->note);
	out->exact = true;
	memcpy(out->args, res->args, res->n_args * sizeof(res->args[0]));
	out->n_args = res->n_args;
	out->stretches = res->stretches;
	out->summed = res->differ;
	out->total = l->total;
	out->cycles = (double)l->total;
	out->cycles_known = true;
	out->n_reasons = x->n_reasons;
	out->reasons = calloc(x->n_reasons ? x->n_reasons : 1, sizeof(*out->reasons));
	if (!info || !out->reasons)
		goto done;
	memcpy(out->reasons, x->reasons, x->n_reasons * sizeof(*out->reasons));
	if (count_cells(&a, lines, info) || count_calls(&a))
		goto done;
	if (!(rank = malloc((out->n_functions ? out->n_functions : 1) * sizeof(*rank))) || sort_functions(out, rank))
		goto done;
	for (size_t f = 0; f < out->n_functions; f++) {
		struct bench_profile_fn *fn = &out->functions[f];
		fn->cycles = (double)fn->self;
		fn->share = out->total ? (double)fn->self / (double)out->total : 0;
	}
	qsort(out->stacks, out->n_stacks, sizeof(*out->stacks), cmp_stack);
	if (count_insns_lines(&a, info, rank))
		goto done;
	rc = 0;
done:
	free(info);
	free(rank);
	if (rc)
		results_profile_free(out);
	return rc;
}
