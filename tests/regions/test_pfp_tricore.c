/* The TriCore TC1.6P port on the host: the CCTRL multiplexing of ePAPI table 1 chosen from an event
 * set (table 2), conflicts refused, 31-bit counters with the sticky overflow bit, the critical
 * section on ICR.IE, and a region measured with scripted CCNT. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "pfp.h"

uint32_t tc_csfr[0x10000 / 4];
int tc_ie;
unsigned tc_cctrl_writes;

#define TC_REGIONS(X) X(ID_TASK, "task")
PFP_DECLARE_IDS(TC_REGIONS);
PFP_DEFINE_TABLE(TC_REGIONS);

#define CCTRL tc_csfr[0xFC00 / 4]
#define CCNT  tc_csfr[0xFC04 / 4]
#define ICNT  tc_csfr[0xFC08 / 4]
#define M1CNT tc_csfr[0xFC0C / 4]
#define M2CNT tc_csfr[0xFC10 / 4]
#define M3CNT tc_csfr[0xFC14 / 4]

static int setup(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(tc_csfr) / sizeof(tc_csfr[0]); i++)
		tc_csfr[i] = 0;
	tc_ie = 1;
	tc_cctrl_writes = 0;
	int64_t v[4];
	(void)pfp_papi_stop(v, 0); /* a previous test's set */
	(void)pfp_papi_stop(v, 1);
	(void)pfp_papi_stop(v, 2);
	(void)pfp_papi_stop(v, 3);
	return 0;
}

static void test_init_enables_counting(void **state)
{
	(void)state;
	pfp_init(200000000u);
	assert_int_equal(CCTRL, 0x2); /* CE, normal mode, selections 0 */
	assert_int_equal(bench_regions.counter, PFP_COUNTER_TRICORE_CCNT);
	assert_int_equal(tc_ie, 1); /* the critical section restored IE */
}

static void test_dcache_set_programs_cctrl(void **state)
{
	(void)state;
	static const uint16_t set[] = {PAPI_L1_DCA, PAPI_L1_DCM, PAPI_TOT_INS};
	int64_t v[3] = {0, 0, 0};
	assert_int_equal(pfp_papi_start(set, 3), PFP_PAPI_OK);
	/* M1, M2, M3 all on selection 2 (DCACHE_HIT, DCACHE_MISS_CLEAN, DCACHE_MISS_DIRTY). */
	assert_int_equal(CCTRL, 0x2u | 2u << 2 | 2u << 5 | 2u << 8);
	M1CNT += 900; /* hits */
	M2CNT += 60;  /* clean misses */
	M3CNT += 40;  /* dirty misses */
	ICNT += 1234;
	CCNT += 5000;
	assert_int_equal(pfp_papi_read(v, 3), PFP_PAPI_OK);
	assert_int_equal(v[0], 1000); /* accesses = M1 + M2 + M3 */
	assert_int_equal(v[1], 100);  /* misses = M2 + M3 */
	assert_int_equal(v[2], 1234);
	assert_int_equal(pfp_papi_stop(v, 3), PFP_PAPI_OK);
	assert_int_equal(v[0], 0);
}

static void test_mixed_selections_per_counter(void **state)
{
	(void)state;
	/* M1 on selection 3 (TOTAL_BRANCH for PAPI_BRU_IDL), M3 on selection 1 (MULTI_ISSUE): each
	 * counter has its own CCTRL field, so this set counts in one run. */
	static const uint16_t set[] = {PAPI_BRU_IDL, PAPI_TC_MULTI_ISSUE};
	int64_t v[2] = {0, 0};
	assert_int_equal(pfp_papi_start(set, 2), PFP_PAPI_OK);
	assert_int_equal(CCTRL, 0x2u | 3u << 2 | 0u << 5 | 1u << 8);
	CCNT += 1000;
	M1CNT += 150; /* cycles with a branch in resolution */
	M3CNT += 77;
	assert_int_equal(pfp_papi_stop(v, 2), PFP_PAPI_OK);
	assert_int_equal(v[0], 850); /* branch unit idle = CCNT - TOTAL_BRANCH */
	assert_int_equal(v[1], 77);
}

static void test_conflicting_selection_refused(void **state)
{
	(void)state;
	/* PAPI_L1_ICH needs M1 = PCACHE_HIT (1), PAPI_L1_DCH needs M1 = DCACHE_HIT (2). */
	static const uint16_t set[] = {PAPI_L1_ICH, PAPI_L1_DCH};
	unsigned writes = tc_cctrl_writes;
	assert_int_equal(pfp_papi_start(set, 2), PFP_PAPI_ECNFLCT);
	assert_int_equal(tc_cctrl_writes, writes); /* nothing programmed */
	/* Cortex-M-only events do not exist here. */
	static const uint16_t cm[] = {PAPI_LSU_CYC};
	assert_int_equal(pfp_papi_start(cm, 1), PFP_PAPI_EINVAL);
	/* The table-wide flag for regions. */
	pfp_init(1u);
	assert_int_equal(pfp_set_events(set, 2), -1);
	assert_int_equal(bench_regions.errors, PFP_TE_EVT_CONFLICT);
}

static void test_31_bit_counters_wrap(void **state)
{
	(void)state;
	static const uint16_t set[] = {PAPI_TOT_CYC};
	int64_t v[1] = {0};
	CCNT = 0x7ffffff0u;
	assert_int_equal(pfp_papi_start(set, 1), PFP_PAPI_OK);
	CCNT = 0x80000010u; /* wrapped: sticky overflow (bit 31) set, count 0x10 */
	assert_int_equal(pfp_papi_stop(v, 1), PFP_PAPI_OK);
	assert_int_equal(v[0], 0x20);
}

static void test_region_on_ccnt(void **state)
{
	(void)state;
	CCNT = 0x7fffff00u;
	pfp_init(200000000u);
	pfp_enable(ID_TASK);
	pfp_begin(ID_TASK);
	assert_int_equal(tc_ie, 1);
	CCNT = 0x80000000u | 0x200u; /* 0x300 cycles later, across the 31-bit wrap */
	pfp_end(ID_TASK, 0);
	struct pfp_stats s;
	pfp_get_stats(ID_TASK, &s);
	assert_int_equal(s.count, 1);
	assert_int_equal(s.last, 0x300);
	assert_int_equal(s.errors, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup(test_init_enables_counting, setup),
	    cmocka_unit_test_setup(test_dcache_set_programs_cctrl, setup),
	    cmocka_unit_test_setup(test_mixed_selections_per_counter, setup),
	    cmocka_unit_test_setup(test_conflicting_selection_refused, setup),
	    cmocka_unit_test_setup(test_31_bit_counters_wrap, setup),
	    cmocka_unit_test_setup(test_region_on_ccnt, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
