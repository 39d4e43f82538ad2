/* The core's registers in unicorn 2.0.1 (the run loop, the loader, the SCS devices' ops). */
#include "core/core_internal.h"

uint32_t core_reg(struct sim_core *c, int ucreg)
{
	uint32_t v = 0;
	if (uc_reg_read(c->uc, ucreg, &v) != UC_ERR_OK)
		return 0;
	return v;
}

void core_set_reg(struct sim_core *c, int ucreg, uint32_t v)
{
	/* Register ids come from this file's tables: a failure is a programming error, not data. */
	(void)uc_reg_write(c->uc, ucreg, &v);
}

uint32_t core_pc(struct sim_core *c)
{
	return core_reg(c, UC_ARM_REG_PC) & ~1u;
}

void core_set_pc(struct sim_core *c, uint32_t pc)
{
	/* Bit 0 set keeps unicorn in Thumb state (M-profile has no ARM state, EPSR.T). */
	core_set_reg(c, UC_ARM_REG_PC, pc | 1u);
}

/* S<n> is half of D<n/2> in unicorn 2.0.1 (no S register ids for Arm). */
uint32_t core_read_s(struct sim_core *c, unsigned n)
{
	uint64_t d = 0;
	if (uc_reg_read(c->uc, UC_ARM_REG_D0 + (int)(n / 2), &d) != UC_ERR_OK)
		return 0;
	return (uint32_t)(n & 1 ? d >> 32 : d);
}

void core_write_s(struct sim_core *c, unsigned n, uint32_t v)
{
	uint64_t d = 0;
	if (uc_reg_read(c->uc, UC_ARM_REG_D0 + (int)(n / 2), &d) != UC_ERR_OK)
		return;
	if (n & 1)
		d = (d & 0xFFFFFFFFull) | (uint64_t)v << 32;
	else
		d = (d & ~0xFFFFFFFFull) | v;
	(void)uc_reg_write(c->uc, UC_ARM_REG_D0 + (int)(n / 2), &d);
}
