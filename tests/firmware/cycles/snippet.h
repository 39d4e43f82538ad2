/* Snippet markers for the cycle-model end-to-end test (tests/sim/cycles_e2e.sh). BEGIN(n) records
 * the expected CYCCNT difference n and the source line in the non-loaded section .cycles_expect,
 * then halts with BKPT #1; END halts with BKPT #2 (docs/markers.md: BEGIN/END). bench-sim
 * --standalone prints CYCCNT at each halt and resumes past the BKPT without executing it, so
 * the difference is exactly the cycles of the code in between. */
#ifndef TESTS_FIRMWARE_CYCLES_SNIPPET_H
#define TESTS_FIRMWARE_CYCLES_SNIPPET_H
#define BEGIN(n) .pushsection .cycles_expect, "", %progbits; .word (n), __LINE__; .popsection; bkpt #1
#define END bkpt #2
#define DONE bkpt #4
/* The start of every snippet file: Thumb code and the `snippets` function vectors.S calls. */
#define SNIPPETS_ENTRY .syntax unified; .thumb; .text; .thumb_func; .global snippets; snippets:
#endif
