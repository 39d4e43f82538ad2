#!/usr/bin/env python3
"""Renders `bench report`'s HTML page in headless Chromium and checks the screenshot for the plot:
pixels of each series' colour (host/report/svg.c svg_palette: #1f77b4 first, #d62728 second).
argv: BENCH [CHROMIUM]. The PNG is decoded with zlib alone (PNG spec, ISO/IEC 15948: IHDR, IDAT,
scanline filters 0-4), no third-party module. A page of one report is the negative control: its
second colour must be absent, so the check can fail. The many-series plot alone checks that axis
labels are not clipped at the figure's edges and that the legend names every series (issue 26)."""
import os
import re
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


def shoot(chromium, html, png, tmp, size=(1200, 900)):
    profile = tempfile.mkdtemp(dir=tmp)
    cmd = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
           "--disable-background-networking", "--disable-component-update", "--disable-sync",
           f"--user-data-dir={profile}", f"--screenshot={png}", f"--window-size={size[0]},{size[1]}", "file://" + html]
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
        # Each series has 11 dots of radius 3.5 and one more in the legend (about 30 exact-colour
        # pixels each inside the anti-aliased rim): over 350 pixels before its line. The flat
        # hard-float line adds about 650 more; the soft-float one's slopes are mostly anti-aliased.
        # Measured with Debian 12's chromium: 1010 and 596 (1122 and 719 with a 12x12 legend square).
        if counts["both"][0] < 800 or counts["both"][1] < 400:
            print("FAIL both: a series of the plot is missing from the screenshot")
            ok = False
        if counts["hard-only"][0] < 800 or counts["hard-only"][1] != 0:
            print("FAIL hard-only: expected the blue series only")
            ok = False
        ok &= check_many_series(bench, chromium, tmp)
    print("ok" if ok else "FAILED")
    return 0 if ok else 1


def dark(px):
    return px[0] < 140 and px[1] < 140 and px[2] < 140


def check_many_series(bench, chromium, tmp):
    """Issue 26, class 8: the plot of fixtures/many-series.json (14 series, 10-digit axis labels,
    a result without input) rendered alone at its own size. No text may touch the figure's left or
    right edge (a clipped tick label: a24bc0b cut "10000000000" to "0000000000" at x = 0 and
    "4000000000" at the right), and the legend's last row ("not plotted (no input): setup", below
    the 14 series rows) must be drawn inside the figure."""
    svg = os.path.join(tmp, "many.svg")
    subprocess.run([bench, "report", os.path.join(FIX, "many-series.json"), "--svg", svg], check=True, timeout=60)
    head = open(svg, encoding="utf-8").read(300)
    w, h = (int(v) for v in re.search(r'width="(\d+)" height="(\d+)"', head).groups())
    png = os.path.join(tmp, "many.png")
    shoot(chromium, svg, png, tmp, (w, h))
    pw, ph, bpp, rows = png_pixels(png)
    edge = [(x, y) for y in range(ph) for x in (0, 1, 2, pw - 3, pw - 2, pw - 1)
            if dark(rows[y][x * bpp:x * bpp + 3])]
    # The legend's last row: its text's baseline is 8 px above the bottom of the figure.
    last_row = sum(dark(rows[y][x * bpp:x * bpp + 3]) for y in range(h - 24, h - 4) for x in range(pw))
    print(f"many-series: {pw}x{ph}, {len(edge)} dark pixels on the left/right edges, {last_row} in the last legend row")
    good = True
    if (pw, ph) != (w, h):
        print(f"FAIL many-series: screenshot {pw}x{ph}, the SVG is {w}x{h}")
        good = False
    if edge:
        print(f"FAIL many-series: text touches the figure's edge (clipped), first at {edge[0]}")
        good = False
    if last_row < 100:
        print("FAIL many-series: the legend's last row is missing (a series or the unplotted note dropped)")
        good = False
    return good


if __name__ == "__main__":
    sys.exit(main())
