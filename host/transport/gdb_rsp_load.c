/* Memory and ELF download through the GDB remote protocol: m / X / M chunked to the server's
 * PacketSize (E.4), and flash programming with vFlashErase / vFlashWrite / vFlashDone over the
 * regions qXfer:memory-map:read reports (E.4, G "Memory Map Format"). */
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "transport/gdb_rsp_priv.h"

static size_t data_room(const struct rsp_priv *s)
{
	/* Room for data in one packet: the server's limit less "$X12345678,1234:#cs" framing. */
	return s->server_packet_size - 32;
}

int rsp_read_mem(struct rsp_priv *s, uint32_t addr, void *buf, size_t len, struct bench_error *err)
{
	uint8_t *out = buf;
	size_t max = data_room(s) / 2;

	while (len > 0) {
		size_t n = len < max ? len : max, got;
		int rc = rsp_command(s, err, "m%x,%zx", (unsigned)addr, n);
		const char *r = s->link.parser.data;

		if (rc < 0)
			return rc;
		got = s->link.parser.len / 2;
		if ((r[0] == 'E' && s->link.parser.len == 3) || got == 0 || got > n || rsp_hex_decode(r, out, got) != 0)
			return bench_fail(err, BENCH_E_TARGET, "gdbserver %s cannot read memory at 0x%08x (\"%.20s\")",
			                  s->link.io.peer, (unsigned)addr, r);
		out += got;
		addr += (uint32_t)got;
		len -= got;
	}
	return 0;
}

/* Bytes of src that fit one X packet of room bytes once '#', '$', '}' and '*' are escaped. */
static size_t x_chunk(const uint8_t *src, size_t len, size_t room)
{
	size_t enc = 0, n = 0;

	while (n < len) {
		size_t c = (src[n] == '#' || src[n] == '$' || src[n] == '}' || src[n] == '*') ? 2 : 1;

		if (enc + c > room)
			break;
		enc += c;
		n++;
	}
	return n;
}

static int write_x(struct rsp_priv *s, const char *verb, uint32_t addr, const uint8_t *src, size_t len,
                   struct bench_error *err)
{
	char *pkt = malloc(s->server_packet_size + 64);
	int rc = 0;

	if (!pkt)
		return bench_fail(err, BENCH_E_NOMEM, "out of memory for a %s packet", verb);
	do {
		size_t n = x_chunk(src, len, data_room(s));
		/* "X addr,len:bytes" or "vFlashWrite:addr:bytes" */
		int h = verb[0] == 'X' ? snprintf(pkt, 64, "X%x,%zx:", (unsigned)addr, n)
		                       : snprintf(pkt, 64, "%s:%x:", verb, (unsigned)addr);
		memcpy(pkt + h, src, n);
		rc = rsp_exchange(s, pkt, (size_t)h + n, err);
		if (rc < 0)
			break;
		if (strcmp(s->link.parser.data, "OK")) {
			rc = s->link.parser.len == 0
			         ? 1 /* X unsupported */
			         : bench_fail(err, BENCH_E_TARGET, "gdbserver %s refused %s at 0x%08x (\"%.20s\")",
			                      s->link.io.peer, verb, (unsigned)addr, s->link.parser.data);
			break;
		}
		src += n;
		addr += (uint32_t)n;
		len -= n;
	} while (len > 0);
	free(pkt);
	return rc;
}

static int write_m(struct rsp_priv *s, uint32_t addr, const uint8_t *src, size_t len, struct bench_error *err)
{
	size_t max = data_room(s) / 2;
	char *pkt = malloc(2 * max + 64);
	int rc = 0;

	if (!pkt)
		return bench_fail(err, BENCH_E_NOMEM, "out of memory for an M packet");
	while (len > 0) {
		size_t n = len < max ? len : max;
		int h = snprintf(pkt, 64, "M%x,%zx:", (unsigned)addr, n);

		rsp_hex_encode(src, n, pkt + h);
		rc = rsp_exchange(s, pkt, (size_t)h + 2 * n, err);
		if (rc < 0)
			break;
		if (strcmp(s->link.parser.data, "OK")) {
			rc = bench_fail(err, BENCH_E_TARGET, "gdbserver %s cannot write memory at 0x%08x (\"%.20s\")",
			                s->link.io.peer, (unsigned)addr, s->link.parser.data);
			break;
		}
		src += n;
		addr += (uint32_t)n;
		len -= n;
	}
	free(pkt);
	return rc;
}

int rsp_write_mem(struct rsp_priv *s, uint32_t addr, const void *buf, size_t len, struct bench_error *err)
{
	if (len == 0)
		return 0;
	if (s->x_state >= 0) {
		int rc = write_x(s, "X", addr, buf, len, err);

		if (rc <= 0) {
			if (rc == 0)
				s->x_state = 1;
			return rc;
		}
		s->x_state = -1; /* an empty reply: no binary writes here (QEMU 7.2), use hex M */
	}
	return write_m(s, addr, buf, len, err);
}

int rsp_is_bkpt(struct rsp_priv *s, uint32_t addr, bool *is_bkpt, struct bench_error *err)
{
	uint8_t op[2];
	int rc;

	*is_bkpt = false;
	if (s->tricore)
		return 0;
	addr &= ~1u;
	for (size_t i = 0; i < s->n_insn_cache; i++)
		if (s->insn_cache[i].addr == addr) {
			*is_bkpt = s->insn_cache[i].bkpt;
			return 0;
		}
	rc = rsp_read_mem(s, addr, op, 2, err);
	if (rc < 0)
		return rc;
	*is_bkpt = op[1] == 0xbe; /* T1 encoding 1011 1110 imm8 (Armv7-M ARM A7.7.17) */
	if (s->n_insn_cache < sizeof(s->insn_cache) / sizeof(s->insn_cache[0]))
		s->n_insn_cache++;
	else
		memmove(s->insn_cache, s->insn_cache + 1, sizeof(s->insn_cache) - sizeof(s->insn_cache[0]));
	s->insn_cache[s->n_insn_cache - 1].addr = addr;
	s->insn_cache[s->n_insn_cache - 1].bkpt = *is_bkpt;
	return 0;
}

int rsp_op_read_mem(struct backend *bk, uint32_t addr, void *buf, size_t len, struct bench_error *err)
{
	struct rsp_priv *s = bk->priv;

	if (s->running)
		return bench_fail(err, BENCH_E_TARGET, "memory read at 0x%08x while the target runs: halt it first",
		                  (unsigned)addr);
	return rsp_read_mem(s, addr, buf, len, err);
}

int rsp_op_write_mem(struct backend *bk, uint32_t addr, const void *buf, size_t len, struct bench_error *err)
{
	struct rsp_priv *s = bk->priv;

	if (s->running)
		return bench_fail(err, BENCH_E_TARGET, "memory write at 0x%08x while the target runs: halt it first",
		                  (unsigned)addr);
	s->n_insn_cache = 0;
	return rsp_write_mem(s, addr, buf, len, err);
}

/* ---- ELF download ---- */

struct seg {
	uint32_t addr;
	size_t len;
	uint8_t *data;
	bool flash;
};

static const struct rsp_flash *flash_at(const struct rsp_priv *s, uint32_t addr)
{
	for (size_t i = 0; i < s->n_flash; i++)
		if (addr >= s->flash[i].start && addr - s->flash[i].start < s->flash[i].length)
			return &s->flash[i];
	return NULL;
}

static int read_segments(const char *path, struct seg **out, size_t *n_out, const struct rsp_priv *s,
                         struct bench_error *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), rc = 0;
	Elf *e;
	GElf_Ehdr eh;
	size_t phnum = 0, n = 0, size = 0;
	struct seg *segs = NULL;
	char *image;

	if (fd < 0)
		return bench_fail(err, BENCH_E_FILE, "cannot open firmware %s: check the path", path);
	if (elf_version(EV_CURRENT) == EV_NONE || !(e = elf_begin(fd, ELF_C_READ, NULL))) {
		close(fd);
		return bench_fail(err, BENCH_E_ELF, "%s: cannot read as ELF: %s", path, elf_errmsg(-1));
	}
	image = elf_rawfile(e, &size);
	if (elf_kind(e) != ELF_K_ELF || !gelf_getehdr(e, &eh) || elf_getphdrnum(e, &phnum) != 0 || !image)
		rc = bench_fail(err, BENCH_E_ELF, "%s is not an ELF executable", path);
	else if (eh.e_machine != EM_ARM)
		rc = bench_fail(err, BENCH_E_ARCH, "%s is for machine %u, not Arm: build it for the Cortex-M target",
		                path, (unsigned)eh.e_machine);
	else if (!(segs = calloc(phnum ? phnum : 1, sizeof(*segs))))
		rc = bench_fail(err, BENCH_E_NOMEM, "out of memory reading %s", path);
	for (size_t i = 0; rc == 0 && segs && i < phnum; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(e, (int)i, &ph)) {
			rc = bench_fail(err, BENCH_E_ELF, "%s: bad program header %zu", path, i);
			break;
		}
		if (ph.p_type != PT_LOAD || ph.p_filesz == 0)
			continue;
		if (ph.p_offset + ph.p_filesz > size) {
			rc = bench_fail(err, BENCH_E_ELF, "%s: segment %zu lies beyond the end of the file", path, i);
			break;
		}
		/* The load address is the physical one (LMA): initialised data goes to flash too. */
		segs[n] = (struct seg){.addr = (uint32_t)ph.p_paddr,
		                       .len = ph.p_filesz,
		                       .data = (uint8_t *)image + ph.p_offset,
		                       .flash = flash_at(s, (uint32_t)ph.p_paddr)};
		n++;
	}
	if (rc == 0 && n == 0)
		rc = bench_fail(err, BENCH_E_ELF, "%s has no loadable segments", path);
	if (rc == 0) {
		/* Keep the file mapped for the caller: copy the segment bytes out. */
		for (size_t i = 0; i < n && rc == 0; i++) {
			uint8_t *copy = malloc(segs[i].len);

			if (!copy) {
				rc = bench_fail(err, BENCH_E_NOMEM, "out of memory reading %s", path);
				for (size_t j = 0; j < i; j++)
					free(segs[j].data);
				break;
			}
			memcpy(copy, segs[i].data, segs[i].len);
			segs[i].data = copy;
		}
	}
	elf_end(e);
	close(fd);
	if (rc < 0) {
		free(segs);
		return rc;
	}
	*out = segs;
	*n_out = n;
	return 0;
}

/* Erases every flash block any segment touches, each block once (E.4 vFlashErase). */
static int flash_erase(struct rsp_priv *s, const struct seg *segs, size_t n, struct bench_error *err)
{
	uint32_t done_until = 0;

	for (size_t i = 0; i < n; i++) {
		uint32_t a = segs[i].addr, end = segs[i].addr + (uint32_t)segs[i].len;

		if (!segs[i].flash)
			continue;
		while (a < end) {
			const struct rsp_flash *f = flash_at(s, a);
			uint32_t blk, bend;
			int rc;

			if (!f)
				return bench_fail(err, BENCH_E_TARGET,
				                  "segment at 0x%08x runs past the flash the server maps",
				                  (unsigned)segs[i].addr);
			blk = f->start + (a - f->start) / f->blocksize * f->blocksize;
			bend = blk + f->blocksize;
			/* Segments come sorted by address: a block below done_until was erased already. */
			if (bend > done_until) {
				rc = rsp_command(s, err, "vFlashErase:%x,%x", (unsigned)blk, (unsigned)f->blocksize);
				if (rc < 0)
					return rc;
				if (strcmp(s->link.parser.data, "OK"))
					return bench_fail(err, BENCH_E_TARGET,
					                  "gdbserver %s could not erase flash at 0x%08x (\"%.20s\")",
					                  s->link.io.peer, (unsigned)blk, s->link.parser.data);
				done_until = bend;
			}
			a = bend;
		}
	}
	return 0;
}

/* Reads every segment back and compares; BENCH_E_TARGET names the first differing byte. */
static int verify(struct rsp_priv *s, const struct seg *segs, size_t n, const char *elf_path, struct bench_error *err)
{
	int rc = 0;

	for (size_t i = 0; rc == 0 && i < n; i++) {
		uint8_t *back = calloc(1, segs[i].len);

		if (!back)
			return bench_fail(err, BENCH_E_NOMEM, "out of memory verifying %s", elf_path);
		rc = rsp_read_mem(s, segs[i].addr, back, segs[i].len, err);
		if (rc == 0 && memcmp(back, segs[i].data, segs[i].len)) {
			size_t k = 0;

			while (k + 1 < segs[i].len && back[k] == segs[i].data[k])
				k++;
			rc = bench_fail(err, BENCH_E_TARGET,
			                "loading %s failed: 0x%08x reads back 0x%02x, not 0x%02x (%s): program it with "
			                "the server's own tool and give --no-load",
			                elf_path, (unsigned)(segs[i].addr + k), back[k], segs[i].data[k],
			                segs[i].flash ? "flash the server maps"
			                : s->n_flash  ? "outside the flash the server maps"
			                              : "the server maps no flash, so it was written as RAM");
		}
		free(back);
	}
	return rc;
}

static int seg_cmp(const void *a, const void *b)
{
	const struct seg *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

int rsp_op_load(struct backend *bk, const char *elf_path, struct bench_error *err)
{
	struct rsp_priv *s = bk->priv;
	struct seg *segs = NULL;
	size_t n = 0;
	bool any_flash = false;
	int rc;

	if (s->running)
		return bench_fail(err, BENCH_E_TARGET, "load while the target runs: halt it first");
	rc = read_segments(elf_path, &segs, &n, s, err);
	if (rc < 0)
		return rc;
	if (!segs || n == 0) { /* read_segments refuses an ELF without loadable segments */
		free(segs);
		return bench_fail(err, BENCH_E_ELF, "%s has no loadable segments", elf_path);
	}
	qsort(segs, n, sizeof(*segs), seg_cmp);
	s->n_insn_cache = 0;
	for (size_t i = 0; i < n; i++)
		any_flash |= segs[i].flash;
	/* Like OpenOCD's `program FILE preverify`: a target that holds the image already is not
	 * erased and rewritten (flash wear, time; a server that cannot write flash, --no-load's case). */
	if (verify(s, segs, n, elf_path, err) == 0) {
		for (size_t i = 0; i < n; i++)
			free(segs[i].data);
		free(segs);
		return 0;
	}
	bench_error_clear(err);
	if (any_flash)
		rc = flash_erase(s, segs, n, err);
	for (size_t i = 0; rc == 0 && i < n; i++) {
		if (!segs[i].flash)
			rc = rsp_write_mem(s, segs[i].addr, segs[i].data, segs[i].len, err);
		else if ((rc = write_x(s, "vFlashWrite", segs[i].addr, segs[i].data, segs[i].len, err)) > 0)
			rc = bench_fail(err, BENCH_E_UNSUPPORTED, "gdbserver %s does not take vFlashWrite",
			                s->link.io.peer);
	}
	if (rc == 0 && any_flash) {
		rc = rsp_command(s, err, "vFlashDone");
		if (rc == 0 && strcmp(s->link.parser.data, "OK"))
			rc = bench_fail(err, BENCH_E_TARGET, "gdbserver %s failed to program flash (\"%.20s\")",
			                s->link.io.peer, s->link.parser.data);
	}
	/* Verify: read every segment back (the TCL backend's `verify_image` does the same). */
	if (rc == 0)
		rc = verify(s, segs, n, elf_path, err);
	for (size_t i = 0; i < n; i++)
		free(segs[i].data);
	free(segs);
	return rc;
}
