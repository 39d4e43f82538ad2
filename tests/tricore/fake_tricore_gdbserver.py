"""A scripted TriCore gdbserver standing in for an AURIX board behind a real one (issue 15): what
`bench run --board aurix-tc297 --gdb HOST:PORT` needs, without the hardware. It is a test seam, not
a model of the core: it serves the ELF's loadable bytes, a target description (architecture
"tricore", D0-D15, A0-A15, PSW, PC numbered as below), `p`, `m`/`M`/`X`, `Z1`/`z1`, `c`/`s`,
`monitor reset halt`, and core 0's CSFRs at 0xF881_0000: CCTRL at +0xFC00 and CCNT at +0xFC04.

A continue goes to the next planted breakpoint above the PC (or stops at `halt`), and CCNT advances
by the cycles the script gives for that stretch, only while CCTRL.CE (bit 1) is set. CCNT is 31 bits
with a sticky overflow flag in bit 31 (TC1.6P manual, "CCNT"); it starts near the top so that the
stretches cross the overflow. The cycles of each stretch are printed for the test to compare.

  fake_tricore_gdbserver.py ELF PORT_FILE [--ce-off]   (writes the port it listens on to PORT_FILE)
"""
import socket
import struct
import sys

sys.path.insert(0, __import__("os").path.dirname(__import__("os").path.abspath(__file__)))
import tricore_elf  # noqa: E402

CSFR_BASE = 0xF8810000
CCTRL, CCNT = CSFR_BASE + 0xFC00, CSFR_BASE + 0xFC04
DSPR0, DSPR0_END = 0x70000000, 0x7001E000  # core 0's data scratch-pad RAM (120 KiB)
CCNT_START = 0x7FFFF000  # 4096 cycles below the overflow: the third pass crosses it
# Cycles from one stop to the next: reset -> loop_begin, loop_begin -> loop_end, loop_end -> done.
STRETCH = {"loop_begin": 7, "loop_end": 3002, "done": 5}

# Register numbers as this server's description gives them (not QEMU's order, on purpose).
REGS = ["pc", "psw"] + [f"d{i}" for i in range(16)] + [f"a{i}" for i in range(16)]


def tdesc():
    regs = "".join(f'<reg name="{n}" bitsize="32" regnum="{i}"/>' for i, n in enumerate(REGS))
    return ('<?xml version="1.0"?><!DOCTYPE target SYSTEM "gdb-target.dtd"><target version="1.0">'
            f'<architecture>tricore</architecture><feature name="org.gnu.gdb.tricore.core">{regs}</feature></target>')


class Target:
    def __init__(self, elf_path, ce_on):
        with open(elf_path, "rb") as f:
            self.elf = f.read()
        self.mem = {}
        self.load()
        self.labels = self.symbols()
        self.pc = self.entry
        self.regs = {n: 0 for n in REGS}
        self.cctrl = 0x2 if ce_on else 0x0
        self.total = CCNT_START
        self.breaks = set()

    def load(self):
        e_entry, e_phoff = struct.unpack_from("<II", self.elf, 24)
        e_phnum = struct.unpack_from("<H", self.elf, 44)[0]
        self.entry = e_entry
        for i in range(e_phnum):
            p_type, off, vaddr, _, filesz = struct.unpack_from("<IIIII", self.elf, e_phoff + 32 * i)
            if p_type == 1:
                for k in range(filesz):
                    self.mem[vaddr + k] = self.elf[off + k]

    def symbols(self):
        _, info = tricore_elf.build_elf()
        return info["labels"]

    def ccnt(self):
        return (self.total & 0x7FFFFFFF) | (0x80000000 if self.total > 0x7FFFFFFF else 0)

    def read(self, addr, n):
        out = bytearray()
        for a in range(addr, addr + n):
            if CCTRL <= a < CCTRL + 4:
                out.append((self.cctrl >> (8 * (a - CCTRL))) & 0xFF)
            elif CCNT <= a < CCNT + 4:
                out.append((self.ccnt() >> (8 * (a - CCNT))) & 0xFF)
            elif a in self.mem:
                out.append(self.mem[a])
            elif DSPR0 <= a < DSPR0_END:  # RAM the ELF does not fill reads as zeros
                out.append(0)
            else:
                return None
        return bytes(out)

    def write(self, addr, data):
        for k, b in enumerate(data):
            a = addr + k
            if CCTRL <= a < CCTRL + 4:
                sh = 8 * (a - CCTRL)
                self.cctrl = (self.cctrl & ~(0xFF << sh)) | (b << sh)
            elif a in self.mem:
                self.mem[a] = b
            else:
                return False
        return True

    def run(self):
        """To the next planted breakpoint above the PC in program order (or `halt`)."""
        stops = sorted(a for a in self.breaks if a > self.pc)
        nxt = stops[0] if stops else self.labels["halt"]
        name = next((n for n, a in self.labels.items() if a == nxt), None)
        if self.cctrl & 0x2:
            # the stretches in between, as if the core ran through them
            for n in ("loop_begin", "loop_end", "done"):
                if self.pc < self.labels[n] <= nxt:
                    self.total += STRETCH[n]
        self.pc = nxt
        if name == "loop_end":
            self.regs["d3"] = 1000
        return nxt in self.breaks


class Server:
    def __init__(self, conn, target):
        self.c, self.t, self.buf, self.ack = conn, target, b"", b""

    def recv(self):
        while True:
            while self.buf[:1] in (b"+", b"-"):
                self.buf = self.buf[1:]
            if self.buf[:1] == b"\x03":
                self.buf = self.buf[1:]
                return "\x03"
            if b"#" in self.buf and len(self.buf) >= self.buf.index(b"#") + 3:
                i, j = self.buf.index(b"$"), self.buf.index(b"#")
                pkt = self.buf[i + 1:j].decode("latin-1")
                self.buf = self.buf[j + 3:]
                self.ack = b"+"  # sent with the reply: one segment, no Nagle wait between the two
                return pkt
            d = self.c.recv(65536)
            if not d:
                return None
            self.buf += d

    def send(self, payload):
        data = payload.encode("latin-1")
        self.c.sendall(self.ack + b"$" + data + b"#%02x" % (sum(data) & 0xFF))
        self.ack = b""

    def handle(self, p):
        t = self.t
        if p.startswith("qSupported"):
            return "PacketSize=1000;qXfer:features:read+"
        if p.startswith("qXfer:features:read:target.xml:"):
            off, ln = (int(x, 16) for x in p.rsplit(":", 1)[1].split(","))
            x = tdesc()
            return ("l" if off + ln >= len(x) else "m") + x[off:off + ln]
        if p == "?":
            return "S05"
        if p.startswith("qRcmd,"):
            cmd = bytes.fromhex(p[6:]).decode()
            if cmd == "reset halt":
                t.pc, t.regs["d3"] = t.entry, 0
                return "OK"
            if cmd in ("version", "help"):
                self.send("O" + b"fake TriCore gdbserver (tests/tricore)\n".hex())
                return "OK"
            return ""
        if p.startswith("p"):
            n = int(p[1:], 16)
            v = t.pc if REGS[n] == "pc" else (0xB80 if REGS[n] == "psw" else t.regs[REGS[n]])
            return struct.pack("<I", v).hex()
        if p.startswith("m"):
            a, n = (int(x, 16) for x in p[1:].split(","))
            d = t.read(a, n)
            return d.hex() if d is not None else "E14"
        if p.startswith("M"):
            hdr, data = p[1:].split(":")
            a, _ = (int(x, 16) for x in hdr.split(","))
            return "OK" if t.write(a, bytes.fromhex(data)) else "E14"
        if p.startswith("Z1,") or p.startswith("z1,"):
            a = int(p[3:].split(",")[0], 16)
            (t.breaks.add if p[0] == "Z" else t.breaks.discard)(a)
            return "OK"
        if p in ("c", "vCont;c"):
            t.run()
            return "T05hwbreak:;"
        if p in ("s", "vCont;s"):
            t.pc += 2 if t.pc in (t.labels["loop_begin"], t.labels["loop_end"], t.labels["done"]) else 4
            return "T05"
        if p == "D":
            return "OK"
        return ""

    def serve(self):
        while True:
            p = self.recv()
            if p is None:
                return
            if p == "\x03":
                self.send("T02")
                continue
            self.send(self.handle(p))
            if p == "D":
                return


def main():
    elf, port_file = sys.argv[1], sys.argv[2]
    ce_on = "--ce-off" not in sys.argv[3:]
    ls = socket.socket()
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind(("127.0.0.1", 0))
    ls.listen(1)
    with open(port_file, "w") as f:
        f.write(str(ls.getsockname()[1]))
    ls.settimeout(30)
    conn, _ = ls.accept()
    conn.settimeout(30)
    conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    Server(conn, Target(elf, ce_on)).serve()
    conn.close()


if __name__ == "__main__":
    main()
