/* Cortex-M4 cycle model: block decoding with capstone and the block cache (cycles.h).
 * The per-instruction rules live in cycles_rules.c; this file only decodes, sums and caches. */
#include "timing/cycles.h"
#include "timing/cycles_rules.h"

#include <capstone/capstone.h>
#include <stdlib.h>
#include <string.h>

/* One cache slot: the key inline so the hot lookup touches one cache line. */
struct cyc_slot {
	uint32_t addr;
	uint32_t size;
	struct cyc_block *block;
};

struct cyc_model {
	csh cs;
	struct cyc_slot *slots;
	uint32_t mask; /* number of slots - 1 (power of two) */
	uint32_t used;
};

#define CYC_INITIAL_SLOTS 1024u

/* The block of a slot whose block was invalidated (see cyc_invalidate). */
static struct cyc_block tombstone;

static uint32_t slot_hash(uint32_t addr, uint32_t size)
{
	/* Thumb code is halfword aligned; the murmur3 finaliser spreads neighbouring blocks over
	 * the low bits the table uses. */
	uint32_t h = (addr >> 1) ^ (size << 22);
	h ^= h >> 16;
	h *= 0x85ebca6bu;
	h ^= h >> 13;
	return h;
}

struct cyc_model *cyc_new(void)
{
	struct cyc_model *m = calloc(1, sizeof(*m));
	if (!m)
		return NULL;
	if (cs_open(CS_ARCH_ARM, CS_MODE_THUMB | CS_MODE_MCLASS, &m->cs) != CS_ERR_OK) {
		free(m);
		return NULL;
	}
	if (cs_option(m->cs, CS_OPT_DETAIL, CS_OPT_ON) != CS_ERR_OK)
		goto fail;
	m->slots = calloc(CYC_INITIAL_SLOTS, sizeof(*m->slots));
	if (!m->slots)
		goto fail;
	m->mask = CYC_INITIAL_SLOTS - 1;
	return m;
fail:
	cs_close(&m->cs);
	free(m);
	return NULL;
}

static void drop_all(struct cyc_model *m)
{
	for (uint32_t i = 0; i <= m->mask; i++) {
		if (m->slots[i].block != &tombstone)
			free(m->slots[i].block);
		m->slots[i].block = NULL;
	}
	m->used = 0;
}

void cyc_free(struct cyc_model *m)
{
	if (!m)
		return;
	drop_all(m);
	free(m->slots);
	cs_close(&m->cs);
	free(m);
}

/* At most one charge per reason the rules split an instruction's cost by (ISSUE, LOAD_AFTER_STORE,
 * ADDRESS_DEP, STORE_WRITEBACK, ISB, IT, FPU_RESULT), plus its fetch wait. */
#define CYC_CHARGES_PER_INSN 8u

static void add_insn(struct cyc_block *b, uint32_t n, uint32_t offset, const struct cyc_cost *c)
{
	b->insn_offset[n] = (uint16_t)offset;
	b->cost_before[n] = b->total;
	b->dyn[n] = c->dyn;
	b->cond[n] = c->cond;
	b->aux[n] = c->aux;
	b->total += c->cycles;
	b->cpi_extra += c->cpi_extra;
	b->lsu_extra += c->lsu_extra;
	b->fold_count += c->folded;
	if (c->dyn & CYC_DYN_BRANCH) {
		b->branch_taken_extra = c->taken_extra;
		b->taken_why = c->taken_why;
	}
}

#define CYC_FETCH_WORDS 3

/* Whether instruction i of b is 32-bit at an address 2 mod 4. */
static bool unaligned_wide(const struct cyc_block *b, uint32_t i)
{
	uint32_t off = b->insn_offset[i];
	uint32_t end = i + 1u < b->n_insn ? b->insn_offset[i + 1u] : b->size;
	return end - off == 4u && ((b->addr + off) & 3u) == 2u;
}

/* Groups of unaligned 32-bit instructions, from the compendium's "Alignment rules"
 * (compendium.i-0.nl, measured on a Cortex-M4 with code in flash and data in SRAM2): "Groups of
 * three or more unaligned wide instructions will take one extra cycle"; "Groups of unaligned wide
 * str only add the penalty cycle from a length of 4"; "A group of unaligned wide instructions
 * consisting of a mix of memory and non-memory instructions can cause more than one delay cycle";
 * "If the second unaligned wide instruction is a memory instruction, the DWT LSU counter will be
 * incremented". For each instruction after the first of a group that is all memory instructions
 * or all others, budget[i] is how many waits for its words the group may still take: 1, or 0 for
 * fewer than three (fewer than four stores); CYC_NO_CAP for any other instruction (the fetch
 * model decides alone). mem: enum cyc_mem per instruction; a memory group's wait counts in
 * LSUCNT. */
#define CYC_NO_CAP 0xFFu
static void group_budgets(const struct cyc_block *b, const uint8_t *mem, uint8_t *budget)
{
	uint32_t n = b->n_insn;
	memset(budget, CYC_NO_CAP, n);
	for (uint32_t i = 0; i < n;) {
		uint32_t j = i;
		while (j < n && unaligned_wide(b, j))
			j++;
		if (j == i) {
			i++;
			continue;
		}
		uint32_t len = j - i, loads = 0, stores = 0;
		for (uint32_t k = i; k < j; k++) {
			loads += mem[k] == CYC_MEM_LOAD;
			stores += mem[k] == CYC_MEM_STORE;
		}
		bool memory = loads + stores == len;
		if (memory || loads + stores == 0) {
			uint8_t allow = (stores == len ? len >= 4u : len >= 3u) ? 1u : 0u;
			for (uint32_t k = i + 1u; k < j; k++)
				budget[k] = allow;
		}
		i = j;
	}
}

/* When word k is due, before any steal: the first `have` were in the buffer already; when some
 * were missing, the first of those arrives as the first instruction decodes (cycle -1); the rest
 * one a cycle after the one before (from a full buffer, as soon as a slot frees), and, with
 * `slots`, not before the slot of the word three back frees (two cycles after its instruction
 * issued: release). */
static int64_t fetch_due(const int64_t *fetched, const int64_t *release, uint32_t k, uint32_t have, bool slots)
{
	int64_t t;
	if (k < have)
		t = INT64_MIN / 2;
	else
		t = k == have && have < CYC_FETCH_WORDS ? -1 : fetched[k - 1] + 1;
	if (slots && k >= CYC_FETCH_WORDS && release[k - CYC_FETCH_WORDS] + 2 > t)
		t = release[k - CYC_FETCH_WORDS] + 2;
	return t;
}

/* A fetch due in a cycle whose slot went elsewhere (the speculative fetch of a not-taken branch's
 * target at cycle 0, `spec`; a literal load's data phase, `steal`) comes a cycle later. */
static int64_t stolen(int64_t t, int64_t spec, int64_t steal)
{
	if (t == spec)
		t++;
	if (t == steal)
		t++;
	return t;
}

/* The state to hand the next block, whose first three words arrived at `at` (cycles of this
 * block, the next one starting at `start`): the most words r that the next block may take as in
 * the buffer (arrived by the cycle before it starts) with the others arriving one a cycle from
 * that cycle on (fetch_due's assumption for r words buffered), no word coming earlier than it
 * did here. Both are compared after the slot of the next block's first cycle goes to this
 * block's not-taken B<cc> (`steal`), which pushes the word due then, and those after it, a cycle
 * later. None when even that is early: the emptiest state there is. */
static uint32_t words_ahead(const int64_t *at, int64_t start, bool steal)
{
	int64_t spec = steal ? 0 : INT64_MIN, real[CYC_FETCH_WORDS];
	for (uint32_t j = 0; j < CYC_FETCH_WORDS; j++) {
		int64_t t = at[j] - start;
		if (j > 0 && t < real[j - 1] + 1)
			t = real[j - 1] + 1; /* one a cycle behind a pushed word */
		real[j] = stolen(t, spec, INT64_MIN);
	}
	for (uint32_t r = CYC_FETCH_WORDS; r > 0; r--) {
		bool ok = true;
		int64_t assumed = -1;
		for (uint32_t j = 0; j < CYC_FETCH_WORDS && ok; j++) {
			if (j < r) {
				ok = real[j] <= -1;
				continue;
			}
			assumed = stolen(j == r ? -1 : assumed + 1, spec, INT64_MIN);
			ok = real[j] <= assumed;
		}
		if (ok)
			return r;
	}
	return 0;
}

/* The prefetch unit (Cortex-M3 TRM r2p0 1.4 "Prefetch Unit"; the M4 keeps its fetch and decode
 * stages): it fetches one word a cycle and buffers up to three; decode needs all of an
 * instruction's halfwords. A word's slot frees two cycles after the instruction that ends in it
 * issues, so a run of 32-bit instructions that are not word aligned drains the buffer (compendium:
 * a group of three takes one extra cycle); slow instructions (loads, multi-cycle) let it fill
 * again. Left alone that would stall every other instruction of a longer group; the compendium
 * measured one cycle a group unless it mixes memory and other instructions (group_budgets): once a
 * group has taken its wait, the words of its later instructions come one a cycle, as the slots
 * are not what holds them. A literal load reads the code memory in its data phase and the flash
 * interface serves the D-code bus first (RM0090 3.4.2, "Data management"), so no instruction word
 * arrives in that cycle: TRM 3.3.2's "LDR Rx,[PC,#imm] might add a cycle because of contention
 * with the fetch unit" - it does when the buffer runs dry, in a group too.
 * A conditional branch presents its target at decode whether it is taken or not (M3 TRM 1.4,
 * "speculatively"): after a not-taken one, the slot of the next block's first cycle is lost.
 * One pass of that over the block's instructions (costs from the rules) gives, per instruction,
 * the cycles it waits for its words (stalls[i]). `state` (enum cyc_fetch) is the buffer as the
 * block is entered: with m words missing, only the block's first 3 - m words are in the buffer
 * and the next arrives as the first instruction decodes, the rest one a cycle (all three missing
 * after the refill of a taken branch or an exception; none when execution runs into the block
 * from one that left the buffer full). Returns the total; *lsu gets the part that counts in
 * LSUCNT (a memory group's wait), *exit the state left to the block run into after this one
 * (words_ahead; with the steal when the block ends in a B<cc>, which the core uses only when it
 * is not taken). budget: group_budgets(). */
static uint32_t fetch_stalls(const struct cyc_block *b, unsigned state, const uint8_t *mem, const uint8_t *budget,
                             uint32_t *stalls, uint32_t *lsu, uint8_t *exit)
{
	uint32_t n = b->n_insn;
	uint32_t w0 = b->addr >> 2;
	uint32_t nwords = ((b->addr + b->size + 3u) >> 2) - w0;
	/* fetched[k]: the cycle word k arrived, relative to the first issue slot of the block;
	 * release[k]: issue cycle of the instruction holding word k's last halfword. */
	int64_t fetched[CYC_MAX_BLOCK_INSN * 2 + 8], release[CYC_MAX_BLOCK_INSN * 2 + 8];
	memset(stalls, 0, (size_t)n * sizeof(*stalls));
	*lsu = 0;
	*exit = CYC_FETCH_FULL;
	if (nwords + CYC_FETCH_WORDS > sizeof(fetched) / sizeof(fetched[0]))
		return 0;
	/* Zeroed as far as they are used (for each entry state of a translated block, not per run of
	 * it): every word read below is set first, which the analyzer cannot follow through the index
	 * arithmetic. */
	memset(fetched, 0, (nwords + CYC_FETCH_WORDS) * sizeof(fetched[0]));
	memset(release, 0, (nwords + CYC_FETCH_WORDS) * sizeof(release[0]));
	uint32_t have = CYC_FETCH_WORDS - (state & CYC_FETCH_EMPTY); /* words buffered at entry */
	/* Entered with the buffer empty (the refill after a taken branch, an exception or a reset;
	 * run into after 32-bit code that left no word ahead), the fetch unit runs one word a cycle
	 * ahead of decode (M3 TRM 1.4) with every slot free: a group of unaligned 32-bit
	 * instructions starting there waits only for its first instruction's second word, the
	 * compendium's "Branches to unaligned wide instructions will take one extra cycle", and that
	 * is the group's one cycle ("Alignment rules": "Groups of three or more unaligned wide
	 * instructions will take one extra cycle"), not one more. Counted twice, a loop of 32-bit
	 * instructions at 2 mod 4 took two cycles a round more than the same loop word aligned;
	 * held-out silicon checks found the model's effect of re-aligning a loop several times
	 * silicon's (issue 25). */
	bool empty = have == 0;
	int64_t end_prev = 0, steal = INT64_MIN, spec = (state & CYC_FETCH_STEAL) ? 0 : INT64_MIN;
	uint32_t next_word = 0, total = 0, left = 0;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t off = b->insn_offset[i];
		uint32_t size = (i + 1 < n ? b->insn_offset[i + 1] : b->size) - off;
		uint32_t cyc = b->cost_before[i + 1] - b->cost_before[i];
		uint32_t a = b->addr + off;
		uint32_t last = ((a + (size ? size : 1u) - 1u) >> 2) - w0;
		if (last >= nwords)
			last = nwords - 1u;
		if (budget[i] != CYC_NO_CAP && (i == 0 || budget[i - 1] == CYC_NO_CAP))
			left = empty && i == 1 ? 0u : budget[i]; /* the group's second instruction */
		bool slots = budget[i] == CYC_NO_CAP || left > 0;
		int64_t steal_free = INT64_MIN; /* when its last word would come without a steal */
		while (next_word <= last) {
			uint32_t k = next_word++;
			steal_free = fetch_due(fetched, release, k, have, slots);
			fetched[k] = stolen(steal_free, spec, steal);
		}
		int64_t start = end_prev;
		if (fetched[last] + 1 > start)
			start = fetched[last] + 1;
		for (uint32_t k = (a >> 2) - w0; k <= last; k++) {
			uint32_t hw = ((w0 + k) << 2) + 2u;
			if (hw >= a && hw < a + size)
				release[k] = start;
		}
		stalls[i] = (uint32_t)(start - end_prev);
		if (budget[i] != CYC_NO_CAP && left > 0 && steal_free + 1 > end_prev) {
			left--;                         /* the group's wait: its words were late without a steal too */
			*lsu += mem[i] != CYC_MEM_NONE; /* a capped group is all memory or none */
		}
		total += stalls[i];
		end_prev = start + cyc;
		if (b->dyn[i] & CYC_DYN_LITERAL)
			steal = start + (cyc > 1 ? (int64_t)cyc - 1 : 1);
	}
	/* The next block's first three words (its first is this block's last when it starts
	 * mid-word), fetched one a cycle as slots free up; their slots' words are all this block's. */
	uint32_t next = (b->fallthrough >> 2) - w0;
	for (uint32_t k = next_word; k < next + CYC_FETCH_WORDS; k++)
		fetched[k] = stolen(fetch_due(fetched, release, k, have, true), spec, steal);
	bool steal_next = (b->dyn[n - 1u] & CYC_DYN_SPECULATED) != 0; /* n > 0: add_fetch_stalls */
	*exit = (uint8_t)((CYC_FETCH_WORDS - words_ahead(fetched + next, end_prev, steal_next)) |
	                  (steal_next ? CYC_FETCH_STEAL : 0u));
	return total;
}

/* Adds the fetch stalls of a block entered with the buffer full to its instructions, keeps the
 * extra stalls of entering it in each other state in entry_extra, and the state it leaves in
 * exit_state. */
static void add_fetch_stalls(struct cyc_block *b, const uint8_t *mem, uint32_t *stalls)
{
	if (b->n_insn == 0)
		return;
	uint32_t lsu = 0, lsu_other = 0, total[CYC_FETCH_STATES];
	uint8_t budget[CYC_MAX_BLOCK_INSN];
	group_budgets(b, mem, budget);
	for (unsigned s = CYC_FETCH_STATES; s-- > 0;) /* full last: its stalls stay in `stalls` */
		total[s] = fetch_stalls(b, s, mem, budget, stalls, s ? &lsu_other : &lsu, &b->exit_state[s]);
	for (unsigned s = 0; s < CYC_FETCH_STATES; s++)
		b->entry_extra[s] = (uint8_t)(total[s] > total[0] ? total[s] - total[0] : 0u);
	uint32_t added = 0;
	for (uint32_t i = 0; i < b->n_insn; i++) {
		b->cost_before[i] += added;
		added += stalls[i];
	}
	b->cost_before[b->n_insn] += added;
	b->total += added;
	b->lsu_extra += lsu;
	b->cpi_extra += added - lsu;
}

/* The ledger's charges (cycles.h, struct cyc_charge): each instruction's rule cost split by reason
 * (why[i], from the rules), then its fetch wait with a buffer full at entry (stalls[i]), as
 * fetch-unaligned for a 32-bit instruction at an address 2 mod 4 (the compendium's "Alignment
 * rules": its second halfword is in the next word), else fetch-buffer. */
static void add_charges(struct cyc_block *b, const uint8_t (*why)[CYC_WHY_N], const uint32_t *stalls)
{
	uint32_t k = 0;
	for (uint32_t i = 0; i < b->n_insn; i++) {
		b->charge_first[i] = (uint16_t)k;
		b->charges[k++] = (struct cyc_charge){(uint16_t)i, CYC_WHY_ISSUE, why[i][CYC_WHY_ISSUE]};
		b->by_why[CYC_WHY_ISSUE] += why[i][CYC_WHY_ISSUE];
		for (unsigned w = CYC_WHY_ISSUE + 1u; w < CYC_WHY_N; w++) {
			if (!why[i][w])
				continue;
			b->charges[k++] = (struct cyc_charge){(uint16_t)i, (uint8_t)w, why[i][w]};
			b->by_why[w] += why[i][w];
		}
		if (stalls[i]) {
			uint8_t w = unaligned_wide(b, i) ? CYC_WHY_FETCH_UNALIGNED : CYC_WHY_FETCH_BUFFER;
			b->charges[k++] = (struct cyc_charge){(uint16_t)i, w, (uint8_t)stalls[i]};
			b->by_why[w] += stalls[i];
		}
	}
	b->charge_first[b->n_insn] = (uint16_t)k;
	for (unsigned w = 0; w < CYC_WHY_N; w++)
		if (b->by_why[w])
			b->sum_why[b->n_sum_why++] = (uint8_t)w;
	b->entry_why = b->n_insn && unaligned_wide(b, 0) ? CYC_WHY_FETCH_UNALIGNED : CYC_WHY_FETCH_BUFFER;
}

/* Decodes and costs one block. Returns NULL when out of memory. */
static struct cyc_block *decode_block(struct cyc_model *m, uint32_t addr, const uint8_t *code, uint32_t size)
{
	uint32_t max = size / 2u + 1u;
	if (max > CYC_MAX_BLOCK_INSN)
		max = CYC_MAX_BLOCK_INSN;
	/* One allocation: the block, then cost_before[max+1], charges[max * CYC_CHARGES_PER_INSN],
	 * insn_offset[max], charge_first[max+1], dyn, cond, aux[max]. */
	size_t bytes = sizeof(struct cyc_block) + (max + 1u) * sizeof(uint32_t) +
	               (size_t)max * CYC_CHARGES_PER_INSN * sizeof(struct cyc_charge) + max * sizeof(uint16_t) +
	               (max + 1u) * sizeof(uint16_t) + 3u * max;
	bytes = (bytes + 63u) & ~(size_t)63u;           /* aligned_alloc: a multiple of the alignment */
	struct cyc_block *b = aligned_alloc(64, bytes); /* the fields read at every block in one line */
	if (!b)
		return NULL;
	memset(b, 0, bytes);
	b->cost_before = (uint32_t *)(b + 1);
	b->charges = (struct cyc_charge *)(b->cost_before + max + 1u);
	b->insn_offset = (uint16_t *)(b->charges + (size_t)max * CYC_CHARGES_PER_INSN);
	b->charge_first = b->insn_offset + max;
	b->dyn = (uint8_t *)(b->charge_first + max + 1u);
	b->cond = b->dyn + max;
	b->aux = b->cond + max;
	b->addr = addr;
	b->size = size;

	struct cyc_rules_state st;
	uint8_t mem[CYC_MAX_BLOCK_INSN];
	uint8_t why[CYC_MAX_BLOCK_INSN][CYC_WHY_N];
	memset(why, 0, sizeof(why)); /* rows 0..n-1 are set below; the analyzer cannot tell */
	cyc_rules_begin(&st, addr);
	const uint8_t *p = code;
	size_t left = size;
	uint64_t pc = addr;
	uint32_t n = 0;
	while (left > 0 && n < max) {
		/* cs_disasm, not cs_disasm_iter: it starts outside any IT block, where the iterator
		 * would carry the IT state of the block decoded before into this one (capstone 4). */
		cs_insn *insn = NULL;
		size_t k = cs_disasm(m->cs, p, left, pc, max - n, &insn);
		for (size_t j = 0; j < k; j++) {
			struct cyc_cost c;
			cyc_rules_cost(&st, &insn[j], &c);
			mem[n] = c.mem;
			memcpy(why[n], c.by_why, sizeof(why[n]));
			add_insn(b, n++, (uint32_t)(insn[j].address - addr), &c);
			p += insn[j].size;
			left -= insn[j].size;
			pc += insn[j].size;
		}
		if (k > 0)
			cs_free(insn, k);
		if (left > 0 && n < max) {
			/* Undecodable (UDF space, data): 1 cycle; it faults at run time. Skip one halfword,
			 * or two when the halfword announces a 32-bit encoding (Armv7-M ARM A5.1). */
			struct cyc_cost c;
			uint16_t hw = (uint16_t)(p[0] | (left > 1 ? p[1] << 8 : 0));
			uint32_t len =
			    ((hw & 0xf800u) >= 0xe800u && left >= 4) ? 4u : (left >= 2 ? 2u : (uint32_t)left);
			cyc_rules_unknown(&st, &c);
			mem[n] = CYC_MEM_NONE;
			memcpy(why[n], c.by_why, sizeof(why[n]));
			add_insn(b, n++, (uint32_t)(pc - addr), &c);
			p += len;
			left -= len;
			pc += len;
		}
	}
	b->n_insn = (uint16_t)n;
	b->cost_before[n] = b->total;
	b->fallthrough = (uint32_t)pc;
	/* From the rules' cost, before the fetch stalls: a failing instruction issues in one cycle,
	 * but it still waits for its words. */
	if (n && (b->dyn[n - 1u] & CYC_DYN_CONDITIONAL))
		b->fallthrough_saving = cyc_skip_saving(b, n - 1u);
	if (n)
		b->fail_issue = (uint8_t)(b->cost_before[n] - b->cost_before[n - 1u] - b->fallthrough_saving);
	uint32_t stalls[CYC_MAX_BLOCK_INSN];
	add_fetch_stalls(b, mem, stalls);
	add_charges(b, (const uint8_t(*)[CYC_WHY_N])why, stalls);
	return b;
}

/* Rehashes into a table of `n` slots (a power of two), dropping tombstones. */
static int rehash(struct cyc_model *m, uint32_t n)
{
	struct cyc_slot *old = m->slots;
	uint32_t old_n = m->mask + 1u;
	if (n == 0)
		return -1; /* 2^32 slots: out of address space anyway */
	struct cyc_slot *s = calloc(n, sizeof(*s));
	if (!s)
		return -1;
	m->slots = s;
	m->mask = n - 1u;
	m->used = 0;
	for (uint32_t i = 0; i < old_n; i++) {
		if (!old[i].block || old[i].block == &tombstone)
			continue;
		uint32_t h = slot_hash(old[i].addr, old[i].size) & m->mask;
		while (s[h].block)
			h = (h + 1u) & m->mask;
		s[h] = old[i];
		m->used++;
	}
	free(old);
	return 0;
}

const struct cyc_block *cyc_lookup(struct cyc_model *m, uint32_t addr, const uint8_t *code, uint32_t size)
{
	addr &= ~1u;
	uint32_t h = slot_hash(addr, size) & m->mask;
	for (;;) {
		struct cyc_slot *s = &m->slots[h];
		if (!s->block)
			break;
		if (s->addr == addr && s->size == size)
			return s->block;
		h = (h + 1u) & m->mask;
	}
	/* Miss: decode once. Keep the load factor (live blocks and tombstones) under 1/2 so probes
	 * stay short; grow only when live blocks fill a quarter, else just sweep the tombstones. */
	if ((m->used + 1u) * 2u > m->mask + 1u) {
		uint32_t n = m->mask + 1u;
		uint32_t live = 0;
		for (uint32_t i = 0; i < n; i++)
			live += m->slots[i].block && m->slots[i].block != &tombstone;
		if (rehash(m, (live + 1u) * 4u > n ? n * 2u : n) != 0)
			return NULL;
		h = slot_hash(addr, size) & m->mask;
		while (m->slots[h].block)
			h = (h + 1u) & m->mask;
	}
	if (!code && size > 0)
		return NULL;
	struct cyc_block *b = decode_block(m, addr, code, size);
	if (!b)
		return NULL;
	m->slots[h].addr = addr;
	m->slots[h].size = size;
	m->slots[h].block = b;
	m->used++;
	return b;
}

void cyc_invalidate(struct cyc_model *m, uint32_t addr, uint32_t size)
{
	/* Rare (flash programmed, code in RAM rewritten): free the overlapping blocks and leave a
	 * tombstone in their slots, so probe chains through them stay intact. A tombstone's key has the
	 * Thumb bit set, which no lookup asks for, so the hot path needs no test for it. */
	uint64_t lo = addr, hi = (uint64_t)addr + size;
	for (uint32_t i = 0; i <= m->mask; i++) {
		struct cyc_block *b = m->slots[i].block;
		if (!b || b == &tombstone)
			continue;
		if ((uint64_t)b->addr < hi && (uint64_t)b->addr + b->size > lo) {
			free(b);
			m->slots[i].block = &tombstone;
			m->slots[i].addr = 1u;
			m->slots[i].size = 0u;
		}
	}
}

uint32_t cyc_skip_saving(const struct cyc_block *b, unsigned i)
{
	uint32_t cost = b->cost_before[i + 1u] - b->cost_before[i];
	return cost > 1u ? cost - 1u : 0u;
}

/* Exception timing (Cortex-M4 TRM r0p1 3.3 and 2.3.x "Exception handling": "Interrupt latency
 * of 12 cycles ... 10 cycles on return ... tail-chaining 6 cycles", zero-wait-state memory).
 * With the FP context (Armv7-M ARM B1.5.7, CONTROL.FPCA set, lazy stacking off or triggered) the
 * frame grows by 18 words, S0-S15, FPSCR and a reserved word: we charge 17 more cycles each way
 * (29 entry, 27 return), one per word beyond the bus's first. The handler and the return address
 * are fetched afresh: from flash, the accelerator adds its wait cycles to the first block there
 * (chip/stm32f4_art.c); the vector read overlaps the stacking. */
#define CYC_FP_FRAME_EXTRA 17u

uint32_t cyc_exception_entry(const struct cyc_model *m, bool fp_stacked)
{
	(void)m;
	return 12u + (fp_stacked ? CYC_FP_FRAME_EXTRA : 0u);
}

uint32_t cyc_exception_return(const struct cyc_model *m, bool fp_unstacked)
{
	(void)m;
	return 10u + (fp_unstacked ? CYC_FP_FRAME_EXTRA : 0u);
}

uint32_t cyc_tail_chain(const struct cyc_model *m)
{
	(void)m;
	return 6u;
}
