/* pfp_freertos.h's trace macros, expanded the way FreeRTOS's vTaskSwitchContext() expands them: with
 * pxCurrentTCB the task leaving, then the task arriving. Two tasks, a region open across switches. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "pfp_freertos.h"

uint32_t pfp_host_now;
uint32_t pfp_host_read_cost;
int pfp_host_lock_depth;
int pfp_host_lock_max;
uint32_t pfp_host_raw[6];
unsigned pfp_host_setup_calls;
uint8_t pfp_host_mux_seen;
void (*pfp_host_pending_irq)(void);

#define RTOS_REGIONS(X) X(ID_T1_WORK, "t1.work") X(ID_T2_WORK, "t2.work")
PFP_DECLARE_IDS(RTOS_REGIONS);
PFP_DEFINE_TABLE(RTOS_REGIONS);
PFP_FREERTOS_DEFINE_CONTEXTS();

/* The two fields of FreeRTOS's TCB_t the macros touch. */
typedef struct {
	unsigned long uxTCBNumber;
} TCB_t;
static TCB_t task1 = {1}, task2 = {2}, idle = {3};
static TCB_t *volatile pxCurrentTCB = &task1;

/* What vTaskSwitchContext() does around choosing the next task. */
static void switch_to(TCB_t *next)
{
	traceTASK_SWITCHED_OUT();
	pxCurrentTCB = next;
	traceTASK_SWITCHED_IN();
}

static void run(uint32_t c)
{
	pfp_host_now += c;
}

static void test_tasks_exclude_each_other(void **state)
{
	(void)state;
	pfp_host_now = 0;
	pfp_host_read_cost = 4;
	pfp_init(1u);
	pfp_calibrate(4);
	pfp_enable(ID_T1_WORK);
	pfp_enable(ID_T2_WORK);
	pxCurrentTCB = &task1;

	pfp_begin(ID_T1_WORK); /* task 1 */
	run(100);
	switch_to(&task2); /* pre-empted */
	pfp_begin(ID_T2_WORK);
	run(40);
	switch_to(&idle); /* task 2 blocks inside its region */
	run(1000);
	switch_to(&task1);
	run(11);
	pfp_end(ID_T1_WORK, 0);
	switch_to(&task2);
	run(2);
	pfp_end(ID_T2_WORK, 0);

	struct pfp_stats s1, s2;
	pfp_get_stats(ID_T1_WORK, &s1);
	pfp_get_stats(ID_T2_WORK, &s2);
	assert_int_equal(s1.count, 1);
	assert_int_equal(s1.last, 111);
	assert_int_equal(s2.last, 42);
	assert_int_equal(pfp_host_lock_depth, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_tasks_exclude_each_other),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
