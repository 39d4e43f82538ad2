/* Code size of a stretch (firmware/code_size.h). Thumb instructions are decoded with capstone in
 * M-class mode; data inside functions (literal pools) is skipped by the Arm mapping symbols, so no
 * constant is read as a branch. */
#include "firmware/code_size.h"

#include <capstone/capstone.h>
#include <stdlib.h>
#include <string.h>

#include "base/str.h"

struct fn_ref {
	const struct elf_symbol *sym;
};

struct fn_set {
	struct fn_ref *v;
	size_t n, cap;
};

static bool fn_has(const struct fn_set *s, uint32_t addr)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i].sym->addr == addr)
			return true;
	return false;
}

/* Adds the function holding ADDR once (by its start: aliases count once); -1 out of memory, 0
 * added or there already, 1 when no function holds ADDR. */
static int fn_add(struct fn_set *s, const struct elf_file *elf, uint32_t addr)
{
	uint32_t off;
	const struct elf_symbol *sym = elf_symbol_at(elf, addr & ~1u, &off);

	if (!sym || !sym->is_func || off >= (sym->size ? sym->size : 2u))
		return 1;
	if (fn_has(s, sym->addr))
		return 0;
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 32;
		struct fn_ref *v = realloc(s->v, cap * sizeof(*v));
		if (!v)
			return -1;
		s->v = v;
		s->cap = cap;
	}
	s->v[s->n++].sym = sym;
	return 0;
}

static void count(const struct code_image *img, const struct fn_set *s, struct bench_code *out)
{
	for (size_t i = 0; i < s->n; i++) {
		const struct code_section *sec = code_image_section(img, s->v[i].sym->addr);
		const char *name = sec ? sec->name : "?";
		size_t k;
		out->bytes += s->v[i].sym->size;
		for (k = 0; k < out->n_sections && strcmp(out->sections[k].name, name); k++)
			;
		if (k == out->n_sections && k < BENCH_CODE_MAX_SECTIONS)
			str_fmt_cut(out->sections[out->n_sections++].name, sizeof(out->sections[0].name), "%s", name);
		if (k < out->n_sections)
			out->sections[k].bytes += s->v[i].sym->size;
	}
	out->n_functions = s->n;
}

/* The immediate target of a branch, or 0 when its operand is a register. */
static uint32_t imm_target(const cs_insn *in)
{
	const cs_arm *a = &in->detail->arm;
	for (int i = 0; i < a->op_count; i++)
		if (a->operands[i].type == ARM_OP_IMM)
			return (uint32_t)a->operands[i].imm;
	return 0;
}

/* Decodes [lo, hi) and adds what it calls or jumps to outside [own_lo, own_hi). */
static int walk(csh h, cs_insn *in, const struct code_image *img, const struct elf_file *elf, uint32_t lo, uint32_t hi,
                uint32_t own_lo, uint32_t own_hi, struct fn_set *s, struct bench_code *out)
{
	const struct code_section *sec = code_image_section(img, lo);
	uint32_t pc = lo;

	if (!sec || !sec->data)
		return 0;
	while (pc < hi && pc - sec->addr < sec->size) {
		const uint8_t *code = sec->data + (pc - sec->addr);
		size_t left = hi - pc;
		uint64_t at = pc;
		uint32_t t;
		int rc;

		if (code_image_is_data(img, pc)) {
			pc += 2;
			continue;
		}
		if (!cs_disasm_iter(h, &code, &left, &at, in)) {
			pc += 2; /* not an instruction capstone knows: step over a halfword */
			continue;
		}
		pc = (uint32_t)at;
		switch (in->id) {
		case ARM_INS_BL:
		case ARM_INS_BLX:
		case ARM_INS_B:
		case ARM_INS_CBZ:
		case ARM_INS_CBNZ:
			t = imm_target(in);
			if (!t) { /* blx rN: a call through a pointer */
				out->unknown_calls++;
				break;
			}
			if (t >= own_lo && t < own_hi)
				break;
			if ((rc = fn_add(s, elf, t)) < 0)
				return rc;
			out->unknown_calls += (size_t)rc; /* a target no function symbol covers */
			break;
		case ARM_INS_BX:
			if (in->detail->arm.op_count == 1 && in->detail->arm.operands[0].type == ARM_OP_REG &&
			    in->detail->arm.operands[0].reg != ARM_REG_LR)
				out->unknown_calls++; /* bx rN other than the return */
			break;
		default:
			break;
		}
	}
	return 0;
}

int code_size_static(const struct code_image *img, const struct elf_file *elf, uint32_t from, uint32_t to,
                     bool whole_fn, struct bench_code *out, struct bench_error *err)
{
	struct fn_set s = {0};
	uint32_t off;
	const struct elf_symbol *around = elf_symbol_at(elf, from, &off);
	csh h;
	cs_insn *in;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	str_fmt_cut(out->method, sizeof(out->method), "static");
	if (cs_open(CS_ARCH_ARM, (cs_mode)(CS_MODE_THUMB | CS_MODE_MCLASS), &h) != CS_ERR_OK)
		return bench_fail(err, BENCH_E_INTERNAL, "capstone cannot decode Thumb: check libcapstone");
	if (cs_option(h, CS_OPT_DETAIL, CS_OPT_ON) != CS_ERR_OK || !(in = cs_malloc(h))) {
		cs_close(&h);
		return bench_fail(err, BENCH_E_NOMEM, "out of memory decoding %s", elf->path);
	}
	if (whole_fn) {
		rc = fn_add(&s, elf, from) < 0 ? -1 : 0;
	} else {
		out->inline_bytes = to - from;
		rc = walk(h, in, img, elf, from, to, around ? around->addr : from,
		          around ? around->addr + around->size : to, &s, out);
	}
	/* The worklist grows as walk() adds callees; each function is decoded once. */
	for (size_t i = 0; !rc && i < s.n; i++)
		rc = walk(h, in, img, elf, s.v[i].sym->addr, s.v[i].sym->addr + s.v[i].sym->size, s.v[i].sym->addr,
		          s.v[i].sym->addr + s.v[i].sym->size, &s, out);
	cs_free(in, 1);
	cs_close(&h);
	if (!rc)
		count(img, &s, out);
	free(s.v);
	return rc ? bench_fail(err, BENCH_E_NOMEM, "out of memory walking %s's calls", elf->path) : 0;
}

int code_size_executed(const struct code_image *img, const struct elf_file *elf, const uint32_t *pcs, size_t n,
                       uint32_t from, uint32_t to, struct bench_code *out, struct bench_error *err)
{
	struct fn_set s = {0};
	uint32_t off;
	const struct elf_symbol *around = elf_symbol_at(elf, from, &off);
	int rc = 0;

	memset(out, 0, sizeof(*out));
	str_fmt_cut(out->method, sizeof(out->method), "executed");
	out->inline_bytes = to > from ? to - from : 0;
	for (size_t i = 0; rc >= 0 && i < n; i++) {
		if (around && pcs[i] >= from && pcs[i] <= to && pcs[i] - around->addr < around->size)
			continue; /* the stretch's own code in the function around it */
		rc = fn_add(&s, elf, pcs[i]);
	}
	if (rc >= 0)
		count(img, &s, out);
	free(s.v);
	return rc < 0 ? bench_fail(err, BENCH_E_NOMEM, "out of memory counting %s's functions", elf->path) : 0;
}
