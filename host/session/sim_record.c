/* bench-sim's halt records read as the file grows (sim_record.h, docs/sim-record.md): complete lines
 * only, a record handed out at its `end` line, a partial one kept for the next call. */
#include "session/sim_record.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TOKENS (8 + SIM_RECORD_MAX_REASONS)

enum rd_state {
	RD_MAGIC = 0, /* expecting `bench-sim-record 1` */
	RD_REASONS,   /* expecting `reasons ...` */
	RD_BETWEEN,   /* between records: `fn` or `halt` */
	RD_INSIDE,    /* after `halt`: `fn`, `enter`, `pc` or `end` */
};

struct sim_record_reader {
	char path[PATH_MAX];
	FILE *f;
	long line; /* lines read so far */
	char *buf; /* bytes read, not yet handed out as lines: a partial last line */
	size_t len, cap;
	enum rd_state state;
	int failed; /* a negated bench_err repeated after the first error */
	struct bench_error err;

	char *reasons[SIM_RECORD_MAX_REASONS];
	unsigned n_reasons;
	struct sim_record_node *nodes;
	size_t n_nodes, cap_nodes;

	/* The record being read. */
	struct sim_record cur;
	uint64_t prev_total, last_seq, sum;
	struct sim_record_pc *pcs;
	size_t n_pcs, cap_pcs;
	uint64_t *cycles; /* n_reasons per pc; pcs[].cycles point here once the record is complete */
	size_t cap_cycles;
	struct sim_record_enter *enters;
	size_t n_enters, cap_enters;
};

static int grow(void **p, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return 0;
	size_t n = *cap ? *cap * 2 : 64;
	while (n < need)
		n *= 2;
	void *q = realloc(*p, n * size);
	if (!q)
		return -1;
	*p = q;
	*cap = n;
	return 0;
}

int sim_record_open(struct sim_record_reader **out, const char *path, struct bench_error *err)
{
	struct sim_record_reader *r = calloc(1, sizeof(*r));
	if (!r)
		return bench_fail(err, BENCH_E_NOMEM, "out of memory opening %s", path);
	if (snprintf(r->path, sizeof(r->path), "%s", path) >= (int)sizeof(r->path)) {
		free(r);
		return bench_fail(err, BENCH_E_FILE, "%s: path too long", path);
	}
	*out = r;
	return 0;
}

static int fail(struct sim_record_reader *r, struct bench_error *err, const char *msg, const char *what)
{
	bench_fail(&r->err, BENCH_E_PROTOCOL, "%s:%ld: %s%s (bench-sim --record wrote it: docs/sim-record.md)", r->path,
	           r->line, msg, what ? what : "");
	r->failed = -BENCH_E_PROTOCOL;
	*err = r->err;
	return r->failed;
}

static bool parse_u64(const char *s, int base, uint64_t *v)
{
	if (!s || !*s || *s == '-' || *s == '+')
		return false;
	char *end;
	errno = 0;
	unsigned long long x = strtoull(s, &end, base);
	if (errno || *end)
		return false;
	*v = x;
	return true;
}

static bool parse_u32(const char *s, int base, uint32_t *v)
{
	uint64_t x;
	if (!parse_u64(s, base, &x) || x > UINT32_MAX)
		return false;
	*v = (uint32_t)x;
	return true;
}

static unsigned split(char *line, char **tok, unsigned max)
{
	unsigned n = 0;
	char *save = NULL;
	for (char *t = strtok_r(line, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
		if (n == max)
			return max + 1;
		tok[n++] = t;
	}
	return n;
}

static int parse_fn(struct sim_record_reader *r, char **tok, unsigned n, struct bench_error *err)
{
	struct sim_record_node nd = {0};
	uint64_t id;
	if (n != 5 || !parse_u64(tok[1], 10, &id) || !parse_u32(tok[3], 16, &nd.entry))
		return fail(r, err, "a node line is `fn ID PARENT ENTRY KIND`", NULL);
	nd.id = (uint32_t)id;
	if (strcmp(tok[2], "-1") == 0) {
		nd.parent = -1;
	} else {
		uint64_t p;
		if (!parse_u64(tok[2], 10, &p) || p >= id)
			return fail(r, err, "a node's parent must be a node written before it: ", tok[2]);
		nd.parent = (int64_t)p;
	}
	if (strcmp(tok[4], "root") == 0) {
		nd.kind = SIM_RECORD_KIND_ROOT;
	} else if (strcmp(tok[4], "call") == 0) {
		nd.kind = SIM_RECORD_KIND_CALL;
	} else if (strcmp(tok[4], "jump") == 0) {
		nd.kind = SIM_RECORD_KIND_JUMP;
	} else if (strncmp(tok[4], "exc:", 4) == 0) {
		uint32_t e;
		if (!parse_u32(tok[4] + 4, 10, &e) || e == 0 || e > 255)
			return fail(r, err, "bad exception number in node kind ", tok[4]);
		nd.kind = SIM_RECORD_KIND_EXC;
		nd.exc = e;
	} else {
		return fail(r, err, "unknown node kind ", tok[4]);
	}
	if ((nd.kind == SIM_RECORD_KIND_ROOT) != (id == 0) || (nd.parent < 0) != (id == 0))
		return fail(r, err, "node 0 and only node 0 is the root, with parent -1", NULL);
	if (id < r->n_nodes) { /* written again: only as it was */
		const struct sim_record_node *o = &r->nodes[id];
		if (o->parent != nd.parent || o->entry != nd.entry || o->kind != nd.kind || o->exc != nd.exc)
			return fail(r, err, "node written twice, differently: ", tok[1]);
		return 0;
	}
	if (id != r->n_nodes)
		return fail(r, err, "nodes must be numbered in order: ", tok[1]);
	if (grow((void **)&r->nodes, &r->cap_nodes, r->n_nodes + 1, sizeof(*r->nodes)) < 0)
		return bench_fail(err, BENCH_E_NOMEM, "out of memory reading %s", r->path);
	r->nodes[r->n_nodes++] = nd;
	return 0;
}

static bool known_node(const struct sim_record_reader *r, const char *s, uint32_t *id)
{
	return parse_u32(s, 10, id) && *id < r->n_nodes;
}

/* `halt SEQ cyccnt C total T msp_min M psp_min P exc E` */
static int parse_halt(struct sim_record_reader *r, char **tok, unsigned n, struct bench_error *err)
{
	struct sim_record *c = &r->cur;
	memset(c, 0, sizeof(*c));
	if (n != 12 || strcmp(tok[2], "cyccnt") || strcmp(tok[4], "total") || strcmp(tok[6], "msp_min") ||
	    strcmp(tok[8], "psp_min") || strcmp(tok[10], "exc") || !parse_u64(tok[1], 10, &c->seq) ||
	    !parse_u32(tok[3], 10, &c->cyccnt) || !parse_u64(tok[5], 10, &c->total) ||
	    !parse_u32(tok[7], 16, &c->msp_min) || !parse_u32(tok[9], 16, &c->psp_min) ||
	    !parse_u64(tok[11], 10, &c->exceptions))
		return fail(r, err, "a halt line is `halt SEQ cyccnt C total T msp_min M psp_min P exc E`", NULL);
	if (c->seq != r->last_seq + 1)
		return fail(r, err, "records out of sequence: halt ", tok[1]);
	if (c->total < r->prev_total)
		return fail(r, err, "the cycle count went backwards: total ", tok[5]);
	if (!r->n_nodes)
		return fail(r, err, "a record before the root node (fn 0 -1 ENTRY root)", NULL);
	c->cycles = c->total - r->prev_total;
	r->n_pcs = r->n_enters = 0;
	r->sum = 0;
	r->state = RD_INSIDE;
	return 0;
}

static int parse_pc(struct sim_record_reader *r, char **tok, unsigned n, struct bench_error *err)
{
	struct sim_record_pc p = {0};
	if (n < 4 || n != 4 + r->n_reasons || !known_node(r, tok[1], &p.node) || !parse_u32(tok[2], 16, &p.addr) ||
	    !parse_u64(tok[3], 10, &p.execs))
		return fail(r, err, "a pc line is `pc NODE ADDR EXECS` and one cycle count per reason", NULL);
	/* Both tables double when full: a realloc per line copied the whole cycle table each time (ASan's
	 * realloc always moves), 10240 lines of a 2047-deep recursion's record took minutes there. */
	if (grow((void **)&r->pcs, &r->cap_pcs, r->n_pcs + 1, sizeof(*r->pcs)) < 0 ||
	    grow((void **)&r->cycles, &r->cap_cycles, (r->n_pcs + 1) * r->n_reasons, sizeof(*r->cycles)) < 0)
		return bench_fail(err, BENCH_E_NOMEM, "out of memory reading %s", r->path);
	uint64_t *cy = r->cycles;
	for (unsigned i = 0; i < r->n_reasons; i++) {
		uint64_t v;
		if (!parse_u64(tok[4 + i], 10, &v) || r->sum + v < r->sum)
			return fail(r, err, "bad cycle count ", tok[4 + i]);
		cy[r->n_pcs * r->n_reasons + i] = v;
		r->sum += v;
	}
	r->pcs[r->n_pcs++] = p;
	return 0;
}

static int parse_enter(struct sim_record_reader *r, char **tok, unsigned n, struct bench_error *err)
{
	struct sim_record_enter e;
	if (n != 3 || !known_node(r, tok[1], &e.node) || !parse_u64(tok[2], 10, &e.count))
		return fail(r, err, "an enter line is `enter NODE COUNT` with a node written before", NULL);
	if (grow((void **)&r->enters, &r->cap_enters, r->n_enters + 1, sizeof(*r->enters)) < 0)
		return bench_fail(err, BENCH_E_NOMEM, "out of memory reading %s", r->path);
	r->enters[r->n_enters++] = e;
	return 0;
}

/* `end SEQ`: 1 with the record complete. */
static int parse_end(struct sim_record_reader *r, char **tok, unsigned n, struct sim_record *rec,
                     struct bench_error *err)
{
	uint64_t seq;
	if (n != 2 || !parse_u64(tok[1], 10, &seq) || seq != r->cur.seq)
		return fail(r, err, "an end line must repeat its halt's SEQ", NULL);
	if (r->sum != r->cur.cycles) {
		char what[160];
		(void)snprintf(what, sizeof(what), "%" PRIu64 " add up to %" PRIu64 ", the core counted %" PRIu64, seq,
		               r->sum, r->cur.cycles);
		return fail(r, err, "the cycles of record ", what);
	}
	for (size_t i = 0; i < r->n_pcs; i++)
		r->pcs[i].cycles = r->cycles + i * r->n_reasons;
	r->cur.pcs = r->pcs;
	r->cur.n_pcs = r->n_pcs;
	r->cur.enters = r->enters;
	r->cur.n_enters = r->n_enters;
	r->prev_total = r->cur.total;
	r->last_seq = seq;
	r->state = RD_BETWEEN;
	*rec = r->cur;
	return 1;
}

static int parse_header(struct sim_record_reader *r, char **tok, unsigned n, struct bench_error *err)
{
	if (r->state == RD_MAGIC) {
		uint64_t v;
		if (n != 2 || strcmp(tok[0], "bench-sim-record") || !parse_u64(tok[1], 10, &v))
			return fail(r, err, "not a bench-sim record: the first line must be `bench-sim-record 1`",
			            NULL);
		if (v != SIM_RECORD_VERSION)
			return fail(r, err, "a record format this bench does not read: version ", tok[1]);
		r->state = RD_REASONS;
		return 0;
	}
	if (n < 2 || n > 1 + SIM_RECORD_MAX_REASONS || strcmp(tok[0], "reasons"))
		return fail(r, err, "the second line must be `reasons R0 R1 ...` (at most 32)", NULL);
	for (unsigned i = 1; i < n; i++) {
		r->reasons[i - 1] = strdup(tok[i]);
		if (!r->reasons[i - 1])
			return bench_fail(err, BENCH_E_NOMEM, "out of memory reading %s", r->path);
		r->n_reasons = i;
	}
	r->state = RD_BETWEEN;
	return 0;
}

/* One complete line (no newline): 1 when it completed a record. */
static int parse_line(struct sim_record_reader *r, char *line, struct sim_record *rec, struct bench_error *err)
{
	char *tok[MAX_TOKENS];
	unsigned n = split(line, tok, MAX_TOKENS);
	if (n == 0 || n > MAX_TOKENS)
		return fail(r, err, n ? "a line too long" : "an empty line", NULL);
	if (r->state == RD_MAGIC || r->state == RD_REASONS)
		return parse_header(r, tok, n, err);
	if (strcmp(tok[0], "fn") == 0)
		return parse_fn(r, tok, n, err);
	if (r->state == RD_BETWEEN) {
		if (strcmp(tok[0], "halt") == 0)
			return parse_halt(r, tok, n, err);
		return fail(r, err, "expected `fn` or `halt` between records, got ", tok[0]);
	}
	if (strcmp(tok[0], "pc") == 0)
		return parse_pc(r, tok, n, err);
	if (strcmp(tok[0], "enter") == 0)
		return parse_enter(r, tok, n, err);
	if (strcmp(tok[0], "end") == 0)
		return parse_end(r, tok, n, rec, err);
	return fail(r, err, "expected `fn`, `enter`, `pc` or `end` inside a record, got ", tok[0]);
}

/* Reads what the file has grown by. */
static int fill(struct sim_record_reader *r, struct bench_error *err)
{
	if (!r->f) {
		r->f = fopen(r->path, "r");
		if (!r->f)
			return 0; /* not created yet */
	}
	for (;;) {
		if (grow((void **)&r->buf, &r->cap, r->len + 65536, 1) < 0)
			return bench_fail(err, BENCH_E_NOMEM, "out of memory reading %s", r->path);
		size_t got = fread(r->buf + r->len, 1, r->cap - r->len, r->f);
		r->len += got;
		if (got == 0) {
			if (ferror(r->f))
				return bench_fail(err, BENCH_E_FILE, "%s: cannot read it: %s", r->path,
				                  strerror(errno));
			clearerr(r->f); /* at the end for now: bench-sim appends more at the next halt */
			return 0;
		}
	}
}

int sim_record_next(struct sim_record_reader *r, struct sim_record *rec, struct bench_error *err)
{
	if (r->failed) {
		*err = r->err;
		return r->failed;
	}
	int rc = fill(r, err);
	if (rc < 0)
		return rc;
	size_t at = 0;
	rc = 0;
	/* at < len: nothing read yet leaves buf NULL, and memchr/memmove want a pointer (C11 7.24.1). */
	while (rc == 0 && at < r->len) {
		char *nl = memchr(r->buf + at, '\n', r->len - at);
		if (!nl)
			break;
		*nl = '\0';
		r->line++;
		rc = parse_line(r, r->buf + at, rec, err);
		at = (size_t)(nl - r->buf) + 1;
	}
	if (at) {
		memmove(r->buf, r->buf + at, r->len - at);
		r->len -= at;
	}
	return rc;
}

size_t sim_record_n_nodes(const struct sim_record_reader *r)
{
	return r->n_nodes;
}

const struct sim_record_node *sim_record_node(const struct sim_record_reader *r, uint32_t id)
{
	return id < r->n_nodes ? &r->nodes[id] : NULL;
}

unsigned sim_record_n_reasons(const struct sim_record_reader *r)
{
	return r->n_reasons;
}

const char *sim_record_reason(const struct sim_record_reader *r, unsigned i)
{
	return i < r->n_reasons ? r->reasons[i] : NULL;
}

int sim_record_reason_index(const struct sim_record_reader *r, const char *name)
{
	for (unsigned i = 0; i < r->n_reasons; i++)
		if (strcmp(r->reasons[i], name) == 0)
			return (int)i;
	return -1;
}

const char *sim_record_path(const struct sim_record_reader *r)
{
	return r->path;
}

void sim_record_close(struct sim_record_reader *r)
{
	if (!r)
		return;
	if (r->f)
		(void)fclose(r->f);
	for (unsigned i = 0; i < r->n_reasons; i++)
		free(r->reasons[i]);
	free(r->nodes);
	free(r->pcs);
	free(r->cycles);
	free(r->enters);
	free(r->buf);
	free(r);
}
