/* Sampling the PC while a stretch runs (profile_sample.h): DWT_PCSR read over the probe without
 * halting the core (Armv7-M ARM C1.8.8), until a read says the core halted (0xFFFFFFFF: the END
 * marker's BKPT, or any other halt), then the halt is taken as the marker loop takes it.
 *
 * OpenOCD's memory reads all step the address (read_memory ADDR 32 N reads N words from ADDR up,
 * mdw too), so reading one register N times is N commands. Through OpenOCD's TCL port a Tcl loop
 * of N `read_memory` runs them in one round trip of the RPC; where the backend does not evaluate Tcl
 * (the reply is not N words) each sample is one backend_read_u32. OpenOCD's own `profile` command
 * (src/target/target.c, cortex_m.c cortex_m_profiling) reads PCSR the same way but for a fixed time
 * and writes only a gmon histogram, not the samples of one stretch: perf/profile_pcsr.sh compares
 * the rates. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/str.h"
#include "profile/profile_sample.h"

void profile_sampler_init(struct profile_sampler *s, struct profile *prof, unsigned batch)
{
	memset(s, 0, sizeof(*s));
	s->prof = prof;
	s->batch = batch ? batch : PROFILE_BATCH;
	if (s->batch > PROFILE_BATCH_MAX)
		s->batch = PROFILE_BATCH_MAX;
	s->tcl = true; /* until a reply says otherwise */
}

/* n reads of PCSR in one Tcl evaluation; false when the reply is not n words (not a Tcl backend). */
static int read_batch_tcl(unsigned want, struct backend *bk, uint32_t *vals, unsigned *n, struct bench_error *err)
{
	char script[192], reply[PROFILE_BATCH_MAX * 12 + 16];
	const char *p = reply;
	unsigned got = 0;
	int rc;

	str_fmt_cut(script, sizeof(script),
	            "set _pb {}; for {set _pi 0} {$_pi < %u} {incr _pi} "
	            "{lappend _pb [read_memory 0x%08x 32 1]}; join $_pb",
	            want, PROFILE_PCSR_ADDR);
	if ((rc = backend_monitor(bk, script, reply, sizeof(reply), err)))
		return rc;
	while (got < want) {
		char *end;
		unsigned long v;

		while (*p == ' ' || *p == '{' || *p == '}' || *p == '\n')
			p++;
		if (!*p)
			break;
		v = strtoul(p, &end, 0);
		if (end == p || v > 0xFFFFFFFFul)
			break;
		vals[got++] = (uint32_t)v;
		p = end;
	}
	*n = got;
	return 0;
}

static int read_batch(struct profile_sampler *s, struct backend *bk, unsigned want, uint32_t *vals, unsigned *n,
                      struct bench_error *err)
{
	int rc;

	if (s->tcl && backend_has(bk, BK_CAP_MONITOR)) {
		rc = read_batch_tcl(want, bk, vals, n, err);
		if (!rc && *n == want) {
			s->round_trips++;
			return 0;
		}
		bench_error_clear(err); /* not Tcl: one read a sample from now on */
		s->tcl = false;
	}
	s->round_trips++;
	*n = 1;
	return backend_read_u32(bk, PROFILE_PCSR_ADDR, &vals[0], err);
}

int profile_sampled_resume(void *ctx, struct backend *bk, const char *stretch, unsigned timeout_ms,
                           uint32_t sample_addr, struct backend_halt_info *out, uint32_t *sample,
                           struct bench_error *err)
{
	struct profile_sampler *s = ctx;
	struct profile_stretch *st = profile_stretch(s->prof, stretch);
	uint64_t t0 = clock_now_ms();
	uint32_t vals[PROFILE_BATCH_MAX];
	/* Batches start small and double up to s->batch while the stretch runs: the reads of a batch
	 * sent after the END halt are wasted, a whole batch per stretch for short ones otherwise. */
	unsigned want = s->batch < PROFILE_BATCH_FIRST ? s->batch : PROFILE_BATCH_FIRST;
	bool halted = false;
	int rc;

	if (!st)
		return bench_fail(err, BENCH_E_NOMEM, "out of memory keeping the profile's samples");
	if ((rc = backend_resume(bk, err)))
		return rc;
	while (!halted) {
		unsigned n = 0;

		if (bench_cancelled(&bk->cancel) || clock_now_ms() - t0 >= timeout_ms) {
			st->seconds += (double)(clock_now_ms() - t0) / 1000.0;
			return bench_fail(err, BENCH_E_TIMEOUT, "the stretch %s did not end while sampling", stretch);
		}
		if ((rc = read_batch(s, bk, want, vals, &n, err))) {
			st->seconds += (double)(clock_now_ms() - t0) / 1000.0; /* the samples kept stay rated */
			return rc;
		}
		want = 2 * want < s->batch ? 2 * want : s->batch;
		for (unsigned i = 0; i < n; i++) {
			/* 0 is no executed address (the vector table's initial SP sits there): a PCSR that
			 * is not implemented reads as zero (Armv7-M ARM C1.8.8; OpenOCD's cortex_m_profiling
			 * tests the same). */
			if (vals[i] == 0)
				return bench_fail(err, BENCH_E_UNSUPPORTED,
				                  "DWT_PCSR reads 0 while the core runs: this core has no PC sampler "
				                  "(optional in Armv7-M, absent in Armv6-M): drop --profile");
			halted = halted || vals[i] == PROFILE_PCSR_HALTED;
			s->reads++;
			if (profile_add(st, vals[i]))
				return bench_fail(err, BENCH_E_NOMEM, "out of memory keeping the profile's samples");
		}
	}
	st->seconds += (double)(clock_now_ms() - t0) / 1000.0;
	/* Halted: the halt is there to take at once, as backend_resume_sample would report it. */
	if ((rc = backend_wait_halt(bk, PROFILE_HALT_WAIT_MS, out, err)))
		return rc;
	return sample_addr ? backend_read_u32(bk, sample_addr, sample, err) : 0;
}
