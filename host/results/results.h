/* What a run measured, independent of how it is reported: the in-memory form of the JSON report
 * (docs/report-schema.md). Filled by run.c (and regions.c), written by the reporters in report/,
 * and read back from JSON by report/json_read.c for `bench compare` and `bench report`. */
#ifndef HOST_RESULTS_RESULTS_H
#define HOST_RESULTS_RESULTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"

#define BENCH_SCHEMA_VERSION 1
#define BENCH_MAX_ARGS       8
#define BENCH_NAME_MAX       64
#define BENCH_MAX_WARNINGS   16
#define BENCH_MAX_UART_LINES 200 /* firmware UART lines a report keeps (--uart) */
#define BENCH_UART_LINE_MAX  256

enum bench_status { BENCH_STATUS_OK = 0, BENCH_STATUS_INCOMPLETE, BENCH_STATUS_ERROR };

struct bench_stats {
	size_t n;
	double min, max, mean, median, stddev;
};

struct bench_arg {
	char name[BENCH_NAME_MAX];
	int64_t value;
};

/* Per-sample flags. */
#define BENCH_SAMPLE_WRAPPED     0x1u /* the interval may have wrapped the 32-bit counter */
#define BENCH_SAMPLE_INTERRUPTED 0x2u /* an exception was taken inside the stretch (issue 13) */

/* bench run --stack (issue 24, docs/run.md "Stack depth"): the bytes of stack each sample's stretch
 * used below the stack pointer at BEGIN, beside `samples` (index i is sample i). Additive to schema
 * version 1 (JSON `stack` of a result). */
#define BENCH_STACK_OVERFLOW  0x1u /* reached the limit: a possible overflow, never a depth */
#define BENCH_STACK_EXCEPTION 0x2u /* an exception was taken in the stretch: its frame is counted */

struct bench_stack {
	uint32_t *bytes; /* per sample; 0 where flagged overflow */
	uint8_t *flags;  /* BENCH_STACK_* per sample */
	size_t n, cap;
	/* results_stack_stats over the samples not flagged overflow: */
	size_t n_depths, n_overflow, n_exception;
	uint32_t min, max;
};

/* bench run --code-size (issue 24, docs/reports.md "Code size"): the bytes of the functions a
 * stretch runs, each counted once with its symbol's size, split by the section holding it.
 * Additive to schema version 1 (JSON `code` of a result). */
#define BENCH_CODE_MAX_SECTIONS 8
struct bench_code_section {
	char name[24];
	uint64_t bytes;
};

struct bench_code {
	char method[12]; /* "" none; "static" (the ELF's call graph), "executed" (the virtual board's pcs) */
	uint64_t bytes;  /* the functions' sizes summed */
	size_t n_functions;
	size_t unknown_calls;  /* static: calls or jumps through a register; what they reach is not counted */
	uint32_t inline_bytes; /* the stretch's own instructions between BEGIN and END, not in `bytes` */
	struct bench_code_section sections[BENCH_CODE_MAX_SECTIONS];
	size_t n_sections;
};

struct bench_result {
	char name[BENCH_NAME_MAX]; /* the marker pair's name */
	struct bench_arg args[BENCH_MAX_ARGS];
	size_t n_args;
	char unit[16];    /* "cycles" (or "instructions" where only an instruction count exists) */
	int64_t *samples; /* after overhead subtraction */
	uint8_t *sample_flags;
	size_t n_samples, cap_samples;
	struct bench_stats stats;
	char error[256];          /* this result's own error, "" if none */
	struct bench_stack stack; /* --stack; n 0 without */
	struct bench_code code;   /* --code-size; method "" without */
};

/* PAPI-style event value recorded beside a region's cycles (issue: regions). */
struct bench_event {
	char name[32]; /* "PAPI_TOT_INS" */
	uint64_t value;
};

#define BENCH_MAX_EVENTS 8

struct bench_region_result {
	char name[BENCH_NAME_MAX];
	uint32_t id;
	uint64_t count, total;
	uint32_t min, max, last;
	double mean, ema;
	bool enabled;
	uint32_t error_flags;
	char error[128];
	struct bench_event events[BENCH_MAX_EVENTS];
	size_t n_events;
	/* The board has no cycle counter (counter: none): total, min, max, last, mean and ema are not
	 * cycles and are reported as not measured (JSON null, console "-"); count stays (docs/regions.md). */
	bool no_cycles;
};

/* A sampled PC profile of one marker pair (bench run --profile, docs/profile.md): JSON `profile`,
 * additive to schema version 1. share is samples / total; error its binomial standard error
 * sqrt(share (1 - share) / total); cycles is share times the pair's mean cycles. */
struct bench_profile_fn {
	char name[BENCH_NAME_MAX]; /* the ELF function, or "[unknown]" where no symbol covers the PC */
	uint64_t samples;
	double share, error, cycles;
	/* Exact profiles only (bench_profile.exact): cycles spent in the function's own instructions
	 * (exclusive, == cycles), in it and everything it called or that interrupted it (inclusive, each
	 * stack counted once however often the function is on it), times entered by a call or an
	 * exception, instructions executed, and the exclusive cycles under each reason. */
	uint64_t self, incl, calls, execs;
	uint64_t *by_reason; /* n_reasons of the profile */
};

/* One (function, source line) with samples; file "" and line 0 where the ELF has no line for it. */
struct bench_profile_line {
	char function[BENCH_NAME_MAX];
	char file[256];
	unsigned line;
	uint64_t samples;
	uint64_t cycles; /* integer shares of the total: the lines' cycles add up to round(mean cycles) */
	uint64_t execs;  /* exact profiles: instructions executed on the line */
};

/* Exact profiles: one instruction of the stretch, all its calling contexts together. */
struct bench_profile_insn {
	uint32_t addr;
	char function[BENCH_NAME_MAX];
	char file[256]; /* "" and line 0 where the ELF has no line for it */
	unsigned line;
	uint64_t execs, cycles;
	uint64_t *by_reason;
	char disasm[64]; /* "bl 0x8000242" (capstone); "" when unknown */
};

/* Exact profiles: one call stack ("main;fut;__aeabi_fmul", outermost first) and the cycles of the
 * instructions run with exactly that stack (folded stacks). */
struct bench_profile_stack {
	char *frames;
	uint64_t cycles;
};

/* Exact profiles: the calls from one function to another (an exception's handler counts as called
 * by the function it interrupted), with the inclusive cycles of the callee's runs from there. */
struct bench_profile_call {
	char caller[BENCH_NAME_MAX], callee[BENCH_NAME_MAX];
	uint32_t caller_addr; /* the caller's first instruction run in that context: the call's position */
	uint64_t calls, incl, incl_execs;
	uint64_t *incl_by_reason;
};

struct bench_profile {
	char name[BENCH_NAME_MAX];          /* the marker pair */
	char source[16];                    /* what was sampled: "DWT_PCSR" */
	uint64_t samples;                   /* PCSR reads that named an instruction */
	uint64_t discarded;                 /* reads of 0xFFFFFFFF (the core halted or in Debug state) */
	double cycles;                      /* the pair's mean cycles over its samples, all inputs */
	bool cycles_known;                  /* false: the pair has no measured sample (an interrupted run): no cycles */
	double seconds;                     /* time spent sampling, for the rate */
	struct bench_profile_fn *functions; /* most samples first */
	size_t n_functions;
	struct bench_profile_line *lines; /* by function in the order above, then file and line */
	size_t n_lines;
	/* Exact profiles (source "ledger": the virtual board's cycle ledger, docs/profile.md), one per
	 * result (marker pair and input). samples and discarded are 0, share is cycles / total and error
	 * 0. The calibrated empty pair's cycles are taken off each of the result's `stretches` measured
	 * stretches. When they all ran alike (the same cycles on every instruction), the figures are
	 * one stretch's and total is the result's cycles; else (summed) the sums over all of them, and
	 * total is the sum of the result's samples. */
	bool exact;
	bool summed;
	struct bench_arg args[BENCH_MAX_ARGS];
	size_t n_args;
	uint64_t stretches, total;
	char (*reasons)[32]; /* the ledger's reasons, in the order of every by_reason array */
	size_t n_reasons;
	struct bench_profile_insn *insns; /* by address */
	size_t n_insns;
	struct bench_profile_stack *stacks; /* most cycles first */
	size_t n_stacks;
	struct bench_profile_call *calls;
	size_t n_calls;
	char note[256]; /* what was not exact ("" when all is): shown and kept in the JSON */
};

struct bench_context {
	char tool_version[32];
	char firmware[1024];
	char firmware_sha256[65];
	char board[64];
	char probe[64];
	char backend[32];         /* "openocd-tcl", "gdb-rsp" */
	char transport[8];        /* how the OpenOCD bench started reached the board: "dap", "hla", "jtag"; "" else */
	char server_version[128]; /* OpenOCD / gdbserver version string */
	char counter[32];         /* "DWT_CYCCNT", "none" */
	bool cycles_modelled;     /* true on the virtual board: cycles come from its model */
	uint64_t core_clock_hz;
	int64_t overhead_cycles;
	char date[32]; /* ISO 8601 UTC */
	/* Additive to schema version 1 (issue 13): */
	char clock_source[16]; /* where core_clock_hz comes from: "firmware", "--clock-hz", "board"; "" unknown */
	bool mask_irqs;        /* --mask-irqs: DHCSR.C_MASKINTS set from BEGIN to END */
	bool keep_interrupted; /* --keep-interrupted: interrupted samples count in the statistics */
	/* bench run --stack (issue 24): how the depth was measured, "" without --stack: "paint" (a
	 * pattern written below SP at BEGIN, scanned at END), "exact" (the virtual board's lowest SP). */
	char stack_method[8];
	uint32_t stack_limit;      /* the lowest address the stack may reach */
	char stack_limit_from[64]; /* where the limit came from: a linker symbol or "--stack-limit" */
	/* bench run --code-size: the image as `size` prints it (Berkeley format); image_known false without. */
	bool image_known;
	uint64_t image_text, image_data, image_bss;
};

struct bench_report {
	int schema_version;
	enum bench_status status;
	char status_detail[32]; /* bench_err_name() of what ended the run, "ok" otherwise */
	char error[1024];       /* "" when none */
	struct bench_context context;
	struct bench_result *results;
	size_t n_results, cap_results;
	/* results_get's hash index (open addressing, result index + 1, 0 empty): finding a result is
	 * O(1), so a 10^6-input sweep or report is not 10^12 comparisons. Private to results.c. */
	size_t *index;
	size_t index_cap;
	struct bench_region_result *regions;
	size_t n_regions, cap_regions;
	/* What the run survived and the user should know (a failed --poll read of the region table):
	 * JSON `warnings`, written only when there are some. Additive to schema version 1. */
	char warnings[BENCH_MAX_WARNINGS][512];
	size_t n_warnings;
	/* The firmware's UART lines with `bench run --uart` (JSON `uart`, additive to schema version 1): the first
	 * BENCH_MAX_UART_LINES, and how many more were dropped. */
	char (*uart)[BENCH_UART_LINE_MAX];
	size_t n_uart, uart_dropped;
	/* bench run --profile: one sampled profile per marker pair (host/profile/). */
	struct bench_profile *profiles;
	size_t n_profiles;
};

void results_init(struct bench_report *r);
void results_free(struct bench_report *r);
/* Frees one profile's arrays (results_free does it for every profile of a report). */
void results_profile_free(struct bench_profile *p);
/* "issue 16, it 3, fetch-buffer 2": the (up to) three of p's reasons with the most of `by`
 * (n_reasons cycles, one per reason), most first; "" when none has cycles. */
void results_profile_main_reasons(const struct bench_profile *p, const uint64_t *by, char *out, size_t len);
/* Finds or adds the result for (name, args); NULL when out of memory. */
struct bench_result *results_get(struct bench_report *r, const char *name, const struct bench_arg *args, size_t n_args);
/* Finds the result for (name, args) without adding one; NULL when absent. O(1) (the index). */
const struct bench_result *results_find(const struct bench_report *r, const char *name, const struct bench_arg *args,
                                        size_t n_args);
int results_add_sample(struct bench_result *res, int64_t cycles, uint8_t flags);
struct bench_region_result *results_add_region(struct bench_report *r);
/* Adds a warning unless the same text is there already; false when the list is full. */
bool results_add_warning(struct bench_report *r, const char *text);
/* Keeps a firmware UART line (counted as dropped past BENCH_MAX_UART_LINES); -1 when out of memory. */
int results_add_uart(struct bench_report *r, const char *line);
/* Computes stats for every result (n, min, max, mean, median, sample stddev): over the samples not
 * flagged BENCH_SAMPLE_INTERRUPTED, or over all of them with context.keep_interrupted. A result
 * left with no sample that counts (stats.n 0) gets an error saying why, unless it has one. */
void results_finish(struct bench_report *r);
/* The same for one result of r. */
void results_stats(const struct bench_report *r, struct bench_result *res);
/* How many of res's samples are flagged BENCH_SAMPLE_INTERRUPTED. */
size_t results_interrupted(const struct bench_result *res);
/* --stack (results/stack.c): appends sample i's figure (bytes below SP at BEGIN, BENCH_STACK_*
 * flags); -1 when out of memory. results_stack_stats sets min/max over the depths and the counts. */
int results_stack_add(struct bench_result *res, uint32_t bytes, uint8_t flags);
void results_stack_stats(struct bench_result *res);
void results_stack_free(struct bench_result *res);
/* Samples of REP flagged BENCH_STACK_OVERFLOW, over every result. */
size_t results_stack_overflows(const struct bench_report *rep);
void stats_compute(const int64_t *samples, size_t n, struct bench_stats *out);
const char *results_status_name(enum bench_status s);
/* How many results of REP have no sample that counts (every sample left out, or none measured);
 * *FIRST (when not NULL) gets the first of them. 0 on a board without a cycle counter
 * (context.counter "none"), which measures nothing by design (docs/run.md). */
size_t results_unmeasured(const struct bench_report *rep, const struct bench_result **first);
/* A run that ended well but left a result with no sample that counts is no success (issue 26):
 * sets REP's status to incomplete with the error naming the first such result and its reason, and
 * returns BENCH_E_TARGET (exit 5) through ERR; 0 when every result has a figure. */
int results_fail_unmeasured(struct bench_report *rep, struct bench_error *err);

/* Naming (naming.c), shared by every reporter and `bench compare`. */
/* "fut[input=7]" or "fut[input=7,n=3]"; just "fut" without args. Always NUL-terminates. */
void results_label(const struct bench_result *res, char *buf, size_t cap);
/* "input=7;n=3" ("" without args), for a CSV column. */
void results_args(const struct bench_result *res, char *buf, size_t cap);
/* The base name of a path ("fut-hardfp.elf"), pointing into PATH. */
const char *results_basename(const char *path);
/* Cycles to nanoseconds with the report's core clock; a negative value when the clock is unknown. */
double results_cycles_to_ns(const struct bench_report *rep, double cycles);

#endif /* HOST_RESULTS_RESULTS_H */
