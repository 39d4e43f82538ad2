/* Target descriptions (GDB manual G "Target Descriptions"): the register numbers p/P/g use are
 * whatever the server's XML says, so read them instead of assuming. Only what we need is parsed:
 * <architecture>, <xi:include href>, and <reg name bitsize regnum>. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "transport/gdb_rsp_priv.h"

/* Copies attribute attr's value from the tag [tag, end) into out; false if absent. */
static bool attr(const char *tag, const char *end, const char *attr, char *out, size_t outlen)
{
	size_t al = strlen(attr);

	for (const char *p = tag; p + al + 2 < end; p++) {
		const char *q, *v;

		if ((p[-1] != ' ' && p[-1] != '\t' && p[-1] != '\n' && p[-1] != '\r') || strncmp(p, attr, al) ||
		    p[al] != '=' || (p[al + 1] != '"' && p[al + 1] != '\''))
			continue;
		v = p + al + 2;
		q = memchr(v, p[al + 1], (size_t)(end - v));
		if (!q || (size_t)(q - v) >= outlen)
			return false;
		memcpy(out, v, (size_t)(q - v));
		out[q - v] = '\0';
		return true;
	}
	return false;
}

static bool tag_is(const char *p, const char *name)
{
	size_t n = strlen(name);

	return !strncmp(p, name, n) && (p[n] == ' ' || p[n] == '/' || p[n] == '>' || p[n] == '\t' || p[n] == '\n');
}

int rsp_tdesc_parse(struct rsp_priv *s, struct rsp_tdesc *td, const char *xml, int *next, int depth,
                    struct bench_error *err)
{
	const char *p = xml;

	if (depth > 4)
		return bench_fail(err, BENCH_E_PROTOCOL, "target description includes nest deeper than 4");
	while ((p = strchr(p, '<')) != NULL) {
		const char *tag = p + 1, *end = strchr(tag, '>');
		char buf[64];

		if (!end)
			break;
		if (tag_is(tag, "architecture")) {
			const char *c = end + 1, *ce = strchr(c, '<');
			size_t n = ce ? (size_t)(ce - c) : 0;

			if (n >= sizeof(td->arch))
				n = sizeof(td->arch) - 1;
			memcpy(td->arch, c, n);
			td->arch[n] = '\0';
		} else if (tag_is(tag, "xi:include") || tag_is(tag, "include")) {
			char *sub = NULL;
			int rc;

			if (!s || !attr(tag, end, "href", buf, sizeof(buf))) {
				p = end;
				continue;
			}
			rc = rsp_qxfer_read(s, "features", buf, &sub, err);
			if (rc < 0)
				return rc;
			rc = rsp_tdesc_parse(s, td, sub, next, depth + 1, err);
			free(sub);
			if (rc < 0)
				return rc;
		} else if (tag_is(tag, "reg") && td->n_regs < RSP_MAX_REGS) {
			struct rsp_reg *r = &td->regs[td->n_regs];

			if (!attr(tag, end, "name", r->name, sizeof(r->name)))
				r->name[0] = '\0'; /* a name longer than any we look for: keep its number */
			r->bitsize = attr(tag, end, "bitsize", buf, sizeof(buf)) ? (unsigned)strtoul(buf, NULL, 0) : 32;
			r->regnum = attr(tag, end, "regnum", buf, sizeof(buf)) ? (int)strtol(buf, NULL, 0) : *next;
			*next = r->regnum + 1;
			td->n_regs++;
		}
		p = end;
	}
	return 0;
}

static int find_reg(const struct rsp_tdesc *td, const char *a, const char *b)
{
	for (size_t i = 0; i < td->n_regs; i++)
		/* OpenOCD names it "xPSR" (src/target/armv7m.c armv7m_regs[]), QEMU and GDB "xpsr" */
		if (!strcasecmp(td->regs[i].name, a) || (b && !strcasecmp(td->regs[i].name, b)))
			return td->regs[i].regnum;
	return -1;
}

int rsp_tdesc_finish(struct rsp_tdesc *td, const char *peer, struct bench_error *err)
{
	static const char *const names[BK_REG_PSP + 1][2] = {
	    {"r0", NULL},  {"r1", NULL},  {"r2", NULL},     {"r3", NULL},  {"r4", NULL},  {"r5", NULL},  {"r6", NULL},
	    {"r7", NULL},  {"r8", NULL},  {"r9", NULL},     {"r10", NULL}, {"r11", NULL}, {"r12", NULL}, {"sp", "r13"},
	    {"lr", "r14"}, {"pc", "r15"}, {"xpsr", "cpsr"}, {"msp", NULL}, {"psp", NULL},
	};

	/* "arm" and its variants ("armv7e-m", "arm:..."); "aarch64" is another architecture. */
	if (td->arch[0] && (strncmp(td->arch, "arm", 3) != 0))
		return bench_fail(err, BENCH_E_ARCH,
		                  "gdbserver %s debugs a '%s' target, not an Arm Cortex-M: point --gdb at the "
		                  "Cortex-M target's port",
		                  peer, td->arch);
	for (int i = 0; i <= BK_REG_PSP; i++)
		td->map[i] = find_reg(td, names[i][0], names[i][1]);
	for (int i = 0; i <= BK_REG_XPSR; i++)
		if (td->map[i] < 0)
			return bench_fail(err, BENCH_E_ARCH,
			                  "gdbserver %s's target description has no register '%s': not an Arm "
			                  "Cortex-M target?",
			                  peer, names[i][0]);
	return 0;
}

/* TriCore (TC1.6P core architecture manual: D0-D15 data, A0-A15 address registers, PSW, PC):
 * bench's registers are BK_REG_R0 + n = D[n] for n < 15, BK_REG_PC the PC, BK_REG_XPSR the PSW
 * (backend_reg numbers Arm's registers, where 15 is the PC: D15 has no number of its own). */
int rsp_tdesc_finish_tricore(struct rsp_tdesc *td, const char *peer, struct bench_error *err)
{
	char name[8];

	if (td->arch[0] && strncasecmp(td->arch, "tricore", 7) != 0)
		return bench_fail(err, BENCH_E_ARCH,
		                  "gdbserver %s debugs a '%s' target, not a TriCore: point --gdb at the TriCore "
		                  "core's gdbserver, or measure this ELF on its own board",
		                  peer, td->arch);
	for (int i = 0; i <= BK_REG_PSP; i++)
		td->map[i] = -1;
	for (int i = 0; i < 15; i++) {
		(void)snprintf(name, sizeof(name), "d%d", i);
		td->map[BK_REG_R0 + i] = find_reg(td, name, NULL);
	}
	td->map[BK_REG_PC] = find_reg(td, "pc", NULL);
	td->map[BK_REG_XPSR] = find_reg(td, "psw", NULL);
	for (int i = 0; i <= BK_REG_XPSR; i++)
		if (td->map[i] < 0)
			return bench_fail(err, BENCH_E_ARCH,
			                  "gdbserver %s's target description has no register '%s': not a TriCore "
			                  "target?",
			                  peer,
			                  i == BK_REG_PC     ? "pc"
			                  : i == BK_REG_XPSR ? "psw"
			                                     : "d0..d14");
	return 0;
}

/* QEMU 7.2's TriCore gdbstub sends no description; its `g` is 44 32-bit registers in this order
 * (target/tricore/gdbstub.c: D0-D15, A0-A15, then LCX 32 ... PC 36 ... DMUCON 43). */
static void qemu_tricore(struct rsp_tdesc *td)
{
	static const char *const csfr[] = {"lcx", "fcx", "pcxi", "psw",    "pc",      "icr",
	                                   "isp", "btv", "biv",  "syscon", "pmucon0", "dmucon"};

	memset(td, 0, sizeof(*td));
	(void)snprintf(td->arch, sizeof(td->arch), "tricore");
	for (int i = 0; i < 32; i++) {
		(void)snprintf(td->regs[i].name, sizeof(td->regs[i].name), "%c%d", i < 16 ? 'd' : 'a', i % 16);
		td->regs[i].regnum = i;
		td->regs[i].bitsize = 32;
	}
	for (int i = 0; i < 12; i++) {
		(void)snprintf(td->regs[32 + i].name, sizeof(td->regs[32 + i].name), "%s", csfr[i]);
		td->regs[32 + i].regnum = 32 + i;
		td->regs[32 + i].bitsize = 32;
	}
	td->n_regs = 44;
}

/* GDB's built-in numbering for "arm" when a server sends no description: r0-r15 are 0-15,
 * f0-f7 16-23, fps 24, cpsr 25 (gdb/features/arm/arm-core.xml, arm-m-profile.xml: xpsr 25). */
static void classic_arm(struct rsp_tdesc *td)
{
	static const char *const core[] = {"r0", "r1", "r2",  "r3",  "r4",  "r5", "r6", "r7",
	                                   "r8", "r9", "r10", "r11", "r12", "sp", "lr", "pc"};

	memset(td, 0, sizeof(*td));
	for (int i = 0; i < 16; i++) {
		(void)snprintf(td->regs[i].name, sizeof(td->regs[i].name), "%s", core[i]);
		td->regs[i].regnum = i;
		td->regs[i].bitsize = 32;
	}
	for (int i = 16; i < 24; i++) {
		(void)snprintf(td->regs[i].name, sizeof(td->regs[i].name), "f%d", i - 16);
		td->regs[i].regnum = i;
		td->regs[i].bitsize = 96;
	}
	td->regs[24] = (struct rsp_reg){.name = "fps", .regnum = 24, .bitsize = 32};
	td->regs[25] = (struct rsp_reg){.name = "xpsr", .regnum = 25, .bitsize = 32};
	td->n_regs = 26;
}

int rsp_tdesc_load(struct rsp_priv *s, struct bench_error *err)
{
	char *xml = NULL;
	int next = 0, rc;

	if (!s->has_features) {
		if (s->tricore) {
			qemu_tricore(&s->tdesc);
			return rsp_tdesc_finish_tricore(&s->tdesc, s->link.io.peer, err);
		}
		classic_arm(&s->tdesc);
		return rsp_tdesc_finish(&s->tdesc, s->link.io.peer, err);
	}
	rc = rsp_qxfer_read(s, "features", "target.xml", &xml, err);
	if (rc < 0)
		return rc;
	memset(&s->tdesc, 0, sizeof(s->tdesc));
	rc = rsp_tdesc_parse(s, &s->tdesc, xml, &next, 0, err);
	free(xml);
	if (rc < 0)
		return rc;
	if (s->tricore)
		return rsp_tdesc_finish_tricore(&s->tdesc, s->link.io.peer, err);
	return rsp_tdesc_finish(&s->tdesc, s->link.io.peer, err);
}

void rsp_memory_map_parse(struct rsp_priv *s, const char *xml)
{
	const char *p = xml;

	s->n_flash = 0;
	/* <memory type="flash" start="0x8000000" length="0x4000"><property name="blocksize">0x4000</property> */
	while ((p = strstr(p, "<memory")) != NULL && s->n_flash < RSP_MAX_FLASH) {
		const char *end = strchr(p, '>'), *close, *bs;
		char type[16], start[24], length[24];

		if (!end)
			return;
		close = strstr(end, "</memory>");
		if (attr(p + 1, end, "type", type, sizeof(type)) && !strcmp(type, "flash") &&
		    attr(p + 1, end, "start", start, sizeof(start)) &&
		    attr(p + 1, end, "length", length, sizeof(length))) {
			struct rsp_flash *f = &s->flash[s->n_flash++];

			f->start = (uint32_t)strtoul(start, NULL, 0);
			f->length = (uint32_t)strtoul(length, NULL, 0);
			f->blocksize = 0;
			bs = strstr(end, "\"blocksize\">");
			if (bs && (!close || bs < close))
				f->blocksize = (uint32_t)strtoul(bs + strlen("\"blocksize\">"), NULL, 0);
			if (f->blocksize == 0)
				f->blocksize = f->length;
		}
		p = end;
	}
}
