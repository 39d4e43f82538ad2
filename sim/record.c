/* bench-sim --record=PATH (record.h, docs/sim-record.md): the cycle ledger's charges and the core's
 * instructions by calling context and address, written as one record at every entry to Debug
 * state. The core says what ran and how control moved (core.h struct core_rec_ops); the ledger
 * (core_set_ledger) says what each cycle was for. Both land in the context on top of a shadow
 * call stack: BL/BLX push, a return-like branch to a frame's return address pops, exception
 * entry pushes and return pops, a tail-chain replaces the handler. */
#include "record.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bus/msg.h"

/* Frames grow as calls nest (a deep recursion is a real program's); past this many the call tree
 * is no longer one bench can show (a context switch that never returns, say): the record fails. */
#define REC_MAX_FRAMES (1u << 20)
#define REC_PEND       16u   /* the last charges before a block starts (a ring): its entry's among them */
#define REC_HELD       8u    /* exception overheads before the handler's first block (entry, tail-chain) */
#define REC_RUNS       4096u /* blocks whose entries are remembered (direct-mapped) */

enum rec_kind { K_ROOT, K_CALL, K_EXC };

struct rec_node {
	int64_t parent;
	uint32_t entry;
	uint16_t exc;
	uint8_t kind;
	bool written;
	uint64_t enters; /* in the current interval */
};

struct rec_frame {
	uint32_t node;
	uint32_t ret; /* a call's return address */
	uint16_t exc; /* an exception's number; 0: a call (or the root) */
};

struct rec_ent {
	uint64_t key; /* node << 32 | address */
	uint64_t execs;
	uint64_t cyc[CORE_CHARGE_N];
};

/* A block run in a context: the entries of its instructions, so that counting it costs one lookup. */
struct rec_run {
	uint64_t key; /* node << 32 | the block's address */
	uint32_t n;   /* instructions run; 0: empty */
	uint32_t *idx;
};

struct rec_pend {
	uint32_t ent;
	uint8_t why;
	uint64_t cycles;
};

struct sim_rec {
	struct sim_core *core;
	FILE *f;
	char path[1024];
	bool failed;

	struct rec_node *nodes;
	size_t n_nodes, cap_nodes;
	uint32_t *node_hash; /* id + 1, by (parent, entry, kind, exc); 0: empty */
	size_t node_hash_cap;

	struct rec_frame *frames;
	unsigned depth, cap_frames;

	struct rec_ent *ents;
	size_t n_ents, cap_ents;
	uint32_t *ent_hash; /* index + 1 by key */
	size_t ent_hash_cap;

	struct rec_run runs[REC_RUNS];
	struct rec_pend pend[REC_PEND];
	unsigned n_pend;
	/* Exception overheads charged before the stack says whose they are (on_exceptions). */
	bool hold;
	struct rec_pend held[REC_HELD]; /* .ent unused */
	unsigned n_held;

	uint64_t sum, prev_total, prev_exc, seq;
};

static uint64_t mix(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdull;
	k ^= k >> 33;
	return k;
}

static void fail(struct sim_rec *r, const char *what)
{
	if (!r->failed)
		sim_msg("record: %s (%s): %s", r->path, what, errno ? strerror(errno) : "out of memory");
	r->failed = true;
}

static int rehash_ents(struct sim_rec *r, size_t cap)
{
	uint32_t *h = calloc(cap, sizeof(*h));
	if (!h)
		return -1;
	for (size_t i = 0; i < r->n_ents; i++) {
		size_t j = mix(r->ents[i].key) & (cap - 1);
		while (h[j])
			j = (j + 1) & (cap - 1);
		h[j] = (uint32_t)i + 1;
	}
	free(r->ent_hash);
	r->ent_hash = h;
	r->ent_hash_cap = cap;
	return 0;
}

/* The entry of (node, addr), created at 0; NULL when out of memory (the run then stops). */
static struct rec_ent *ent_at(struct sim_rec *r, uint32_t node, uint32_t addr, uint32_t *index)
{
	uint64_t key = (uint64_t)node << 32 | addr;
	size_t mask = r->ent_hash_cap - 1;
	size_t j = mix(key) & mask;
	for (uint32_t v; (v = r->ent_hash[j]) != 0; j = (j + 1) & mask) {
		if (r->ents[v - 1].key == key) {
			*index = v - 1;
			return &r->ents[v - 1];
		}
	}
	if (r->n_ents == r->cap_ents) {
		size_t cap = r->cap_ents ? r->cap_ents * 2 : 64;
		struct rec_ent *e = realloc(r->ents, cap * sizeof(*e));
		if (!e)
			return NULL;
		r->ents = e;
		r->cap_ents = cap;
	}
	struct rec_ent *e = &r->ents[r->n_ents];
	memset(e, 0, sizeof(*e));
	e->key = key;
	r->ent_hash[j] = (uint32_t)++r->n_ents;
	*index = (uint32_t)(r->n_ents - 1);
	if (r->n_ents * 2 > r->ent_hash_cap && rehash_ents(r, r->ent_hash_cap * 2) < 0)
		return NULL;
	return &r->ents[*index];
}

static uint32_t cur_node(const struct sim_rec *r)
{
	return r->frames[r->depth - 1].node;
}

static uint64_t node_key(int64_t parent, uint32_t entry, unsigned kind, unsigned exc)
{
	return mix((uint64_t)(parent + 1) << 32 ^ entry) ^ mix((uint64_t)kind << 16 | exc);
}

/* The child of `parent` for (entry, kind, exc), created once; UINT32_MAX when out of memory. */
static uint32_t node_get(struct sim_rec *r, int64_t parent, uint32_t entry, unsigned kind, unsigned exc)
{
	size_t mask = r->node_hash_cap - 1;
	size_t j = node_key(parent, entry, kind, exc) & mask;
	for (uint32_t v; (v = r->node_hash[j]) != 0; j = (j + 1) & mask) {
		const struct rec_node *n = &r->nodes[v - 1];
		if (n->parent == parent && n->entry == entry && n->kind == kind && n->exc == exc)
			return v - 1;
	}
	if (r->n_nodes == r->cap_nodes || (r->n_nodes + 1) * 2 > r->node_hash_cap) {
		size_t cap = r->cap_nodes ? r->cap_nodes * 2 : 64;
		struct rec_node *nn = realloc(r->nodes, cap * sizeof(*nn));
		uint32_t *h = calloc(r->node_hash_cap * 2, sizeof(*h));
		if (!nn || !h) {
			free(h);
			if (nn)
				r->nodes = nn;
			return UINT32_MAX;
		}
		r->nodes = nn;
		r->cap_nodes = cap;
		free(r->node_hash);
		r->node_hash = h;
		r->node_hash_cap *= 2;
		mask = r->node_hash_cap - 1;
		for (size_t i = 0; i < r->n_nodes; i++) {
			const struct rec_node *n = &r->nodes[i];
			size_t k = node_key(n->parent, n->entry, n->kind, n->exc) & mask;
			while (h[k])
				k = (k + 1) & mask;
			h[k] = (uint32_t)i + 1;
		}
		j = node_key(parent, entry, kind, exc) & mask;
		while (h[j])
			j = (j + 1) & mask;
	}
	r->nodes[r->n_nodes] =
	    (struct rec_node){.parent = parent, .entry = entry, .kind = (uint8_t)kind, .exc = (uint16_t)exc};
	r->node_hash[j] = (uint32_t)++r->n_nodes;
	return (uint32_t)(r->n_nodes - 1);
}

/* Doubles the frame stack (the root's frame is always there: cap_frames >= 1 once started). */
static int grow_frames(struct sim_rec *r)
{
	unsigned cap = r->cap_frames ? r->cap_frames * 2u : 64u;
	struct rec_frame *f = realloc(r->frames, cap * sizeof(*f));
	if (!f)
		return -1;
	r->frames = f;
	r->cap_frames = cap;
	return 0;
}

static void push(struct sim_rec *r, uint32_t entry, unsigned kind, unsigned exc, uint32_t ret)
{
	uint32_t id = node_get(r, cur_node(r), entry, kind, exc);
	if (id == UINT32_MAX) {
		fail(r, "a new calling context");
		return;
	}
	if (r->depth == REC_MAX_FRAMES) {
		errno = 0;
		if (!r->failed)
			sim_msg("record: %s: calls nested deeper than %u: not a call tree bench can record", r->path,
			        REC_MAX_FRAMES);
		r->failed = true;
		return;
	}
	if (r->depth == r->cap_frames && grow_frames(r) != 0) {
		fail(r, "a call's frame");
		return;
	}
	r->nodes[id].enters++;
	r->frames[r->depth++] = (struct rec_frame){.node = id, .ret = ret, .exc = (uint16_t)exc};
}

static void on_charge(void *ctx, uint32_t pc, enum core_charge_why why, uint64_t cycles)
{
	struct sim_rec *r = ctx;
	uint32_t idx;
	if (r->hold && r->n_held < REC_HELD) {
		r->hold = false;
		r->held[r->n_held++] = (struct rec_pend){.why = (uint8_t)why, .cycles = cycles};
		r->sum += cycles;
		return;
	}
	r->hold = false;
	struct rec_ent *e = ent_at(r, cur_node(r), pc & ~1u, &idx);
	if (!e) {
		fail(r, "a charge");
		return;
	}
	e->cyc[why] += cycles;
	r->sum += cycles;
	/* A ring: the last charges before a block starts are its entry's. */
	r->pend[r->n_pend++ % REC_PEND] = (struct rec_pend){.ent = idx, .why = (uint8_t)why, .cycles = cycles};
}

static void on_ran(void *ctx, uint32_t addr, const uint16_t *offsets, unsigned n)
{
	struct sim_rec *r = ctx;
	if (!n)
		return;
	uint64_t base = (uint64_t)cur_node(r) << 32;
	struct rec_run *run = &r->runs[(mix(base | addr) * 31u + n) & (REC_RUNS - 1)];
	unsigned i = 0;
	if (run->key == (base | addr) && run->n == n) {
		/* Each entry checked against its address: code rewritten at addr is another run. */
		for (; i < n && r->ents[run->idx[i]].key == (base | (addr + offsets[i])); i++)
			r->ents[run->idx[i]].execs++;
		if (i == n)
			return;
	}
	uint32_t *idx = realloc(run->idx, n * sizeof(*idx));
	run->n = 0;
	if (!idx) {
		fail(r, "an instruction");
		return;
	}
	run->idx = idx;
	for (unsigned k = 0; k < n; k++) {
		struct rec_ent *e = ent_at(r, (uint32_t)(base >> 32), addr + offsets[k], &idx[k]);
		if (!e) {
			fail(r, "an instruction");
			return;
		}
		if (k >= i) /* the first i were counted above */
			e->execs++;
	}
	run->key = base | addr;
	run->n = n;
}

static void on_call(void *ctx, uint32_t entry, uint32_t ret)
{
	push(ctx, entry & ~1u, K_CALL, 0, ret & ~1u);
}

static void on_branch(void *ctx, uint32_t to)
{
	struct sim_rec *r = ctx;
	to &= ~1u;
	/* Down to the innermost exception: code never returns into the code it interrupted. */
	for (unsigned i = r->depth; i-- > 1 && !r->frames[i].exc;) {
		if (r->frames[i].ret == to) {
			r->depth = i;
			return;
		}
	}
}

static void on_exc_charge(void *ctx)
{
	((struct sim_rec *)ctx)->hold = true;
}

/* The held exception overheads go to the handler entered (entry, tail-chain) or, when none was,
 * to the one returned from, at its entry address (docs/sim-record.md). */
static void settle_held(struct sim_rec *r, uint32_t node)
{
	uint32_t idx;
	for (unsigned i = 0; i < r->n_held; i++) {
		struct rec_ent *e = ent_at(r, node, r->nodes[node].entry, &idx);
		if (!e) {
			fail(r, "a charge");
			break;
		}
		e->cyc[r->held[i].why] += r->held[i].cycles;
	}
	r->n_held = 0;
}

static void on_exceptions(void *ctx, unsigned ipsr, const bool *active, unsigned n, uint32_t pc)
{
	struct sim_rec *r = ctx;
	uint32_t owner = cur_node(r);
	for (unsigned i = 1; i < r->depth; i++) {
		unsigned e = r->frames[i].exc;
		if (e && (e >= n || !active[e])) {
			owner = r->frames[i].node;
			r->depth = i; /* returned (or tail-chained away): its calls with it */
			break;
		}
	}
	bool known = !ipsr;
	for (unsigned i = r->depth; !known && i-- > 1;)
		known = r->frames[i].exc == ipsr;
	if (!known) {
		push(r, pc & ~1u, K_EXC, ipsr, 0);
		owner = cur_node(r);
	}
	settle_held(r, owner);
}

/* The clock charged the entry of the block at addr before the core told us the moves that lead
 * there: those charges belong to the context the block runs in. */
static void on_begin(void *ctx, uint32_t addr)
{
	struct sim_rec *r = ctx;
	uint32_t node = cur_node(r), idx;
	uint64_t key = (uint64_t)node << 32 | addr;
	for (unsigned i = 0; i < r->n_pend && i < REC_PEND; i++) {
		struct rec_ent *from = &r->ents[r->pend[i].ent];
		if ((uint32_t)from->key != addr || from->key == key)
			continue;
		struct rec_ent *to = ent_at(r, node, addr, &idx);
		if (!to) {
			fail(r, "a charge");
			return;
		}
		from = &r->ents[r->pend[i].ent]; /* ent_at may have moved the table */
		from->cyc[r->pend[i].why] -= r->pend[i].cycles;
		to->cyc[r->pend[i].why] += r->pend[i].cycles;
	}
	r->n_pend = 0;
}

/* Also called once by core_set_recorder() with the PC to start from: the root's entry. */
static void on_reset(void *ctx, uint32_t pc)
{
	struct sim_rec *r = ctx;
	if (!r->n_nodes && node_get(r, -1, pc & ~1u, K_ROOT, 0) == UINT32_MAX)
		fail(r, "the root context");
	if (r->n_nodes)
		settle_held(r, r->depth ? cur_node(r) : 0); /* reset inside an exception's overhead */
	if (!r->cap_frames && grow_frames(r) != 0) {
		fail(r, "the root context");
		return;
	}
	r->frames[0] = (struct rec_frame){.node = 0};
	r->depth = 1;
}

struct rec_sort {
	uint64_t key;
	size_t i;
};

static int cmp_key(const void *a, const void *b)
{
	uint64_t x = ((const struct rec_sort *)a)->key, y = ((const struct rec_sort *)b)->key;
	return x < y ? -1 : x > y;
}

static const char *kind_name(const struct rec_node *n, char *buf, size_t len)
{
	if (n->kind == K_ROOT)
		return "root";
	if (n->kind == K_CALL)
		return "call";
	(void)snprintf(buf, len, "exc:%u", n->exc);
	return buf;
}

static bool touched(const struct rec_ent *e)
{
	if (e->execs)
		return true;
	for (unsigned k = 0; k < CORE_CHARGE_N; k++)
		if (e->cyc[k])
			return true;
	return false;
}

static int write_record(struct sim_rec *r, uint32_t cyccnt, uint64_t total, uint64_t exc)
{
	FILE *f = r->f;
	char kb[16];
	for (size_t i = 0; i < r->n_nodes; i++) {
		struct rec_node *n = &r->nodes[i];
		if (!n->written)
			fprintf(f, "fn %zu %" PRId64 " %" PRIx32 " %s\n", i, n->parent, n->entry,
			        kind_name(n, kb, sizeof(kb)));
		n->written = true;
	}
	uint32_t msp, psp;
	core_rec_sp_min(r->core, &msp, &psp);
	fprintf(f,
	        "halt %" PRIu64 " cyccnt %" PRIu32 " total %" PRIu64 " msp_min %" PRIx32 " psp_min %" PRIx32
	        " exc %" PRIu64 "\n",
	        r->seq, cyccnt, total, msp, psp, exc);
	for (size_t i = 0; i < r->n_nodes; i++) {
		if (r->nodes[i].enters)
			fprintf(f, "enter %zu %" PRIu64 "\n", i, r->nodes[i].enters);
		r->nodes[i].enters = 0;
	}
	struct rec_sort *list = malloc((r->n_ents ? r->n_ents : 1) * sizeof(*list));
	if (!list)
		return -1;
	size_t n = 0;
	for (size_t i = 0; i < r->n_ents; i++)
		if (touched(&r->ents[i]))
			list[n++] = (struct rec_sort){.key = r->ents[i].key, .i = i};
	qsort(list, n, sizeof(*list), cmp_key);
	for (size_t i = 0; i < n; i++) {
		struct rec_ent *e = &r->ents[list[i].i];
		fprintf(f, "pc %" PRIu32 " %" PRIx32 " %" PRIu64, (uint32_t)(e->key >> 32), (uint32_t)e->key, e->execs);
		for (unsigned k = 0; k < CORE_CHARGE_N; k++)
			fprintf(f, " %" PRIu64, e->cyc[k]);
		fputc('\n', f);
		e->execs = 0;
		memset(e->cyc, 0, sizeof(e->cyc));
	}
	free(list);
	fprintf(f, "end %" PRIu64 "\n", r->seq);
	return fflush(f) == 0 && !ferror(f) ? 0 : -1;
}

static int on_halt(void *ctx, uint32_t cyccnt)
{
	struct sim_rec *r = ctx;
	if (r->failed)
		return -1;
	struct core_stats st;
	core_get_stats(r->core, &st);
	r->seq++;
	if (r->sum != st.cycles - r->prev_total) {
		sim_msg("record: %s: record %" PRIu64 ": the ledger saw %" PRIu64 " cycles, the core counted %" PRIu64
		        ": a charge outside the ledger (a bug of the cycle model; report it)",
		        r->path, r->seq, r->sum, st.cycles - r->prev_total);
		r->failed = true;
		return -1;
	}
	errno = 0;
	if (write_record(r, cyccnt, st.cycles, st.exceptions - r->prev_exc) != 0) {
		fail(r, "writing a record");
		return -1;
	}
	r->n_pend = 0;
	r->sum = 0;
	r->prev_total = st.cycles;
	r->prev_exc = st.exceptions;
	return 0;
}

static const struct core_rec_ops rec_ops = {
    .ran = on_ran,
    .call = on_call,
    .branch = on_branch,
    .exc_charge = on_exc_charge,
    .exceptions = on_exceptions,
    .begin = on_begin,
    .reset = on_reset,
    .halt = on_halt,
};

int sim_rec_start(struct sim_rec **out, struct sim_core *core, const char *path)
{
	struct sim_rec *r = calloc(1, sizeof(*r));
	*out = r;
	if (!r) {
		sim_msg("record: out of memory");
		return -1;
	}
	r->core = core;
	(void)snprintf(r->path, sizeof(r->path), "%s", path);
	r->cap_nodes = 64;
	r->node_hash_cap = 128;
	r->cap_ents = 4096;
	r->ent_hash_cap = 8192;
	r->nodes = calloc(r->cap_nodes, sizeof(*r->nodes));
	r->node_hash = calloc(r->node_hash_cap, sizeof(*r->node_hash));
	r->ents = calloc(r->cap_ents, sizeof(*r->ents));
	r->ent_hash = calloc(r->ent_hash_cap, sizeof(*r->ent_hash));
	if (!r->nodes || !r->node_hash || !r->ents || !r->ent_hash) {
		sim_msg("record: out of memory");
		return -1;
	}
	r->f = fopen(path, "w");
	if (!r->f) {
		sim_msg("--record=%s: cannot create it: %s; give a path in a writable folder", path, strerror(errno));
		return -1;
	}
	fprintf(r->f, "bench-sim-record 1\nreasons");
	for (unsigned k = 0; k < CORE_CHARGE_N; k++)
		fprintf(r->f, " %s", core_charge_name((enum core_charge_why)k));
	fputc('\n', r->f);
	if (fflush(r->f) != 0) {
		sim_msg("--record=%s: writing it: %s", path, strerror(errno));
		return -1;
	}
	struct core_stats st;
	core_get_stats(core, &st);
	r->prev_total = st.cycles;
	r->prev_exc = st.exceptions;
	char err[128];
	if (core_set_recorder(core, &rec_ops, r, err, sizeof(err)) != 0) {
		sim_msg("record: %s", err);
		return -1;
	}
	core_set_ledger(core, on_charge, r);
	return r->failed ? -1 : 0;
}

int sim_rec_finish(struct sim_rec *r)
{
	if (!r)
		return 0;
	int rc = r->core && core_rec_finish(r->core) != 0 ? -1 : 0;
	if (r->failed)
		rc = -1;
	if (r->core) {
		char err[8];
		(void)core_set_recorder(r->core, NULL, NULL, err, sizeof(err));
		core_set_ledger(r->core, NULL, NULL);
	}
	if (r->f && fclose(r->f) != 0) {
		sim_msg("record: %s: %s", r->path, strerror(errno));
		rc = -1;
	}
	for (unsigned i = 0; i < REC_RUNS; i++)
		free(r->runs[i].idx);
	free(r->frames);
	free(r->nodes);
	free(r->node_hash);
	free(r->ents);
	free(r->ent_hash);
	free(r);
	return rc;
}
