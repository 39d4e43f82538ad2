/* Profile points (PFP): regions the firmware measures itself, read by the host out of a RAM table.
 * After TI's Profile Point component for SYS/BIOS (pfpCreate/pfpBegin/pfpEnd...), rebuilt for bare
 * metal: nested regions measure exclusive cycles, a latched end carries a partial measurement into
 * the next Begin-End pair, End before Begin is allowed in loops, Begin-Begin on one id disables the
 * region and records why, and time the code does not run (interrupts, other tasks) is left out.
 *
 * Every PFP call reads the counter twice: on entry (the time since the previous call is charged to
 * the innermost open region) and on exit (the next interval starts there). The call's own
 * bookkeeping therefore belongs to no region; what is left (call, entry and return sequences) is a
 * constant that pfp_calibrate() measures and subtracts. docs/regions.md has the whole story.
 *
 * C99, no libc. Declare ids once in a header (PFP_DECLARE_IDS) and the table once in a .c file
 * (PFP_DEFINE_TABLE):
 *
 *     #define APP_REGIONS(X) X(APP_ID_FILTER, "filter") X(APP_ID_FFT, "fft")
 *     PFP_DECLARE_IDS(APP_REGIONS)           // in app_regions.h
 *     PFP_DEFINE_TABLE(APP_REGIONS)          // in exactly one .c file
 */
#ifndef TARGET_INCLUDE_PFP_H
#define TARGET_INCLUDE_PFP_H

#include <stdint.h>

#include "papi_events.h"

/* The table's magic, version, offsets and flag bits are shared with the host. */
#include "bench_abi.h"

#include "pfp_port.h"

/* One region's record: 96 bytes, the layout docs/regions.md documents and host/firmware/regions.c decodes.
 * Fields above `partial` are statistics the host reports; the rest is run-time state. */
struct pfp_region {
	uint32_t count;                      /* 0   completed samples */
	uint32_t flags;                      /* 4   PFP_F_* */
	uint32_t errors;                     /* 8   PFP_E_* */
	uint32_t last;                       /* 12  the last completed sample */
	uint64_t total;                      /* 16  sum of all samples */
	uint32_t min;                        /* 24  0xffffffff before the first sample */
	uint32_t max;                        /* 28 */
	float ema;                           /* 32  exponential moving average, when alpha > 0 */
	float alpha;                         /* 36  PFP: alpha = T / tau */
	uint32_t partial;                    /* 40  the sample being measured (carried across latched Ends) */
	struct pfp_region *up;               /* 44  enclosing open region (the active stack) */
	uint64_t events[PFP_MAX_EVENTS];     /* 48  event totals over completed samples */
	uint32_t ev_partial[PFP_MAX_EVENTS]; /* 80  events of the sample being measured */
};

/* The table header: 64 bytes at symbol `bench_regions`. */
struct pfp_table {
	uint32_t magic;                  /* 0   PFP_TABLE_MAGIC */
	uint16_t version;                /* 4   PFP_TABLE_VERSION */
	uint16_t header_size;            /* 6   sizeof(struct pfp_table) on the target: 64 */
	uint16_t record_size;            /* 8   sizeof(struct pfp_region) on the target: 96 */
	uint16_t count;                  /* 10  regions */
	volatile uint32_t seq;           /* 12  odd while the target updates statistics (seqlock) */
	uint32_t counter;                /* 16  PFP_COUNTER_* (papi_events.h) */
	uint32_t core_clock_hz;          /* 20  set by pfp_init() */
	uint32_t overhead;               /* 24  bias of an empty region, subtracted from every Begin-End pair */
	uint32_t nest_overhead;          /* 28  bias an empty inner pair leaves in the enclosing region */
	uint32_t isr_overhead;           /* 32  bias an interrupt leaves in the interrupted region */
	uint32_t flags;                  /* 36  PFP_T_* */
	uint32_t n_events;               /* 40 */
	uint16_t events[PFP_MAX_EVENTS]; /* 44  enum papi_event codes */
	const char *const *names;        /* 52  names[count], in flash */
	struct pfp_region *regions;      /* 56  records[count] */
	uint32_t errors;                 /* 60  PFP_TE_* */
};

/* Defined by PFP_DEFINE_TABLE in the application. */
extern struct pfp_table bench_regions;
extern struct pfp_region pfp_records[];

/* Statistics as pfpGetStats() returns them. */
struct pfp_stats {
	uint32_t count, min, max, last;
	uint64_t total;
	float alpha, ema;
	uint32_t flags, errors;
	uint64_t events[PFP_MAX_EVENTS];
};

/* Ids 0 and 1 belong to the runtime: pfp_calibrate() measures with them, and afterwards region 0
 * holds the residual of an empty region (0 when the calibration is exact). */
#define PFP_ID_OVERHEAD 0
#define PFP_ID_NESTED   1

#define PFP_ENUM_ENTRY_(id, name) id,
#define PFP_NAME_ENTRY_(id, name) name,
#define PFP_DECLARE_IDS(LIST)                                                                                          \
	enum { PFP_ID_OVERHEAD_ = PFP_ID_OVERHEAD, PFP_ID_NESTED_ = PFP_ID_NESTED, LIST(PFP_ENUM_ENTRY_) PFP_ID_COUNT }
#define PFP_DEFINE_TABLE(LIST)                                                                                         \
	static const char *const pfp_names_[] = {"pfp.overhead", "pfp.nested", LIST(PFP_NAME_ENTRY_)};                 \
	struct pfp_region pfp_records[sizeof(pfp_names_) / sizeof(pfp_names_[0])];                                     \
	struct pfp_table bench_regions = {PFP_TABLE_MAGIC,                                                             \
	                                  PFP_TABLE_VERSION,                                                           \
	                                  (uint16_t)sizeof(struct pfp_table),                                          \
	                                  (uint16_t)sizeof(struct pfp_region),                                         \
	                                  (uint16_t)(sizeof(pfp_names_) / sizeof(pfp_names_[0])),                      \
	                                  0,                                                                           \
	                                  0,                                                                           \
	                                  0,                                                                           \
	                                  0,                                                                           \
	                                  0,                                                                           \
	                                  0,                                                                           \
	                                  0,                                                                           \
	                                  0,                                                                           \
	                                  {0, 0, 0, 0},                                                                \
	                                  pfp_names_,                                                                  \
	                                  pfp_records,                                                                 \
	                                  0}

/* Resets the table: every region disabled, statistics cleared, no calibration (overhead 0).
 * PFP's pfpCreate(): call first, before any other PFP function. */
void pfp_init(uint32_t core_clock_hz);

/* Measures the bias of an empty Begin-End pair `loops` times with region 0 (and of an empty nested
 * pair with regions 0 and 1), keeps the minimum, and subtracts it from every later measurement.
 * Then measures `loops` empty regions again so region 0 shows the residual. Call after pfp_init()
 * and before the first Begin. */
void pfp_calibrate(unsigned loops);

/* Measures what an interrupt leaves in the interrupted region (entry, return, and the handler's
 * code before pfp_isr_enter() and after pfp_isr_exit()), with `pend` making an interrupt pending
 * whose handler uses the ISR helpers. Compares an empty region with the interrupt taken inside it
 * against the same region with the interrupt held off by the critical section. */
void pfp_calibrate_isr(void (*pend)(void), unsigned loops);

void pfp_enable(unsigned id);
/* Disabling an open region closes it without a sample. Call from a low enough priority (PFP). */
void pfp_disable(unsigned id);
void pfp_set_alpha(unsigned id, float alpha);
void pfp_get_stats(unsigned id, struct pfp_stats *out);
void pfp_reset_stats(unsigned id);

/* Begin and End are inline so that the counter is read within a few instructions of the caller's
 * code: the critical section and the counter read here (or in the port's fixed sequence,
 * PFP_PORT_BEGIN/END), the bookkeeping in pfp.c, and the closing read in pfp_finish(), a leaf that
 * returns straight to the caller. What is left between the two
 * reads of an empty region is the calibrated overhead (docs/regions.md "Cost"). */
void pfp_begin_at(unsigned id, uint32_t now, pfp_port_irq_t s);
void pfp_end_at(unsigned id, int latch, uint32_t now, pfp_port_irq_t s);

static inline void pfp_begin(unsigned id)
{
#if defined(PFP_PORT_BEGIN)
	PFP_PORT_BEGIN(id);
#else
	pfp_port_irq_t s = pfp_port_lock();
	pfp_begin_at(id, pfp_port_cycles(), s);
#endif
}

/* latch != 0: keep this pair's cycles as a partial measurement that the next pair of the same id
 * continues; latch == 0: complete the sample and update the statistics. End of a region that is
 * not open (End before Begin in a loop) does nothing. */
static inline void pfp_end(unsigned id, int latch)
{
#if defined(PFP_PORT_END)
	PFP_PORT_END(id, latch);
#else
	pfp_port_irq_t s = pfp_port_lock();
	pfp_end_at(id, latch, pfp_port_cycles(), s);
#endif
}

/* Time the code does not run: a context switch. Each thread of execution keeps its open regions
 * in a struct pfp_ctx; pfp_switch(prev, next) charges the running regions, parks them in prev and
 * resumes next's. NULL stands for a context that has no regions open (the idle loop). */
struct pfp_ctx {
	struct pfp_region *top;
};
void pfp_switch(struct pfp_ctx *prev, struct pfp_ctx *next);
void pfp_switch_out(struct pfp_ctx *prev);
void pfp_switch_in(struct pfp_ctx *next);

/* Interrupt helpers: first and last thing in a handler. Interrupt time is left out of the interrupted
 * region; regions the handler opens are measured on their own. Nesting handlers is fine: the saved
 * state lives on each handler's stack. */
typedef struct pfp_region *pfp_isr_t;
pfp_isr_t pfp_isr_enter(void);
void pfp_isr_exit(pfp_isr_t saved);

/* Regions record the events of this set beside cycles (PFP_T_EVENTS). Returns 0, or -1 when an
 * event is unknown on this port or the set cannot be counted at once (PFP_TE_EVT_CONFLICT). */
int pfp_set_events(const uint16_t *events, unsigned n);

/* The PAPI high-level calls as ePAPI implements them (table 3), with PAPI's semantics: read copies the
 * counts since start (or the previous read/accum) into values and restarts them; accum adds them to
 * values; stop reads and stops. n must equal the started set's size. Results: */
#define PFP_PAPI_OK      0
#define PFP_PAPI_WRAPPED 1    /* values taken, but an 8-bit counter may have wrapped: read more often */
#define PFP_PAPI_EINVAL  (-1) /* unknown event, too many, or n differs from the started set */
#define PFP_PAPI_ECNFLCT (-2) /* two events need different multiplexer settings (TriCore CCTRL) */
#define PFP_PAPI_ENOTRUN (-3)
#define PFP_PAPI_EISRUN  (-4)
int pfp_papi_start(const uint16_t *events, unsigned n);
int pfp_papi_read(int64_t *values, unsigned n);
int pfp_papi_accum(int64_t *values, unsigned n);
int pfp_papi_stop(int64_t *values, unsigned n);

#endif /* TARGET_INCLUDE_PFP_H */
