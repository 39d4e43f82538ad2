/* Firmware built for another core than the board's: an image for a bigger core faults on a smaller
 * one (refused), an image for a smaller core runs but its cycles are the board core's (a warning),
 * and a vector table whose reset handler lacks the Thumb bit faults at the first instruction on
 * silicon (INVSTATE, Armv7-M ARM B1.5.3: refused), whatever a model does with it. */
#ifndef HOST_FIRMWARE_CORE_CHECK_H
#define HOST_FIRMWARE_CORE_CHECK_H

#include <stddef.h>

#include "base/error.h"
#include "firmware/board.h"
#include "firmware/elf.h"

/* 0 (warning[0] set when the run should say something) or BENCH_E_ARCH (exit 3). */
int core_check_firmware(const struct elf_file *e, const struct board *b, char *warning, size_t len,
                        struct bench_error *err);

#endif /* HOST_FIRMWARE_CORE_CHECK_H */
