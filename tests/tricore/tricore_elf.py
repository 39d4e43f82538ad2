"""A TriCore ELF made from hand-encoded instructions, for the TriCore end-to-end tests (issue 15).

No TriCore compiler or assembler exists in Debian (and capstone 4.0.2 there has no TriCore), so the
firmware is written here, one instruction word at a time, from the field layouts of the TriCore
TC1.6P/TC1.6E Core Architecture Manual, Volume 2 (Instruction Set), chapter 2 ("Instruction
Formats") and each instruction's page. tricore_check.py compares every word with an expected
encoding written out by hand; QEMU's KIT_AURIX_TC277_TRB then runs it.

The program (at 0x80000000, PFLASH0 cached on the TC27x, RAM in QEMU's model):

    _start:      MOVH.A A2, hi(pfp_records); LEA A2, [A2]lo(pfp_records)
                 MOV D4, #LOOPS; MOV D3, #0
                 MFCR D5, #0xFC04                 ; CCNT before
    loop_begin:  DEBUG16                          ; marker BEGIN "loop" (id 1)
    loop:        ADD D3, D3, #1
                 JNE D3, D4, loop
    loop_end:    DEBUG16                          ; marker END "loop" (id 1)
                 MFCR D6, #0xFC04                 ; CCNT after
                 ST.W [A2]192, D3                 ; region 2's (`filter`) `count` = the loop count
    done:        DEBUG16                          ; marker DONE
    halt:        J halt

Data (0x70000000, DSPR0): `bench_regions` and `pfp_records`, the profile-point table as target/pfp
writes it on a 32-bit little-endian core (docs/regions.md "Table layout": the TriCore EABI's 4-byte
pointers and uint64_t at 8-byte offsets give the same 64-byte header and 96-byte records as on
Cortex-M), counter id 2 (TriCore CCNT), calibrated, the runtime's two regions (ids 0 and 1,
"pfp.overhead" and "pfp.nested", as PFP_DEFINE_TABLE names them) and two of the application's with
statistics already in them; the names live in flash after the code (`pfp_names_`, .rodata). Region 2's
`count` is 0 in the file and LOOPS once the program ran, so a read that shows LOOPS came from the
target's memory (`count` is a count, reported as such on a board without a cycle counter, where the
cycle statistics are not). The table's sizes and offsets are read from target/include/bench_abi.h.

Usage: python3 tricore_elf.py OUT.elf [LOOPS]   (LOOPS 1..32767, default 1000)
"""
import os
import re
import struct
import sys

BENCH_ABI_H = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "target", "include", "bench_abi.h")


def read_abi(path=BENCH_ABI_H):
    """{name: value} of bench_abi.h's numeric PFP_* defines (sizes, offsets, magic), so the table made
    here follows the header the firmware and the host are built from."""
    out = {}
    for m in re.finditer(r"^#define\s+(PFP_\w+)\s+(0x[0-9a-fA-F]+|\d+)u?\b", open(path).read(), re.M):
        out[m.group(1)] = int(m.group(2), 0)
    return out


ABI = read_abi()
HDR_SIZE, REC_SIZE = ABI["PFP_HEADER_SIZE"], ABI["PFP_RECORD_SIZE"]
COUNT2 = 2 * REC_SIZE + ABI["PFP_REC_OFF_COUNT"]  # region 2's `count`, which the program stores

EM_TRICORE = 44  # ELF e_machine for TriCore (System V ABI gABI machine list)
TEXT_BASE = 0x80000000
DATA_BASE = 0x70000000
DEFAULT_LOOPS = 1000

# Marker kinds as in host/firmware/markers.h and docs/markers.md.
MARKER_BEGIN, MARKER_END, MARKER_DONE = 1, 2, 4

# CSFR offsets (TC1.6P manual Vol. 1, "Performance counters"; QEMU target/tricore/csfr.h.inc).
CSFR_CCNT = 0xFC04


# ---- instruction formats (Vol. 2, 2.1 "Instruction Formats"); bit 0 of op1 set means 32-bit ----

def rlc(op1, c, const16, s1=0):
    """RLC: op1[7:0] s1[11:8] const16[27:12] c[31:28]."""
    return op1 | (s1 << 8) | ((const16 & 0xFFFF) << 12) | (c << 28)


def rc(op1, op2, c, s1, const9):
    """RC: op1[7:0] s1[11:8] const9[20:12] op2[27:21] c[31:28]."""
    return op1 | (s1 << 8) | ((const9 & 0x1FF) << 12) | (op2 << 21) | (c << 28)


def brr(op1, op2, s1, s2, disp15):
    """BRR: op1[7:0] s1[11:8] s2[15:12] disp15[30:16] op2[31]; target = PC + sext(disp15) * 2."""
    return op1 | (s1 << 8) | (s2 << 12) | ((disp15 & 0x7FFF) << 16) | (op2 << 31)


def bol(op1, a, b, off16):
    """BOL: op1[7:0] s1/d[11:8] s2[15:12] off16[5:0]->[21:16] off16[15:10]->[27:22] off16[9:6]->[31:28]."""
    off = off16 & 0xFFFF
    return op1 | (a << 8) | (b << 12) | ((off & 0x3F) << 16) | (((off >> 10) & 0x3F) << 22) | (((off >> 6) & 0xF) << 28)


def sr(op1, op2, s1d=0):
    """SR (16-bit): op1[7:0] s1/d[11:8] op2[15:12]."""
    return op1 | (s1d << 8) | (op2 << 12)


def sb(op1, disp8):
    """SB (16-bit): op1[7:0] disp8[15:8]; target = PC + sext(disp8) * 2."""
    return op1 | ((disp8 & 0xFF) << 8)


# The instructions used, opcodes from their pages in Vol. 2.
def MOVH_A(a, const16):  # MOVH.A A[c], const16 (RLC, 91H)
    return rlc(0x91, a, const16)


def LEA(a, b, off16):  # LEA A[a], A[b], off16 (BOL, D9H)
    return bol(0xD9, a, b, off16)


def MOV(d, const16):  # MOV D[c], const16 (RLC, 3BH), const16 sign-extended
    return rlc(0x3B, d, const16)


def MFCR(d, csfr):  # MFCR D[c], const16 (RLC, 4DH)
    return rlc(0x4D, d, csfr)


def ADD_RC(d, s, const9):  # ADD D[c], D[a], const9 (RC, 8BH, op2 00H)
    return rc(0x8B, 0x00, d, s, const9)


def JNE(s1, s2, disp15):  # JNE D[a], D[b], disp15 (BRR, 5FH, op2 1)
    return brr(0x5F, 1, s1, s2, disp15)


def ST_W(b, off16, d):  # ST.W A[b], off16, D[a] (BOL, 59H)
    return bol(0x59, d, b, off16)


DEBUG16 = sr(0x00, 0xA)  # DEBUG (SR, 00H, op2 AH): a debug event with a debugger, else a no-op
J16_SELF = sb(0x3C, 0)   # J disp8 (SB, 3CH) to itself


def hi_lo(addr):
    """MOVH.A/LEA pair: hi is rounded so that the sign-extended lo adds back to addr."""
    hi = ((addr + 0x8000) >> 16) & 0xFFFF
    lo = (addr - (hi << 16)) & 0xFFFF
    return hi, lo


def program(records_addr, loops):
    """[(label or None, size, word)] from _start; sizes 2 or 4 bytes."""
    hi, lo = hi_lo(records_addr)
    code = [
        ("_start", 4, MOVH_A(2, hi)),
        (None, 4, LEA(2, 2, lo)),
        (None, 4, MOV(4, loops)),
        (None, 4, MOV(3, 0)),
        (None, 4, MFCR(5, CSFR_CCNT)),
        ("loop_begin", 2, DEBUG16),
        ("loop", 4, ADD_RC(3, 3, 1)),
        (None, 4, JNE(3, 4, -2)),  # back 4 bytes to `loop`
        ("loop_end", 2, DEBUG16),
        (None, 4, MFCR(6, CSFR_CCNT)),
        (None, 4, ST_W(2, COUNT2, 3)),  # region 2's `count` (record 2, PFP_REC_OFF_COUNT)
        ("done", 2, DEBUG16),
        ("halt", 2, J16_SELF),
    ]
    return code


def assemble(code):
    out, labels, addr = bytearray(), {}, TEXT_BASE
    for label, size, word in code:
        if label:
            labels[label] = addr
        out += struct.pack("<I" if size == 4 else "<H", word)
        addr += size
    return bytes(out), labels


def marker_record(addr, kind, ident, name):
    """docs/markers.md `.bench_markers` record: addr, kind, version 1, id, name_len, 3 reserved, name."""
    n = name.encode()
    padded = (len(n) + 1 + 3) & ~3
    return struct.pack("<IBBHB3x", addr, kind, 1, ident, len(n)) + n + b"\0" * (padded - len(n))


# ---- the region table as target/pfp writes it (docs/regions.md "Table layout (version 1)") ----
PFP_MAGIC = ABI["PFP_TABLE_MAGIC"]
COUNTER_TRICORE_CCNT = 2
REGION_NAMES = ["pfp.overhead", "pfp.nested", "filter", "fft"]
# (count, flags, errors, last, total, min, max, ema) per region: the calibration left 0 in the
# runtime's two (an exact calibration), the application's have samples; region 2's `count` is 0 here
# and written by the program at run time.
REGION_STATS = [(16, 1, 0, 0, 0, 0, 0, 0.0), (16, 1, 0, 0, 0, 0, 0, 0.0), (0, 1, 0, 120, 7 * 120, 100, 140, 120.0),
                (3, 1, 0x4, 5000, 15000, 4900, 5100, 5000.0)]


def rodata_image(base):
    """(bytes, names_tab address): `const char *const pfp_names_[]` and its strings, in flash at base,
    followed by zeros as more flash would (a reader may read a name's full 63 bytes)."""
    strings = base + 4 * len(REGION_NAMES)
    str_blob, str_addrs = bytearray(), []
    for n in REGION_NAMES:
        str_addrs.append(strings + len(str_blob))
        str_blob += n.encode() + b"\0"
    img = struct.pack("<%dI" % len(str_addrs), *str_addrs) + bytes(str_blob) + b"\0" * 64
    return img + b"\0" * (-len(img) % 4), base


def FIELD_OFFS(fmt):
    """The byte offset of each field of a struct format (no padding: '<'), 4H counted as 4 fields."""
    offs, off = [], 0
    for n, c in re.findall(r"(\d*)([a-zA-Z])", fmt[1:]):
        for _ in range(int(n or 1)):
            offs.append(off)
            off += struct.calcsize("<" + c)
    return offs


def data_image(base, names_tab):
    """(bytes, {symbol: (addr, size)}): the header at base, then the records."""
    hdr_size, rec_size = HDR_SIZE, REC_SIZE
    records = base + hdr_size
    # The field order of bench_abi.h's PFP_HDR_OFF_*: the format below puts each at its offset.
    fmt = "<IHHHHIIIIIIII4HIII"
    for k in ("MAGIC", "VERSION", "HEADER_SIZE", "RECORD_SIZE", "COUNT", "SEQ", "COUNTER", "CORE_CLOCK",
              "OVERHEAD", "NEST_OVERHEAD", "ISR_OVERHEAD", "FLAGS", "N_EVENTS", "EVENTS", "NAMES", "REGIONS", "ERRORS"):
        assert ABI["PFP_HDR_OFF_" + k] in FIELD_OFFS(fmt), k
    header = struct.pack(fmt, PFP_MAGIC, ABI["PFP_TABLE_VERSION"], hdr_size, rec_size, len(REGION_NAMES), 0,
                         COUNTER_TRICORE_CCNT, 200000000, 6, 4, 30, 1, 0, 0, 0, 0, 0, names_tab, records, 0)
    assert len(header) == hdr_size
    recs = bytearray()
    rfmt = "<IIIIQIIffII"
    offs = FIELD_OFFS(rfmt)
    for i, k in enumerate(("COUNT", "FLAGS", "ERRORS", "LAST", "TOTAL", "MIN", "MAX", "EMA", "ALPHA")):
        assert offs[i] == ABI["PFP_REC_OFF_" + k], k  # the record's fields where bench_abi.h has them
    for count, flags, errors, last, total, mn, mx, ema in REGION_STATS:
        r = struct.pack(rfmt, count, flags, errors, last, total, mn, mx, ema, 0.0, 0, 0)
        r += b"\0" * (rec_size - len(r))
        recs += r
    return bytes(header + recs), {"bench_regions": (base, hdr_size), "pfp_records": (records, len(recs))}


def build_elf(loops=DEFAULT_LOOPS):
    """The ELF bytes and a description {labels, text, data, markers} for the checks."""
    code, labels = assemble(program(DATA_BASE + HDR_SIZE, loops))
    code += b"\0" * (-len(code) % 4)
    rodata, names_tab = rodata_image(TEXT_BASE + len(code))
    data, data_syms = data_image(DATA_BASE, names_tab)
    assert data_syms["pfp_records"][0] == DATA_BASE + HDR_SIZE
    text = code + rodata
    labels["pfp_names_"] = names_tab
    markers = [(labels["loop_begin"], MARKER_BEGIN, 1, "loop"), (labels["loop_end"], MARKER_END, 1, "loop"),
               (labels["done"], MARKER_DONE, 0, "done")]
    mk = b"".join(marker_record(*m) for m in markers)

    syms = [(b"", 0, 0, 0, 0)]  # (name, value, size, info, shndx)
    STT_OBJECT, STT_FUNC, STB_GLOBAL = 1, 2, 1
    for name in ("_start", "loop_begin", "loop", "loop_end", "done", "halt"):
        syms.append((name.encode(), labels[name], 0, (STB_GLOBAL << 4) | STT_FUNC, 1))
    syms.append((b"pfp_names_", names_tab, 4 * len(REGION_NAMES), (STB_GLOBAL << 4) | STT_OBJECT, 1))
    for name, (addr, size) in data_syms.items():
        syms.append((name.encode(), addr, size, (STB_GLOBAL << 4) | STT_OBJECT, 2))
    strtab = bytearray(b"\0")
    symtab = bytearray()
    for name, value, size, info, shndx in syms:
        off = len(strtab) if name else 0
        if name:
            strtab += name + b"\0"
        symtab += struct.pack("<IIIBBH", off, value, size, info, 0, shndx)
    shnames = [b"", b".text", b".data", b".bench_markers", b".symtab", b".strtab", b".shstrtab"]
    shstr, shname_off = bytearray(), []
    for n in shnames:
        shname_off.append(len(shstr))
        shstr += n + b"\0"

    ehsize, phentsize, shentsize = 52, 32, 40
    phoff = ehsize
    off = phoff + 2 * phentsize
    layout = {}
    blobs = [("text", text), ("data", data), ("markers", mk), ("symtab", bytes(symtab)), ("strtab", bytes(strtab)),
             ("shstr", bytes(shstr))]
    body = bytearray()
    for key, blob in blobs:
        pad = -(off + len(body)) % 4
        body += b"\0" * pad
        layout[key] = off + len(body)
        body += blob
    shoff = off + len(body) + (-(off + len(body)) % 4)
    body += b"\0" * (shoff - off - len(body))

    PT_LOAD, PF_X, PF_W, PF_R = 1, 1, 2, 4
    ph = struct.pack("<IIIIIIII", PT_LOAD, layout["text"], TEXT_BASE, TEXT_BASE, len(text), len(text), PF_R | PF_X, 4)
    ph += struct.pack("<IIIIIIII", PT_LOAD, layout["data"], DATA_BASE, DATA_BASE, len(data), len(data), PF_R | PF_W, 4)
    SHT_PROGBITS, SHT_SYMTAB, SHT_STRTAB = 1, 2, 3
    SHF_WRITE, SHF_ALLOC, SHF_EXECINSTR = 1, 2, 4
    sh = struct.pack("<10I", *([0] * 10))
    sh += struct.pack("<10I", shname_off[1], SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, TEXT_BASE, layout["text"],
                      len(text), 0, 0, 2, 0)
    sh += struct.pack("<10I", shname_off[2], SHT_PROGBITS, SHF_ALLOC | SHF_WRITE, DATA_BASE, layout["data"], len(data),
                      0, 0, 4, 0)
    sh += struct.pack("<10I", shname_off[3], SHT_PROGBITS, 0, 0, layout["markers"], len(mk), 0, 0, 4, 0)
    sh += struct.pack("<10I", shname_off[4], SHT_SYMTAB, 0, 0, layout["symtab"], len(symtab), 5, 1, 4, 16)
    sh += struct.pack("<10I", shname_off[5], SHT_STRTAB, 0, 0, layout["strtab"], len(strtab), 0, 0, 1, 0)
    sh += struct.pack("<10I", shname_off[6], SHT_STRTAB, 0, 0, layout["shstr"], len(shstr), 0, 0, 1, 0)

    ident = b"\x7fELF" + bytes([1, 1, 1, 0]) + b"\0" * 8  # ELFCLASS32, ELFDATA2LSB, EV_CURRENT
    eh = ident + struct.pack("<HHIIIIIHHHHHH", 2, EM_TRICORE, 1, labels["_start"], phoff, shoff, 0, ehsize, phentsize,
                             2, shentsize, len(shnames), len(shnames) - 1)
    elf = eh + ph + bytes(body) + sh
    return elf, {"labels": labels, "text": text, "code": code, "data": data, "markers": markers, "loops": loops}


def main(argv):
    if len(argv) not in (2, 3):
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    loops = int(argv[2]) if len(argv) == 3 else DEFAULT_LOOPS
    if not 1 <= loops <= 32767:
        print("LOOPS must be 1..32767 (MOV's const16 is sign-extended)", file=sys.stderr)
        return 2
    elf, _ = build_elf(loops)
    with open(argv[1], "wb") as f:
        f.write(elf)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
