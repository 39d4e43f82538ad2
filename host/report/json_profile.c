/* The JSON report's exact profiles (json_profile.h). Every `by_reason` array is aligned with the
 * profile's `reasons` (the ledger's reason names, docs/cycle-model.md), so a profile of a dozen
 * reasons does not repeat a dozen keys on every instruction. Additive to schema version 1. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "report/json_profile.h"

static bool add(cJSON *obj, const char *key, cJSON *item)
{
	if (!obj || !item) {
		cJSON_Delete(item);
		return false;
	}
	return cJSON_AddItemToObject(obj, key, item);
}

static bool push(cJSON *arr, cJSON *item)
{
	if (!arr || !item) {
		cJSON_Delete(item);
		return false;
	}
	return cJSON_AddItemToArray(arr, item);
}

static cJSON *num(uint64_t v)
{
	return cJSON_CreateNumber((double)v); /* exact below 2^53 cycles: 620 days at 168 MHz */
}

static cJSON *by_reason(const struct bench_profile *p, const uint64_t *by)
{
	cJSON *a = cJSON_CreateArray();
	bool ok = a;

	for (size_t r = 0; ok && r < p->n_reasons; r++)
		ok = push(a, num(by ? by[r] : 0));
	if (!ok) {
		cJSON_Delete(a);
		return NULL;
	}
	return a;
}

static bool functions(cJSON *arr, const struct bench_profile *p)
{
	bool ok = true;

	for (size_t i = 0; ok && i < p->n_functions; i++) {
		const struct bench_profile_fn *f = &p->functions[i];
		cJSON *e = cJSON_CreateObject();
		ok = push(arr, e);
		ok = ok && add(e, "name", cJSON_CreateString(f->name));
		ok = ok && add(e, "cycles", num(f->self));
		ok = ok && add(e, "share", cJSON_CreateNumber(f->share));
		ok = ok && add(e, "inclusive", num(f->incl));
		ok = ok && add(e, "calls", num(f->calls));
		ok = ok && add(e, "instructions", num(f->execs));
		ok = ok && add(e, "by_reason", by_reason(p, f->by_reason));
	}
	return ok;
}

static bool lines_insns(cJSON *lines, cJSON *insns, const struct bench_profile *p)
{
	bool ok = true;

	for (size_t i = 0; ok && i < p->n_lines; i++) {
		const struct bench_profile_line *l = &p->lines[i];
		cJSON *e;
		if (!l->file[0])
			continue;
		e = cJSON_CreateObject();
		ok = push(lines, e);
		ok = ok && add(e, "function", cJSON_CreateString(l->function));
		ok = ok && add(e, "file", cJSON_CreateString(l->file));
		ok = ok && add(e, "line", cJSON_CreateNumber((double)l->line));
		ok = ok && add(e, "cycles", num(l->cycles));
		ok = ok && add(e, "instructions", num(l->execs));
	}
	for (size_t i = 0; ok && i < p->n_insns; i++) {
		const struct bench_profile_insn *in = &p->insns[i];
		cJSON *e = cJSON_CreateObject();
		char addr[16];
		(void)snprintf(addr, sizeof(addr), "0x%08" PRIx32, in->addr);
		ok = push(insns, e);
		ok = ok && add(e, "address", cJSON_CreateString(addr));
		ok = ok && add(e, "function", cJSON_CreateString(in->function));
		ok = ok && add(e, "file", in->file[0] ? cJSON_CreateString(in->file) : cJSON_CreateNull());
		ok = ok && add(e, "line", in->line ? cJSON_CreateNumber((double)in->line) : cJSON_CreateNull());
		ok = ok && add(e, "executions", num(in->execs));
		ok = ok && add(e, "cycles", num(in->cycles));
		ok = ok && add(e, "by_reason", by_reason(p, in->by_reason));
		ok = ok && add(e, "disassembly", in->disasm[0] ? cJSON_CreateString(in->disasm) : cJSON_CreateNull());
	}
	return ok;
}

static bool stacks_calls(cJSON *stacks, cJSON *calls, const struct bench_profile *p)
{
	bool ok = true;

	for (size_t i = 0; ok && i < p->n_stacks; i++) {
		cJSON *e = cJSON_CreateObject();
		ok = push(stacks, e);
		ok = ok && add(e, "frames", cJSON_CreateString(p->stacks[i].frames));
		ok = ok && add(e, "cycles", num(p->stacks[i].cycles));
	}
	for (size_t i = 0; ok && i < p->n_calls; i++) {
		const struct bench_profile_call *c = &p->calls[i];
		cJSON *e = cJSON_CreateObject();
		ok = push(calls, e);
		ok = ok && add(e, "caller", cJSON_CreateString(c->caller));
		ok = ok && add(e, "callee", cJSON_CreateString(c->callee));
		ok = ok && add(e, "calls", num(c->calls));
		ok = ok && add(e, "inclusive", num(c->incl));
	}
	return ok;
}

cJSON *json_profile_exact(const struct bench_profile *p)
{
	cJSON *o = cJSON_CreateObject(), *args = cJSON_CreateObject(), *reasons = cJSON_CreateArray();
	cJSON *fns = cJSON_CreateArray(), *lines = cJSON_CreateArray(), *insns = cJSON_CreateArray();
	cJSON *stacks = cJSON_CreateArray(), *calls = cJSON_CreateArray();
	bool ok = o && args && reasons && fns && lines && insns && stacks && calls;

	for (size_t i = 0; ok && i < p->n_args; i++)
		ok = add(args, p->args[i].name, cJSON_CreateNumber((double)p->args[i].value));
	for (size_t r = 0; ok && r < p->n_reasons; r++)
		ok = push(reasons, cJSON_CreateString(p->reasons[r]));
	ok = ok && functions(fns, p) && lines_insns(lines, insns, p) && stacks_calls(stacks, calls, p);
	ok = ok && add(o, "name", cJSON_CreateString(p->name));
	ok = ok && add(o, "source", cJSON_CreateString("ledger"));
	ok = ok && add(o, "args", args);
	args = NULL;
	ok = ok && add(o, "stretches", num(p->stretches));
	ok = ok && add(o, "summed", cJSON_CreateBool(p->summed));
	ok = ok && add(o, "cycles", num(p->total));
	ok = ok && add(o, "note", p->note[0] ? cJSON_CreateString(p->note) : cJSON_CreateNull());
	ok = ok && add(o, "reasons", reasons);
	reasons = NULL;
	ok = ok && add(o, "functions", fns);
	fns = NULL;
	ok = ok && add(o, "lines", lines);
	lines = NULL;
	ok = ok && add(o, "instructions", insns);
	insns = NULL;
	ok = ok && add(o, "stacks", stacks);
	stacks = NULL;
	ok = ok && add(o, "calls", calls);
	calls = NULL;
	if (!ok) {
		cJSON_Delete(o);
		cJSON_Delete(args);
		cJSON_Delete(reasons);
		cJSON_Delete(fns);
		cJSON_Delete(lines);
		cJSON_Delete(insns);
		cJSON_Delete(stacks);
		cJSON_Delete(calls);
		return NULL;
	}
	return o;
}
