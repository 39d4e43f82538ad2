/* Where bench finds its data (boards/, target/, docs/) and bench-sim: relative to the running
 * executable (/proc/self/exe), so an installed, packaged or copied bench needs no path compiled in
 * (docs/install.md). */
#ifndef HOST_BASE_DATADIR_H
#define HOST_BASE_DATADIR_H

#include <stddef.h>

/* The folder holding the running executable. Returns 0, or -1 when /proc/self/exe is unreadable. */
int datadir_exe_dir(char *out, size_t len);

/* The data folder: <exe dir>/../share/probebench (installed: bin/ and share/ side by side), else
 * <exe dir>/share/probebench (the build tree, whose share/probebench links into the source tree).
 * Returns 0 with the first that holds boards/; -1 otherwise. `tried` (may be NULL) gets the boards/
 * folders looked for, separated by " and ", for the error message. */
int datadir_find(char *out, size_t len, char *tried, size_t tried_len);

#endif /* HOST_BASE_DATADIR_H */
