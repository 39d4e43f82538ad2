/* What a run measures besides cycles (issue 24): stack depth (--stack) and code size
 * (--code-size), prepared before the session starts and, on the virtual board, read from
 * bench-sim's halt records (session/sim_record.h) at END halts. run.c calls it; the loop reaches
 * the records only through loop_hooks.measures_record. */
#ifndef HOST_RUN_RUN_MEASURES_H
#define HOST_RUN_RUN_MEASURES_H

#include <stdbool.h>

#include "base/error.h"
#include "firmware/code_image.h"
#include "firmware/elf.h"
#include "results/results.h"
#include "run/loop_state.h"
#include "run/run_opts.h"

struct sim_record_reader;

struct run_measures {
	bool want_record;                 /* bench-sim must write its halt records (session_opts.want_record) */
	struct sim_record_reader *reader; /* open once the session runs */
	struct code_image img;            /* --code-size */
	bool img_open;
	uint32_t *pcs; /* the last record's instruction addresses (loop_record.pcs) */
	size_t n_pcs_cap;
};

/* Before anything starts: the stack's method and limit into ctx and cfg (exact where the virtual
 * board's records can say it, sim_served), the image for --code-size. BENCH_E_USAGE for what the
 * command line asks that cannot be. */
int run_measures_prepare(struct run_measures *m, const struct run_opts *o, const struct elf_file *elf, bool sim_served,
                         struct bench_context *ctx, struct loop_config *cfg, struct bench_error *err);
/* Once the session runs in WORK_DIR: opens the record reader when one is wanted. */
int run_measures_open(struct run_measures *m, const char *work_dir, struct bench_error *err);
/* loop_hooks.measures_record: the record of the halt the core is in now (ctx: a struct run_measures). */
int run_measures_halt_record(void *ctx, struct loop_record *out, struct bench_error *err);
/* After the loop: the static code size of every result (--code-size on a board without records). */
int run_measures_code(struct run_measures *m, const struct run_opts *o, const struct elf_file *elf,
                      struct bench_report *rep, struct bench_error *err);
void run_measures_close(struct run_measures *m);

#endif /* HOST_RUN_RUN_MEASURES_H */
