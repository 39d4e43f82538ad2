#!/usr/bin/env python3
"""Renders `bench report`'s HTML page in headless Chromium and checks the screenshot for the plot:
pixels of each series' colour (host/report/svg.c svg_palette: #1f77b4 first, #d62728 second).
argv: BENCH [CHROMIUM]. The PNG is decoded with zlib alone (PNG spec, ISO/IEC 15948: IHDR, IDAT,
scanline filters 0-4), no third-party module. A page of one report is the negative control: its
second colour must be absent, so the check can fail."""
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
FIX = os.path.join(HERE, "fixtures")
BLUE = (0x1F, 0x77, 0xB4)
RED = (0xD6, 0x27, 0x28)


def png_pixels(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path}: not a PNG")
    pos, idat, width = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or ctype not in (2, 6) or interlace:
                raise ValueError(f"{path}: PNG depth {depth} colour type {ctype} interlace {interlace} not handled")
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 0xFF
            elif f == 2:
                line[i] = (line[i] + b) & 0xFF
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 0xFF
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF
        rows.append(bytes(line))
        prev = line
    return width, height, bpp, rows


def count(rows, bpp, rgb):
    n = 0
    for line in rows:
        for i in range(0, len(line), bpp):
            if line[i] == rgb[0] and line[i + 1] == rgb[1] and line[i + 2] == rgb[2]:
                n += 1
    return n


def shoot(chromium, html, png, tmp):
    profile = tempfile.mkdtemp(dir=tmp)
    cmd = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
           "--disable-background-networking", "--disable-component-update", "--disable-sync",
           f"--user-data-dir={profile}", f"--screenshot={png}", "--window-size=1200,900", "file://" + html]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    if p.returncode != 0 or not os.path.exists(png):
        raise RuntimeError(f"chromium failed ({p.returncode}): {p.stderr[-500:]}")


def main():
    bench = sys.argv[1]
    chromium = sys.argv[2] if len(sys.argv) > 2 else shutil.which("chromium")
    if not chromium:
        print("chromium not found: install it with `apt-get install chromium` (scripts/setup.sh lists it)")
        return 1
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        pages = {
            "both": [os.path.join(FIX, "fut-hardfp.json"), os.path.join(FIX, "fut-softfp.json")],
            "hard-only": [os.path.join(FIX, "fut-hardfp.json")],
        }
        counts = {}
        for name, reports in pages.items():
            html, png = os.path.join(tmp, name + ".html"), os.path.join(tmp, name + ".png")
            subprocess.run([bench, "report", *reports, "--html", html], check=True, timeout=60)
            shoot(chromium, html, png, tmp)
            w, h, bpp, rows = png_pixels(png)
            if (w, h) != (1200, 900):
                print(f"FAIL {name}: screenshot is {w}x{h}, expected 1200x900")
                ok = False
            counts[name] = (count(rows, bpp, BLUE), count(rows, bpp, RED))
            print(f"{name}: {counts[name][0]} pixels #1f77b4 (hard-float), {counts[name][1]} pixels #d62728 (soft-float)")
        # Each series has a 12x12 legend square (144 pixels) and 11 dots of radius 3.5 (about 30 exact-
        # colour pixels each inside the anti-aliased rim): over 400 pixels before its line. The flat
        # hard-float line adds about 790 more; the soft-float one's slopes are mostly anti-aliased.
        # Measured with Debian 12's chromium: 1122 and 719.
        if counts["both"][0] < 800 or counts["both"][1] < 400:
            print("FAIL both: a series of the plot is missing from the screenshot")
            ok = False
        if counts["hard-only"][0] < 800 or counts["hard-only"][1] != 0:
            print("FAIL hard-only: expected the blue series only")
            ok = False
    print("ok" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
