#!/usr/bin/env python3
"""Generates tests/sim/cycles_table.inc, the fixture of tests/sim/cycles_rules_test.c: each Thumb-2
snippet below assembled with arm-none-eabi-as (-mcpu=cortex-m4 -mfpu=fpv4-sp-d16), its bytes, and
the cycles the Cortex-M4 TRM r0p1 gives each instruction (table 3-1, FPU table 7-1; the rule is
named in the snippet's title). Rerun after editing: python3 tests/sim/cycles_gen_table.py"""
import os
import subprocess
import tempfile

# (title, base address, unused (was wait states), [(instruction, cycles)], taken_extra, folds, lsu_extra, cpi_extra)
SRAM, FLASH = 0x20000000, 0x08000000
SNIPPETS = [
    ("NOP sled: 1 each", SRAM, 0, [("nop", 1)] * 4, 0, 0, 0, 0),
    ("data processing and every multiply: 1 (32-bit ones word aligned: no fetch stall)", SRAM, 0,
     [("adds.w r0, r0, #1", 1), ("mul r0, r1, r0", 1), ("mla r0, r1, r2, r3", 1), ("mls r0, r1, r2, r3", 1),
      ("umull r0, r1, r2, r3", 1), ("smlal r0, r1, r2, r3", 1), ("umlal r0, r1, r2, r3", 1),
      ("movw r0, #0x1234", 1), ("movt r0, #0x5678", 1), ("clz r1, r0", 1), ("ubfx r1, r0, #3, #4", 1),
      ("ssat r1, #8, r0", 1), ("rev r1, r0", 1), ("sxth r1, r0", 1), ("lsls r1, r0, #3", 1)],
     0, 0, 0, 0),
    ("independent loads pipeline: N + 1", SRAM, 0, [("ldr r0, [r1]", 2), ("ldr r2, [r3]", 1)], 0, 0, 1, 0),
    ("load whose address the previous load wrote: no pipelining", SRAM, 0,
     [("ldr r0, [r1]", 2), ("ldr r2, [r0]", 2)], 0, 0, 2, 0),
    ("TRM 3.3.2 example LDR R0,[R1,R5]; LDR R1,[R2]; LDR R2,[R3,#4]: 4", SRAM, 0,
     [("ldr r0, [r1, r5]", 2), ("ldr r1, [r2]", 1), ("ldr r2, [r3, #4]", 1)], 0, 0, 1, 0),
    ("TRM 3.3.2 example LDR R0,[R1,R2]; STR R0,[R3,#20]: 3", SRAM, 0,
     [("ldr r0, [r1, r2]", 2), ("str r0, [r3, #20]", 1)], 0, 0, 1, 0),
    ("a load after a 1-cycle store waits for its data phase (jnk0le, STM32F407)", SRAM, 0,
     [("str r0, [r1]", 1), ("ldr r2, [r3]", 3)], 0, 0, 2, 0),
    ("a load multiple after a store too; a store after a store does not wait", SRAM, 0,
     [("str r0, [r1]", 1), ("ldm r3, {r4, r5}", 4), ("str r0, [r1]", 1), ("str r2, [r1, #4]", 1)], 0, 0, 3, 0),
    ("a store before LDRD, VLDR or VPOP: each load waits a cycle for the store's data phase", SRAM, 0,
     [("str r0, [r1]", 1), ("ldrd r2, r3, [r4]", 4), ("str r0, [r1]", 1), ("vldr s0, [r4]", 3),
      ("str r0, [r1]", 1), ("vpop {s1}", 3)], 0, 0, 7, 0),
    ("a store before LDR PC: the load waits too (2 + 1, then P 3 when taken)", SRAM, 0,
     [("str r0, [r1]", 1), ("ldr pc, [r4]", 3)], 3, 0, 2, 0),
    ("a store that waited for its address still overlaps its data phase with the next load", SRAM, 0,
     [("adds r3, r3, #0", 1), ("str r0, [r3, #4]", 2), ("ldr r2, [r1]", 3)], 0, 0, 3, 0),
    ("a load after a write-back load on its base does not pipeline (the base is a destination, 3.3.2)",
     SRAM, 0, [("ldr r0, [r3], #4", 2), ("ldr r2, [r3]", 2)], 0, 0, 2, 0),
    ("write-back stores on the same base do not chain; on different bases they do", SRAM, 0,
     [("str r0, [r1], #4", 1), ("str r2, [r1], #4", 2), ("str r0, [r3], #4", 1)], 0, 0, 1, 0),
    ("TRM 3.3.2 example LDR R0,[R1,R2]; STR R1,[R3,R2]: 3; a register-offset STR alone: 2", SRAM, 0,
     [("ldr r0, [r1, r2]", 2), ("str r1, [r3, r2]", 1), ("adds r4, #1", 1), ("strb r0, [r3, r2]", 2),
      ("ldr r5, [r6]", 2)], 0, 0, 1 + 1 + 1, 0),
    ("byte/halfword and write-back loads pipeline, except on the base the load before wrote back", SRAM, 0,
     [("ldrb r0, [r1], #1", 2), ("ldrh.w r2, [r1]", 2), ("ldrsb r3, [r4]", 1), ("ldrsh r5, [r6, #2]!", 1),
      ("ldr r7, [r8]", 1), ("ldr r0, [r8], #4", 1), ("ldr r2, [r8], #4", 2)],
     0, 0, 3, 0),
    ("LDREX pipelines as LDR", SRAM, 0, [("ldrex r0, [r1]", 2), ("ldr r2, [r3]", 1), ("strex r4, r0, [r1]", 1)],
     0, 0, 1, 0),
    ("a data-processing instruction breaks the pipelining", SRAM, 0,
     [("ldr r0, [r1]", 2), ("adds r4, #1", 1), ("ldr r2, [r3]", 2)], 0, 0, 2, 0),
    ("LDRD/STRD: 1 + N", SRAM, 0, [("ldrd r0, r1, [r2]", 3), ("strd r0, r1, [r2, #8]", 3)], 0, 0, 4, 0),
    ("PUSH/POP/LDM/STM: 1 + N", SRAM, 0,
     [("push {r4, r5, r6, lr}", 5), ("pop {r4, r5, r6}", 4), ("ldm r0!, {r1, r2}", 3), ("stmdb sp!, {r0-r7}", 9)],
     0, 0, 4 + 3 + 2 + 8, 0),
    ("POP with PC: 1 + N + P", SRAM, 0, [("pop {r4, pc}", 3)], 3, 0, 2, 0),
    ("LDM with PC: 1 + N + P", SRAM, 0, [("ldm r0!, {r1, r2, pc}", 4)], 3, 0, 3, 0),
    ("LDR PC: 2 + P", SRAM, 0, [("ldr pc, [r0]", 2)], 3, 0, 1, 0),
    ("MOV PC,LR: 1 + P, a return through LR: P = 1", SRAM, 0, [("mov pc, lr", 1)], 1, 0, 0, 0),
    ("ADD PC: 1 + P, resolved at execute: P = 2", SRAM, 0, [("add pc, r1", 1)], 2, 0, 0, 0),
    ("B: 1 + P, unconditional: P = 2", SRAM, 0, [("b .", 1)], 2, 0, 0, 0),
    ("BL: 1 + P, P = 2", SRAM, 0, [("bl .", 1)], 2, 0, 0, 0),
    ("B<cc>: 1 not taken, 1 + P taken, speculated at decode: P = 1", SRAM, 0, [("cmp r0, #0", 1), ("beq .", 1)], 1, 0, 0, 0),
    ("BX LR: 1 + P, a return through LR: P = 1", SRAM, 0, [("bx lr", 1)], 1, 0, 0, 0),
    ("BX LR right after LR is written: P = 1 as well", SRAM, 0, [("pop {r4, lr}", 3), ("bx lr", 1)], 1, 0, 2, 0),
    ("BX Rm: 1 + P, resolved at execute: P = 2", SRAM, 0, [("bx r3", 1)], 2, 0, 0, 0),
    ("BLX Rm: 1 + P, P = 2", SRAM, 0, [("blx r3", 1)], 2, 0, 0, 0),
    ("CBZ: 1 not taken, 1 + P taken, resolved at execute: P = 2", SRAM, 0, [("cbz r0, 1f", 1), ("nop", 1), ("1: nop", 1)], 2, 0, 0, 0),
    ("TBB: 2 + P, target loaded: P = 3", SRAM, 0, [("tbb [r0, r1]", 2)], 3, 0, 1, 0),
    ("TBH: 2 + P, P = 3", SRAM, 0, [("tbh [r0, r1, lsl #1]", 2)], 3, 0, 1, 0),
    ("a branch in flash has the same refill: flash waits are the accelerator's, at run time", FLASH, 0,
     [("b .", 1)], 2, 0, 0, 0),
    ("address from the data-processing instruction just before: one more (3.3.2)", SRAM, 0,
     [("adds r1, #4", 1), ("ldr r0, [r1]", 3), ("add.w r2, r2, #8", 1), ("str r0, [r2]", 2),
      ("sub sp, #8", 1), ("pop {r4, r5}", 4)], 0, 0, 2 + 1 + 3, 0),
    ("literal load: 2, as LDR (its fetch-slot contention only shows when the buffer runs dry)", SRAM, 0,
     [("ldr r0, [pc, #0]", 2), ("nop", 1)], 0, 0, 1, 0),
    ("three unaligned 32-bit instructions in a row: the third waits for the fetch unit", SRAM, 0,
     [("nop", 1), ("add.w r0, r0, #1", 1), ("add.w r1, r1, #1", 1), ("add.w r2, r2, #1", 2),
      ("add.w r3, r3, #1", 1), ("nop", 1)], 0, 0, 0, 1),
    ("a longer group of unaligned 32-bit data-processing instructions: still one stall (compendium)", SRAM, 0,
     [("nop", 1), ("add.w r0, r0, #1", 1), ("add.w r1, r1, #1", 1), ("add.w r2, r2, #1", 2),
      ("add.w r3, r3, #1", 1), ("add.w r4, r4, #1", 1), ("add.w r5, r5, #1", 1), ("add.w r6, r6, #1", 1),
      ("nop", 1)], 0, 0, 0, 1),
    ("three unaligned 32-bit stores: no stall; from four, one (compendium)", SRAM, 0,
     [("nop", 1), ("str.w r0, [r1, #4]", 1), ("str.w r0, [r1, #8]", 1), ("str.w r0, [r1, #12]", 1), ("nop", 1),
      ("nop", 1), ("str.w r0, [r1, #4]", 1), ("str.w r0, [r1, #8]", 1), ("str.w r0, [r1, #12]", 2),
      ("str.w r0, [r1, #16]", 1), ("nop", 1)], 0, 0, 1, 0),
    ("a group of unaligned 32-bit loads: one stall, in LSUCNT (compendium)", SRAM, 0,
     [("nop", 1), ("ldr.w r0, [r1, #4]", 2), ("ldr.w r2, [r1, #8]", 1), ("ldr.w r3, [r1, #12]", 1),
      ("ldr.w r4, [r1, #16]", 2), ("ldr.w r5, [r1, #20]", 1), ("nop", 1)], 0, 0, 2, 0),
    ("a group mixing memory and other unaligned 32-bit instructions: more than one stall (compendium)", SRAM, 0,
     [("nop", 1), ("add.w r0, r0, #1", 1), ("add.w r2, r2, #1", 1), ("ldr.w r3, [r1, #4]", 3),
      ("add.w r4, r4, #1", 1), ("add.w r5, r5, #1", 1), ("add.w r6, r6, #1", 2), ("add.w r7, r7, #1", 1),
      ("nop", 1)], 0, 0, 1, 2),
    ("three unaligned 32-bit loads: the group's one stall, if the fetch model has one", SRAM, 0,
     [("nop", 1), ("ldr.w r0, [r1, #4]", 2), ("ldr.w r2, [r1, #8]", 1), ("ldr.w r3, [r1, #12]", 1), ("nop", 1)],
     0, 0, 1, 0),
    ("a mixed group whose second instruction is a load: the fetch model's stalls", SRAM, 0,
     [("nop", 1), ("add.w r0, r0, #1", 1), ("ldr.w r3, [r1, #4]", 2), ("add.w r4, r4, #1", 1),
      ("add.w r5, r5, #1", 1), ("add.w r6, r6, #1", 2), ("add.w r7, r7, #1", 1), ("nop", 1)], 0, 0, 1, 1),
    ("a literal load's fetch-slot steal still stalls a group that takes no wait of its own", FLASH, 0,
     [("nop", 1), ("ldr.w r4, [pc, #8]", 2), ("ldr.w r2, [r7, #4]", 1), ("ldr r5, [pc, #8]", 1),
      ("ldr r5, [pc, #8]", 1), ("str.w r3, [r7, #4]", 1), ("str.w r3, [r7, #4]", 2)], 0, 0, 1, 1),
    ("SDIV/UDIV: 2 static, the rest by operands", SRAM, 0, [("udiv r0, r1, r2", 2), ("sdiv r3, r4, r5", 2)],
     0, 0, 0, 2),
    ("IT folds onto a preceding 16-bit instruction", SRAM, 0,
     [("cmp r0, #0", 1), ("it eq", 0), ("moveq r0, #1", 1)], 0, 1, 0, 0),
    ("IT after a 32-bit instruction does not fold", SRAM, 0,
     [("cmp.w r0, #0", 1), ("it eq", 1), ("moveq r0, #1", 1)], 0, 0, 0, 0),
    ("IT at the start of a block does not fold", SRAM, 0, [("ite ne", 1), ("ldrne r0, [r1]", 2), ("addeq r0, #1", 1)],
     0, 0, 1, 0),
    ("IT: conditional POP PC ends the block", SRAM, 0, [("cmp r0, #0", 1), ("it ne", 0), ("popne {r4, pc}", 3)],
     3, 1, 2, 0),
    ("barriers, special registers, hints", SRAM, 0,
     [("isb", 3), ("dmb", 1), ("dsb", 1), ("msr primask, r0", 2), ("mrs r0, primask", 1), ("cpsid i", 2),
      ("cpsie i", 2), ("wfi", 1), ("sev", 1), ("yield", 1)], 0, 0, 0, 2 + 1 + 1 + 1),
    ("BKPT/SVC/UDF: issue cycle, the entry is the core's", SRAM, 0, [("bkpt #1", 1), ("svc #0", 1), ("udf #0", 1)],
     0, 0, 0, 0),
    ("FPU table 7-1: 1-cycle arithmetic", SRAM, 0,
     [("vadd.f32 s0, s1, s2", 1), ("vsub.f32 s0, s1, s2", 1), ("vmul.f32 s0, s1, s2", 1),
      ("vnmul.f32 s0, s1, s2", 1), ("vabs.f32 s0, s1", 1), ("vneg.f32 s0, s1", 1), ("vcmp.f32 s0, #0", 1),
      ("vcmpe.f32 s0, s1", 1), ("vcvt.f32.s32 s0, s0", 1), ("vcvt.s32.f32 s1, s1", 1),
      ("vmrs APSR_nzcv, fpscr", 1), ("vmsr fpscr, r0", 1)], 0, 0, 0, 0),
    ("FPU table 7-1: multiply-accumulate 3", SRAM, 0,
     [("vmla.f32 s0, s1, s2", 3), ("vmls.f32 s0, s1, s2", 3), ("vnmla.f32 s0, s1, s2", 3),
      ("vnmls.f32 s0, s1, s2", 3), ("vfma.f32 s0, s1, s2", 3), ("vfms.f32 s0, s1, s2", 3),
      ("vfnma.f32 s0, s1, s2", 3), ("vfnms.f32 s0, s1, s2", 3)], 0, 0, 0, 16),
    ("FPU table 7-1: VDIV/VSQRT 14", SRAM, 0, [("vdiv.f32 s0, s1, s2", 14), ("vsqrt.f32 s0, s1", 14)], 0, 0, 0, 26),
    ("FPU table 7-1: VLDR/VSTR, VLDR.32 pipelines", SRAM, 0,
     [("vldr s0, [r0]", 2), ("vldr s1, [r1]", 1), ("ldr r2, [r3]", 1), ("vldr s2, [r2]", 2), ("vldr d1, [r0]", 3),
      ("vstr s0, [r0]", 2), ("vstr d0, [r0]", 3)], 0, 0, 1 + 0 + 0 + 1 + 2 + 1 + 2, 0),
    ("FPU table 7-1: VMOV 1, two core registers 2", SRAM, 0,
     [("vmov s0, r0", 1), ("vmov r0, s1", 1), ("vmov r0, r1, d0", 2), ("vmov s0, s1, r0, r1", 2),
      ("vmov.f32 s0, #1.0", 1), ("vmov.f32 s0, s1", 1)], 0, 0, 0, 2),
    ("FPU table 7-1: VLDM/VSTM/VPUSH/VPOP 1 + N (.64: 1 + 2N)", SRAM, 0,
     [("vpush {s16-s19}", 5), ("vpush {d8-d9}", 5), ("vldmia r0!, {s0-s3}", 5), ("vpop {d8}", 3),
      ("vstmia r0, {s0-s1}", 3)], 0, 0, 4 + 4 + 4 + 2 + 2, 0),
    ("FPU result-use stall (TRM 7.2.3): +1 when the next instruction reads the result, not as an addend", SRAM, 0,
     [("vadd.f32 s0, s1, s2", 1), ("vmul.f32 s3, s0, s4", 2), ("vmla.f32 s3, s5, s6", 3), ("vcvt.f32.s32 s7, s3", 2),
      ("vmov r0, s7", 2), ("vsqrt.f32 s8, s9", 14), ("vstr s8, [r1]", 3), ("vabs.f32 s0, s1", 1),
      ("vadd.f32 s2, s0, s3", 1), ("vmov r0, r1, d1", 3)],
     0, 0, 1, 1 + 2 + 1 + 1 + 13 + 1 + 2),
    ("seed 001 fut(): vmov..bx lr = 11 static (3 FPU stalls) + P 1 (the BL 3 more: 15)", SRAM, 0,
     [("vmov s15, r0", 1), ("vldr s14, [pc, #12]", 2), ("vcvt.f32.s32 s15, s15", 1), ("vmul.f32 s15, s15, s14", 2),
      ("vcvt.s32.f32 s15, s15", 2), ("vmov r0, s15", 2), ("bx lr", 1)], 1, 0, 1, 3),
]


def assemble(lines):
    # The end label gives the code's length: the section itself is padded to its alignment.
    src = ".syntax unified\n.thumb\n.text\n.p2align 2\n" + "\n".join(lines) + "\n.global snippet_end\nsnippet_end:\n"
    with tempfile.TemporaryDirectory() as d:
        s, o, b = (os.path.join(d, n) for n in ("s.S", "s.o", "s.bin"))
        with open(s, "w") as f:
            f.write(src)
        subprocess.run(["arm-none-eabi-as", "-mcpu=cortex-m4", "-mfpu=fpv4-sp-d16", "-mthumb", s, "-o", o],
                       check=True)
        subprocess.run(["arm-none-eabi-objcopy", "-O", "binary", o, b], check=True)
        nm = subprocess.run(["arm-none-eabi-nm", o], check=True, capture_output=True, text=True).stdout
        end = int(next(line.split()[0] for line in nm.splitlines() if line.endswith(" snippet_end")), 16)
        with open(b, "rb") as f:
            return f.read()[:end]


def main():
    out = ["/* Generated by tests/sim/cycles_gen_table.py from the snippets there (arm-none-eabi-as, GNU",
           " * Binutils 2.40, -mcpu=cortex-m4 -mfpu=fpv4-sp-d16 -mthumb). Do not edit: edit the script. */"]
    for title, addr, ws, insns, taken, folds, lsu, cpi in SNIPPETS:
        code = assemble([i for i, _ in insns])
        out.append("{")
        out.append("\t.title = \"%s\"," % title.replace('"', '\\"'))
        for i, c in insns:
            out.append("\t/* %-28s %2d */" % (i, c))
        out.append("\t.addr = 0x%08xu, .size = %d," % (addr, len(code)))
        out.append("\t.code = {" + ", ".join("0x%02x" % x for x in code) + "},")
        out.append("\t.n_insn = %d, .cycles = {%s}," % (len(insns), ", ".join(str(c) for _, c in insns)))
        out.append("\t.taken_extra = %d, .folds = %d, .lsu = %d, .cpi = %d," % (taken, folds, lsu, cpi))
        out.append("},")
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cycles_table.inc")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
