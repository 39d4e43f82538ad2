/* Cortex-M4 instruction costs (Cortex-M4 TRM r0p1, 3.3.1 table 3-1). */
#include "cycles_rules.h"
#include "cycles.h"

#include <string.h>

void cyc_rules_begin(struct cyc_rules_state *st, uint32_t block_addr, unsigned wait_states)
{
	memset(st, 0, sizeof(*st));
	st->block_addr = block_addr;
	st->wait_states = wait_states;
}

void cyc_rules_cost(struct cyc_rules_state *st, const cs_insn *insn, struct cyc_cost *c)
{
	memset(c, 0, sizeof(*c));
	c->cycles = 1;
	c->cond = 14;
	st->prev_size = insn->size;
}

void cyc_rules_unknown(struct cyc_rules_state *st, struct cyc_cost *c)
{
	memset(c, 0, sizeof(*c));
	c->cycles = 1;
	c->cond = 14;
	c->dyn = CYC_DYN_EXCEPTION;
	st->prev_size = 0;
}
