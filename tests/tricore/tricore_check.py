"""Checks tricore_elf.py's bytes against encodings written out by hand (issue 15).

Each expected word below was put together field by field from the instruction's page in the TriCore
TC1.6P/TC1.6E Core Architecture Manual, Volume 2 (Instruction Set), independently of the encoder
functions in tricore_elf.py; QEMU's decoder (target/tricore/tricore-opcodes.h: OPC1_32_RLC_MFCR 0x4d,
OPC1_32_RLC_MOV 0x3b, OPC1_32_RLC_MOVH_A 0x91, OPC1_32_BOL_LEA_LONGOFF 0xd9, OPC1_32_BOL_ST_W_LONGOFF
0x59, OPCM_32_RC_ACCUMULATOR 0x8b / OPC2_32_RC_ADD 0x00, OPCM_32_BRR_EQ_NEQ 0x5f, OPCM_16_SR_SYSTEM 0x00
/ OPC2_16_SR_DEBUG 0x0a, OPC1_16_SB_J 0x3c) agrees on every opcode. Debian's capstone (4.0.2) has no
TriCore disassembler, so there is no second disassembler to ask; running the program in QEMU
(tricore_run.py: the loop count read back from D3) checks the semantics.

Also checked: the ELF header (EM_TRICORE 44, ELFCLASS32, little-endian, entry), the `.bench_markers`
records (docs/markers.md) at the DEBUG16 sites, and the region table's 32-bit layout
(docs/regions.md, "Table layout (version 1)").
"""
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tricore_elf  # noqa: E402

# (label, expected little-endian word, how it was encoded). Fields per Vol. 2, 2.1 "Instruction Formats".
EXPECTED = [
    ("_start", 0x27000091, "MOVH.A A2, #0x7000: RLC op1 91H, const16 7000H @[27:12], c 2 @[31:28]"),
    (None, 0x100022D9, "LEA A2, [A2]0x40: BOL op1 D9H, a 2 @[11:8], b 2 @[15:12], off16[9:6]=1 @[31:28]"),
    (None, 0x403E803B, "MOV D4, #1000: RLC op1 3BH, const16 03E8H, c 4"),
    (None, 0x3000003B, "MOV D3, #0: RLC op1 3BH, const16 0, c 3"),
    (None, 0x5FC0404D, "MFCR D5, #0xFC04 (CCNT): RLC op1 4DH, const16 FC04H, c 5"),
    ("loop_begin", 0xA000, "DEBUG (16-bit): SR op1 00H, op2 AH @[15:12]"),
    ("loop", 0x3000138B, "ADD D3, D3, #1: RC op1 8BH, s1 3, const9 1 @[20:12], op2 00H @[27:21], c 3"),
    (None, 0xFFFE435F, "JNE D3, D4, -2: BRR op1 5FH, s1 3, s2 4, disp15 7FFEH @[30:16], op2 1 @[31]"),
    ("loop_end", 0xA000, "DEBUG (16-bit)"),
    (None, 0x6FC0404D, "MFCR D6, #0xFC04 (CCNT): RLC op1 4DH, const16 FC04H, c 6"),
    (None, 0x30002359, "ST.W [A2]192, D3: BOL op1 59H, a 3, b 2, off16 00C0H: [5:0]=0 @[21:16], [9:6]=3 @[31:28]"),
    ("done", 0xA000, "DEBUG (16-bit)"),
    ("halt", 0x003C, "J +0 (16-bit): SB op1 3CH, disp8 0 @[15:8]"),
]

failures = []


def expect(cond, what):
    if not cond:
        failures.append(what)
        print(f"FAIL: {what}", file=sys.stderr)


def main():
    elf, info = tricore_elf.build_elf(1000)
    text, labels = info["code"], info["labels"]

    # The instruction words, in order, each at its label.
    off = 0
    for label, word, how in EXPECTED:
        size = 4 if word & 1 else 2  # op1 bit 0 set: a 32-bit instruction (Vol. 2, 2.1)
        got = struct.unpack_from("<H" if size == 2 else "<I", text, off)[0]
        expect(got == word, f"{how}: expected {word:#010x}, generated {got:#010x} at +{off:#x}")
        if label:
            expect(labels[label] == tricore_elf.TEXT_BASE + off, f"label {label} at {labels[label]:#x}, not +{off:#x}")
        off += size
    expect(off == len(text), f"{len(text)} bytes of code, the expected words cover {off}")
    # JNE's target (Vol. 2, JNE: PC + sign_ext(disp15) * 2) decoded from the generated word: disp15 is
    # bits [30:16] of the BRR word at loop + 4, and must bring the PC back to `loop`.
    jne_at = labels["loop"] + 4
    jne = struct.unpack_from("<I", text, jne_at - tricore_elf.TEXT_BASE)[0]
    disp15 = (jne >> 16) & 0x7FFF
    disp15 -= 0x8000 if disp15 & 0x4000 else 0
    expect(jne & 0xFF == 0x5F and jne >> 31 == 1, f"the word at loop + 4 is {jne:#010x}, not a JNE (BRR 5FH, op2 1)")
    expect(jne_at + 2 * disp15 == labels["loop"],
           f"JNE at {jne_at:#x} with disp15 {disp15} lands on {jne_at + 2 * disp15:#x}, not `loop` {labels['loop']:#x}")

    # ELF header (System V gABI; EM_TRICORE 44).
    expect(elf[:4] == b"\x7fELF" and elf[4] == 1 and elf[5] == 1, "not an ELFCLASS32 little-endian ELF")
    e_type, e_machine, _, e_entry = struct.unpack_from("<HHII", elf, 16)
    expect(e_type == 2 and e_machine == 44, f"e_type {e_type}, e_machine {e_machine}: not an EM_TRICORE executable")
    expect(e_entry == labels["_start"], f"entry {e_entry:#x} is not _start")

    # Marker records (docs/markers.md): addr, kind, version 1, id, name_len, name padded to 4.
    want = [(labels["loop_begin"], 1, 1, "loop"), (labels["loop_end"], 2, 1, "loop"), (labels["done"], 4, 0, "done")]
    rec = b"".join(tricore_elf.marker_record(*m) for m in want)
    expect(rec in elf, "the .bench_markers records are not in the ELF")
    expect(rec[:12] == struct.pack("<IBBHB3x", 0x80000014, 1, 1, 1, 4), f"first marker record {rec[:12].hex()}")
    for addr, _, _, _ in want:
        o = addr - tricore_elf.TEXT_BASE
        expect(text[o:o + 2] == b"\x00\xa0", f"marker site {addr:#x} holds {text[o:o + 2].hex()}, not DEBUG16")

    # Region table: bench_abi.h's header and records (64 and 96 bytes) on a 32-bit little-endian core.
    abi = tricore_elf.read_abi()
    hs, rs = abi["PFP_HEADER_SIZE"], abi["PFP_RECORD_SIZE"]
    data = info["data"]
    magic, version, hsize, rsize, count = struct.unpack_from("<IHHHH", data, 0)
    expect((magic, version, hsize, rsize, count) == (abi["PFP_TABLE_MAGIC"], abi["PFP_TABLE_VERSION"], hs, rs, 4),
           f"table header {magic:#x} v{version} {hsize}/{rsize} count {count}")
    counter, = struct.unpack_from("<I", data, abi["PFP_HDR_OFF_COUNTER"])
    expect(counter == 2, f"table counter id {counter}, not 2 (TriCore CCNT)")
    names, = struct.unpack_from("<I", data, abi["PFP_HDR_OFF_NAMES"])
    records, = struct.unpack_from("<I", data, abi["PFP_HDR_OFF_REGIONS"])
    expect(records == tricore_elf.DATA_BASE + hs, f"records at {records:#x}")
    count2 = 2 * rs + abi["PFP_REC_OFF_COUNT"]
    expect(records + count2 == 0x70000100 and struct.unpack_from("<I", data, hs + count2)[0] == 0,
           "region 2's `count` is not 0 in the file at 0x70000100 (ST.W [A2]192 writes it at run time)")
    # The names: const char *const pfp_names_[] in flash, as PFP_DEFINE_TABLE lays them out.
    flash = info["text"]
    got = []
    for i in range(count):
        p, = struct.unpack_from("<I", flash, names - tricore_elf.TEXT_BASE + 4 * i)
        got.append(flash[p - tricore_elf.TEXT_BASE:].split(b"\0")[0].decode())
    expect(got == ["pfp.overhead", "pfp.nested", "filter", "fft"], f"region names {got}")

    print("ok" if not failures else f"{len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
