/* The code a stretch runs, in bytes (bench run --code-size, issue 24, docs/reports.md "Code size"):
 * on any board from the ELF's static call graph (capstone decodes every BL, B, CBZ, BX and BLX
 * from the stretch on), on the virtual board exactly from the instructions it executed. Each
 * function counts once with its symbol's size (what `arm-none-eabi-nm --size` prints), aliases at
 * one address once. */
#ifndef HOST_FIRMWARE_CODE_SIZE_H
#define HOST_FIRMWARE_CODE_SIZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "firmware/code_image.h"
#include "firmware/elf.h"
#include "results/results.h"

/* Static: every function reachable from the code [from, to) (a marker pair's stretch, not counting
 * the function around it, whose own bytes go to inline_bytes) or, with whole_fn, from the function
 * at `from` itself (--start). Calls through a register are counted in unknown_calls. */
int code_size_static(const struct code_image *img, const struct elf_file *elf, uint32_t from, uint32_t to,
                     bool whole_fn, struct bench_code *out, struct bench_error *err);
/* Executed: the functions holding PCS (n of them), but not the stretch's own code [from, to] in the
 * function around it (inline_bytes). */
int code_size_executed(const struct code_image *img, const struct elf_file *elf, const uint32_t *pcs, size_t n,
                       uint32_t from, uint32_t to, struct bench_code *out, struct bench_error *err);

#endif /* HOST_FIRMWARE_CODE_SIZE_H */
