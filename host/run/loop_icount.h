/* --icount (loop_icount.c): QEMU's exact instruction count, read at BEGIN and END by the marker
 * handlers (loop_marker.c). Private to run/. */
#ifndef HOST_RUN_LOOP_ICOUNT_H
#define HOST_RUN_LOOP_ICOUNT_H

#include <stdint.h>

#include "run/loop_state.h"

/* QEMU's exact instruction count now, and the BEGIN..END figure as its own result
 * "<pair> [icount]" in unit "instructions". */
int loop_icount_read(struct loop *l, uint64_t *count);
int loop_icount_sample(struct loop *l, const char *name, uint64_t begin, uint64_t end);

#endif /* HOST_RUN_LOOP_ICOUNT_H */
