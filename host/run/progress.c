/* A one-line progress bar on a TTY (\r redraws, ANSI "erase line" at the end). Nothing at all when
 * the stream is not a terminal, so pipes and CI logs stay clean. */
#include "run/progress.h"

#include <unistd.h>

#include "base/clock.h"

#define PROGRESS_DELAY_MS 1000u
#define PROGRESS_EVERY_MS 100u
#define PROGRESS_BAR      30

void progress_begin(struct progress *p, FILE *out, bool want, size_t total)
{
	p->out = out;
	p->enabled = want && out && isatty(fileno(out));
	p->shown = false;
	p->start_ms = p->last_ms = clock_now_ms();
	p->total = total;
}

void progress_update(struct progress *p, size_t done)
{
	uint64_t now;
	size_t fill;

	if (!p->enabled || !p->total)
		return;
	now = clock_now_ms();
	if (now - p->start_ms < PROGRESS_DELAY_MS || (p->shown && now - p->last_ms < PROGRESS_EVERY_MS))
		return;
	if (done > p->total)
		done = p->total;
	fill = done * PROGRESS_BAR / p->total;
	p->last_ms = now;
	p->shown = true;
	fputc('\r', p->out);
	fputc('[', p->out);
	for (size_t i = 0; i < PROGRESS_BAR; i++)
		fputc(i < fill ? '#' : '.', p->out);
	fprintf(p->out, "] %zu/%zu  %.1f s", done, p->total, (double)(now - p->start_ms) / 1000.0);
	(void)fflush(p->out); /* a bar that cannot be drawn (stderr closed) is no reason to stop measuring */
}

void progress_end(struct progress *p)
{
	if (p->enabled && p->shown) {
		fputs("\r\033[K", p->out);
		(void)fflush(p->out); /* as above */
	}
	p->shown = false;
}

/* The phases of a run (BENCH_STATS=1) are the progress of its wall time: here, so that loop.c,
 * loop_marker.c and run.c all record them without calling each other. */
void run_phase_done(struct run_phases *p, enum run_phase ph)
{
	if (p && !p->ms[ph])
		p->ms[ph] = clock_now_ms() - p->t0_ms;
}
