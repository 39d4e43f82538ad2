/* Calibration after PFP's pfpCalibrate(): measure what an empty Begin-End pair adds, keep the
 * minimum, subtract it from every later measurement. Three constants (pfp.h, struct pfp_table):
 * the bias inside an empty region, the bias an empty inner pair leaves in its enclosing region, and
 * (pfp_calibrate_isr) the bias an interrupt leaves in the interrupted region. Calibration uses the
 * same public calls the application uses, so the constants are exactly those of the real path. */
#include "pfp_internal.h"

static void empty_pairs(unsigned loops)
{
	for (unsigned i = 0; i < loops; i++) {
		pfp_begin(PFP_ID_OVERHEAD);
		pfp_end(PFP_ID_OVERHEAD, 0);
	}
}

static void nested_pairs(unsigned loops)
{
	for (unsigned i = 0; i < loops; i++) {
		pfp_begin(PFP_ID_NESTED);
		pfp_begin(PFP_ID_OVERHEAD);
		pfp_end(PFP_ID_OVERHEAD, 0);
		pfp_end(PFP_ID_NESTED, 0);
	}
}

void pfp_calibrate(unsigned loops)
{
	if (loops == 0)
		loops = 1;
	bench_regions.overhead = 0;
	bench_regions.nest_overhead = 0;
	bench_regions.flags &= ~PFP_T_CALIBRATED;
	pfp_enable(PFP_ID_OVERHEAD);
	pfp_enable(PFP_ID_NESTED);

	pfp_reset_stats(PFP_ID_OVERHEAD);
	empty_pairs(loops);
	bench_regions.overhead = pfp_records[PFP_ID_OVERHEAD].min;

	/* The outer region's own bias is `overhead` (already subtracted): what is left is the inner pair's. */
	pfp_reset_stats(PFP_ID_NESTED);
	nested_pairs(loops);
	bench_regions.nest_overhead = pfp_records[PFP_ID_NESTED].min;

	/* The residual pass: both regions now show what calibration leaves (0 when it is exact). */
	pfp_reset_stats(PFP_ID_OVERHEAD);
	pfp_reset_stats(PFP_ID_NESTED);
	nested_pairs(loops);
	bench_regions.flags |= PFP_T_CALIBRATED;
}

void pfp_calibrate_isr(void (*pend)(void), unsigned loops)
{
	uint32_t with_irq, held_off;

	if (loops == 0)
		loops = 1;
	bench_regions.isr_overhead = 0;
	pfp_enable(PFP_ID_OVERHEAD);

	pfp_reset_stats(PFP_ID_OVERHEAD);
	for (unsigned i = 0; i < loops; i++) {
		pfp_begin(PFP_ID_OVERHEAD);
		pend(); /* the handler runs here, inside the region */
		pfp_end(PFP_ID_OVERHEAD, 0);
	}
	with_irq = pfp_records[PFP_ID_OVERHEAD].min;

	/* The same code with the interrupt held off until after End: the critical section's save and
	 * restore make Begin and End take exactly as long as above. */
	pfp_reset_stats(PFP_ID_OVERHEAD);
	for (unsigned i = 0; i < loops; i++) {
		pfp_port_irq_t s = pfp_port_lock();
		pfp_begin(PFP_ID_OVERHEAD);
		pend();
		pfp_end(PFP_ID_OVERHEAD, 0);
		pfp_port_unlock(s); /* the handler runs here, outside */
	}
	held_off = pfp_records[PFP_ID_OVERHEAD].min;
	bench_regions.isr_overhead = with_irq > held_off ? with_irq - held_off : 0;

	pfp_reset_stats(PFP_ID_OVERHEAD);
	empty_pairs(loops);
}
