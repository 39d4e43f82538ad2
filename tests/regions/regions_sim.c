/* examples/regions on the virtual board's core (libsim: unicorn + the Cortex-M4 cycle model), driven
 * in-process the way a debugger drives it, through the bus only: halt at each BKPT marker, read
 * DWT_CYCCNT (0xE0001004), write bench_ctl.stop at the SYNC halt after N iterations, set the PC past
 * the BKPT with DCRDR/DCRSR (Armv7-M ARM C1.6.3/C1.6.4) and clear DHCSR.C_HALT. At DONE the region
 * table is read through the bus and decoded by host/firmware/regions.c. Then every relation the example's
 * header promises is checked exactly: region totals equal the markers' cycles around the same code,
 * the SysTick handler's time is left out of the interrupted region, an empty region measures 0.
 *
 * Usage: regions_sim REGIONS.elf ITERATIONS [--print]   (also the perf figures' source) */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "bus/bus.h"
#include "core/core.h"
#include "firmware/elf.h"
#include "firmware/markers.h"
#include "firmware/regions.h"
#include "results/results.h"

#define DHCSR  0xE000EDF0u
#define DCRSR  0xE000EDF4u
#define DCRDR  0xE000EDF8u
#define DBGKEY 0xA05F0000u
#define CYCCNT 0xE0001004u

#define MAX_NAMES 32

struct pair {
	char name[BENCH_NAME_MAX];
	uint32_t begin;
	int open;
	int64_t last;
	uint64_t n;
};

struct run {
	struct pair p[MAX_NAMES];
	size_t n;
	int64_t cal; /* the empty marker pair */
	uint32_t cal_begin;
	unsigned syncs, halts;
};

static int fail;
#define CHECK(cond, ...)                                                                                               \
	do {                                                                                                           \
		if (!(cond)) {                                                                                         \
			printf("FAIL %s:%d: ", __FILE__, __LINE__);                                                    \
			printf(__VA_ARGS__);                                                                           \
			printf("\n");                                                                                  \
			fail = 1;                                                                                      \
		}                                                                                                      \
	} while (0)

static struct pair *pair_of(struct run *r, const char *name)
{
	for (size_t i = 0; i < r->n; i++)
		if (!strcmp(r->p[i].name, name))
			return &r->p[i];
	if (r->n == MAX_NAMES)
		return NULL;
	snprintf(r->p[r->n].name, sizeof(r->p[r->n].name), "%s", name);
	return &r->p[r->n++];
}

static int64_t marker(struct run *r, const char *name)
{
	for (size_t i = 0; i < r->n; i++)
		if (!strcmp(r->p[i].name, name))
			return r->p[i].last;
	printf("FAIL: no marker pair %s measured\n", name);
	fail = 1;
	return -1;
}

static int bus_reader(void *ctx, uint32_t addr, void *buf, size_t len, struct bench_error *err)
{
	for (size_t i = 0; i < len; i++) {
		uint32_t v;
		if (bus_read(ctx, addr + (uint32_t)i, 1, BUS_DEBUG, &v) != BUS_OK)
			return bench_fail(err, BENCH_E_TARGET, "bus error reading 0x%08" PRIx32, addr + (uint32_t)i);
		((uint8_t *)buf)[i] = (uint8_t)v;
	}
	return 0;
}

static const struct bench_region_result *region(const struct bench_report *rep, const char *name)
{
	for (size_t i = 0; i < rep->n_regions; i++)
		if (!strcmp(rep->regions[i].name, name))
			return &rep->regions[i];
	printf("FAIL: no region %s in the table\n", name);
	fail = 1;
	static const struct bench_region_result none;
	return &none;
}

/* Runs to DONE. Returns 0, or -1 with a message. */
static int drive(struct sim_core *core, struct sim_bus *bus, const struct elf_file *elf, unsigned iterations,
                 struct run *r)
{
	const struct elf_symbol *ctl = elf_symbol(elf, "bench_ctl");
	if (!ctl) {
		printf("FAIL: no bench_ctl in the firmware\n");
		return -1;
	}
	if (bus_write(bus, DHCSR, 4, BUS_DEBUG, DBGKEY | 1u) != BUS_OK)
		return -1;
	const char *trace = getenv("REGIONS_SIM_TRACE");
	uint64_t budget = (getenv("REGIONS_SIM_BUDGET")
	                       ? strtoull(getenv("REGIONS_SIM_BUDGET"), NULL, 0)
	                       : 400ull * 1000u * 1000u); /* modelled cycles: far more than the example needs */
	for (;;) {
		uint64_t used = core_run(core, budget < 10000000u ? budget : 10000000u);
		if (used >= budget) {
			uint32_t at = 0;
			/* Say where it is stuck: halt it (C_HALT) and read the PC. */
			(void)bus_write(bus, DHCSR, 4, BUS_DEBUG, DBGKEY | 3u);
			(void)core_run(core, 1);
			(void)bus_write(bus, DCRSR, 4, BUS_DEBUG, 15u);
			(void)bus_read(bus, DCRDR, 4, BUS_DEBUG, &at);
			uint32_t xpsr = 0, lr = 0;
			(void)bus_write(bus, DCRSR, 4, BUS_DEBUG, 16u);
			(void)bus_read(bus, DCRDR, 4, BUS_DEBUG, &xpsr);
			(void)bus_write(bus, DCRSR, 4, BUS_DEBUG, 14u);
			(void)bus_read(bus, DCRDR, 4, BUS_DEBUG, &lr);
			uint32_t dhcsr = 0;
			(void)bus_read(bus, DHCSR, 4, BUS_DEBUG, &dhcsr);
			printf("FAIL: no DONE within the cycle budget; the core is at pc 0x%08" PRIx32
			       " lr 0x%08" PRIx32 " xpsr 0x%08" PRIx32 " dhcsr 0x%08" PRIx32 "\n",
			       at, lr, xpsr, dhcsr);
			return -1;
		}
		budget -= used;
		if (core_state(core) == CORE_RUNNING || (core_state(core) == CORE_SLEEPING && core_runnable(core)))
			continue;
		if (core_state(core) != CORE_HALTED) {
			printf("FAIL: the core stopped without halting (state %d)\n", (int)core_state(core));
			return -1;
		}
		uint32_t pc, cyc;
		if (bus_write(bus, DCRSR, 4, BUS_DEBUG, 15u) != BUS_OK || bus_read(bus, DCRDR, 4, BUS_DEBUG, &pc) ||
		    bus_read(bus, CYCCNT, 4, BUS_DEBUG, &cyc) != BUS_OK)
			return -1;
		r->halts++;
		const struct marker *m = markers_at(&elf->markers, pc);
		if (trace)
			printf("halt pc=0x%08" PRIx32 " cyccnt=%" PRIu32 " %s %s\n", pc, cyc,
			       m ? markers_kind_name(m->kind) : "?", m ? m->name : "");
		if (!m) {
			printf("FAIL: halt at 0x%08" PRIx32 ", no marker\n", pc);
			return -1;
		}
		struct pair *p;
		switch (m->kind) {
		case MARKER_CAL_BEGIN:
			r->cal_begin = cyc;
			break;
		case MARKER_CAL_END:
			r->cal = (int64_t)(uint32_t)(cyc - r->cal_begin);
			break;
		case MARKER_BEGIN:
			if ((p = pair_of(r, m->name))) {
				p->begin = cyc;
				p->open = 1;
			}
			break;
		case MARKER_END:
			if ((p = pair_of(r, m->name)) && p->open) {
				p->last = (int64_t)(uint32_t)(cyc - p->begin) - r->cal;
				p->n++;
				p->open = 0;
			}
			break;
		case MARKER_SYNC:
			if (r->syncs++ == iterations &&
			    bus_write(bus, ctl->addr + 8u, 4, BUS_DEBUG, 1u) != BUS_OK) /* bench_ctl.stop */
				return -1;
			break;
		case MARKER_DONE:
			return 0;
		}
		/* Step over the BKPT as OpenOCD does (armv7m_maybe_skip_bkpt_inst): PC += 2, resume. */
		if (bus_write(bus, DCRDR, 4, BUS_DEBUG, pc + 2u) != BUS_OK ||
		    bus_write(bus, DCRSR, 4, BUS_DEBUG, (1u << 16) | 15u) != BUS_OK ||
		    bus_write(bus, DHCSR, 4, BUS_DEBUG, DBGKEY | 1u) != BUS_OK)
			return -1;
	}
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: regions_sim REGIONS.elf ITERATIONS [--print]\n");
		return 2;
	}
	unsigned iterations = (unsigned)strtoul(argv[2], NULL, 10);
	int print = argc > 3 && !strcmp(argv[3], "--print");
	setvbuf(stdout, NULL, _IOLBF, 0);
	struct bench_error err;
	struct elf_file elf;
	static struct board board; /* the STM32F4 board bench-sim builds */
	/* No flash wait states (the firmware programs 5): this compares markers with regions, not the
	 * flash accelerator's cold misses, which fall differently on each (docs/cycle-model.md). */
	struct sim_config cfg = {.force_wait_states = true, .flash_wait_states = 0};
	cfg.trace = getenv("REGIONS_SIM_ITRACE") != NULL;
	char msg[256];
	static struct run r;

	bench_error_clear(&err);
	if (elf_open(argv[1], &elf, &err) < 0) {
		printf("FAIL: %s\n", err.msg);
		return 1;
	}
	struct sim_bus *bus = &board.bus;
	struct sim_core *core = board_init(&board, &cfg, msg, sizeof(msg)) == 0 ? board.core : NULL;
	if (!core || core_load_elf(core, argv[1], msg, sizeof(msg)) < 0) {
		printf("FAIL: %s\n", msg);
		return 1;
	}
	core_power_on_reset(core);
	int driven = drive(core, bus, &elf, iterations, &r);

	struct bench_report rep;
	struct regions_header h;
	struct regions_source src = {bus_reader, bus, bus_reader, bus, 1};
	const struct elf_symbol *tab = elf_symbol(&elf, REGIONS_SYMBOL);
	results_init(&rep);
	if (!tab || regions_fetch(&src, tab->addr, &rep, &h, &err) < 0) {
		printf("FAIL: region table: %s\n", tab ? err.msg : "no symbol");
		return 1;
	}

	if (print || driven < 0) {
		printf("marker calibration pair: %" PRId64 " cycles\n", r.cal);
		for (size_t i = 0; i < r.n; i++)
			printf("marker %-12s %8" PRId64 " cycles (%" PRIu64 " samples)\n", r.p[i].name, r.p[i].last,
			       r.p[i].n);
		printf("table: overhead %" PRIu32 " nest_overhead %" PRIu32 " isr_overhead %" PRIu32 " flags 0x%" PRIx32
		       "\n",
		       h.overhead, h.nest_overhead, h.isr_overhead, h.flags);
		for (size_t i = 0; i < rep.n_regions; i++) {
			const struct bench_region_result *g = &rep.regions[i];
			printf("region %-12s count %6" PRIu64 " total %10" PRIu64
			       " min %6u max %6u last %6u ema %8.1f err 0x%x",
			       g->name, g->count, g->total, g->min, g->max, g->last, g->ema, g->error_flags);
			for (size_t e = 0; e < g->n_events; e++)
				printf(" %s=%" PRIu64, g->events[e].name, g->events[e].value);
			printf("\n");
		}
	}

	if (driven < 0) {
		results_free(&rep);
		board_free(&board);
		elf_close(&elf);
		return 1;
	}
	/* Every iteration ran the regions once. */
	uint64_t runs = iterations;
	const struct bench_region_result *work = region(&rep, "work"), *empty = region(&rep, "empty"),
	                                 *outer = region(&rep, "outer"), *inner = region(&rep, "inner"),
	                                 *latched = region(&rep, "latched"), *victim = region(&rep, "victim"),
	                                 *tick = region(&rep, "tick"), *burst = region(&rep, "burst"),
	                                 *cal0 = region(&rep, "pfp.overhead"), *cal1 = region(&rep, "pfp.nested");
	CHECK(h.flags & PFP_T_CALIBRATED, "table not calibrated");
	CHECK(work->count == runs, "work.count %" PRIu64 ", expected %" PRIu64, work->count, runs);
	CHECK(work->min == work->max, "work varies: %u..%u", work->min, work->max);
	CHECK(work->last == marker(&r, "work"), "work region %u != marker %" PRId64, work->last, marker(&r, "work"));
	CHECK(empty->count == runs && empty->max == 0, "empty region: count %" PRIu64 " max %u (residual)",
	      empty->count, empty->max);
	CHECK(cal0->max == 0 && cal1->max == 0, "calibration residuals %u %u", cal0->max, cal1->max);
	/* Between markers work() returns to a BKPT; inside a region to pfp_end()'s first instruction.
	 * When that is a 32-bit instruction at an address 2 mod 4 (GCC puts `mrs r3, PRIMASK` there),
	 * the return waits one fetch cycle more (docs/cycle-model.md, the fetch model): a region is one
	 * cycle per call longer than its markers here, the same in both builds and every run. */
	int with_events = (h.flags & PFP_T_EVENTS) != 0;
	CHECK(inner->last == marker(&r, "w50") + 1, "inner %u != marker w50 %" PRId64 " + 1", inner->last,
	      marker(&r, "w50"));
	CHECK(outer->last == marker(&r, "w100") + marker(&r, "w30") + 2, "outer %u != w100 + w30 = %" PRId64 " + 2",
	      outer->last, marker(&r, "w100") + marker(&r, "w30"));
	CHECK(latched->count == runs, "latched.count %" PRIu64, latched->count);
	CHECK(latched->last == marker(&r, "w40") + marker(&r, "w60") + 1, "latched %u != w40 + w60 = %" PRId64 " + 1",
	      latched->last, marker(&r, "w40") + marker(&r, "w60"));
	/* SysTick ticks per victim run: 16, 173 with the event set (its handler reads three counters). */
	uint64_t ticks_per_run = with_events ? 173u : 16u;
	CHECK(tick->count == runs * ticks_per_run, "SysTick ran %" PRIu64 " times, expected %" PRIu64 " per victim run",
	      tick->count, ticks_per_run);
	/* The victim leaves each interruption out with the overhead pfp calibrated once (docs/regions.md).
	 * Ticks are taken at the instruction where they expire (docs/core.md), and what an entry and a
	 * return cost depends on where the tick lands (the return's fetch stall, a loop's refill): the
	 * victim is below the uninterrupted work by the same few cycles every run: 24 with the plain
	 * build, 255 with the event set, whose handler is longer (within 40 per interruption). */
	int64_t off = (int64_t)victim->last - marker(&r, "w5000");
	int64_t want_off = with_events ? -255 : -24;
	CHECK(victim->min == victim->max && off == want_off,
	      "victim %u..%u is %" PRId64 " from marker w5000 %" PRId64 ", expected %" PRId64
	      " (interrupt time not excluded)",
	      victim->min, victim->max, off, marker(&r, "w5000"), want_off);
	int64_t want_isr = with_events ? 254871 : 24815; /* the handlers included */
	CHECK(marker(&r, "victim_isr") == want_isr,
	      "markers around the interrupted work %" PRId64 ", expected %" PRId64, marker(&r, "victim_isr"), want_isr);
	CHECK(burst->count == runs * 1000u, "burst.count %" PRIu64, burst->count);
	/* With an event set, regions whose intervals are longer than an 8-bit DWT counter's range say
	 * so (PFP_E_EVT_WRAP, 0x8); nothing else may go wrong. */
	for (size_t i = 0; i < rep.n_regions; i++) {
		const struct bench_region_result *g = &rep.regions[i];
		uint32_t allowed = with_events && g->max > 255 ? 0x8u : 0u;
		CHECK((g->error_flags & ~allowed) == 0, "region %s has errors 0x%x: %s", g->name, g->error_flags,
		      g->error);
	}
	if (with_events) {
		const struct bench_region_result *e10 = region(&rep, "ev10"), *e20 = region(&rep, "ev20");
		CHECK(e10->n_events == 3 && e20->n_events == 3 && e10->count == runs && e20->count == runs,
		      "ev10/ev20 carry 3 events over %" PRIu64 " samples", runs);
		if (e10->n_events == 3 && e20->n_events == 3 && runs) {
			/* work(20) - work(10): ten more turns of ADDS, CMP, BNE (examples/regions work()). */
			uint64_t dins = (e20->events[0].value - e10->events[0].value) / runs;
			uint64_t dcyc = (e20->events[1].value - e10->events[1].value) / runs;
			CHECK(!strcmp(e10->events[0].name, "PAPI_TOT_INS") && dins == 30,
			      "PAPI_TOT_INS(work(20)) - PAPI_TOT_INS(work(10)) = %" PRIu64 ", expected 30", dins);
			/* The fetch model's stalls fall on whichever instruction waits: the event and the
			 * cycle reads around the two calls see them split differently, 39 against 41. */
			CHECK(dcyc == 39 && e20->last - e10->last == 41,
			      "PAPI_TOT_CYC difference %" PRIu64 ", cycles %u: expected 39 and 41", dcyc,
			      e20->last - e10->last);
			CHECK(e20->events[2].value == e10->events[2].value,
			      "DWT_LSUCNT differs: the loop has no loads");
		}
	}
	if (print) {
		printf("figure-data: overhead=%" PRIu32 " pair=%" PRId64 " halts=%u region_samples=%" PRIu64 "\n",
		       h.overhead, marker(&r, "pfp_pair"), r.halts, burst->count);
	}
	printf("%s\n", fail ? "regions_sim: FAILED" : "regions_sim: ok");
	results_free(&rep);
	board_free(&board);
	elf_close(&elf);
	return fail;
}
