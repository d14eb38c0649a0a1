#!/usr/bin/env python3
"""Record reading speed: arbiter (Rust) side by side with cchess (Python) and pgn-reader (Rust).

    pip install cchess            # walker8088's pure-Python Xiangqi library
    python3 tools/bench_records.py [--data /work/shared/data/records] [--repeat 5]

Prints a Markdown table and the load average. For every input file:

- arbiter rows come from `cargo run --release -p arbiter-records --example read_speed -- FILE
  [--chess] --repeat N` (best of N passes over the file held in memory; "decode only" is the
  text decoding step alone; its games column is 0). For chess, that example also times pgn-reader's validating loop.
- cchess rows: cchess reads one game per file (`read_from_pgn(file_name)`), so the PGN file is
  split into one in-memory chunk per game first (not timed) and `read_from_pgn` is called once
  per chunk, with cchess's `open` redirected to the chunk in memory. cchess decodes with the
  locale encoding (UTF-8), as `open()` would. Best of 3 passes; a game that raises is not counted.
- XQF/CBR/CBL: cchess's `read_from_xqf` / `read_from_cbr` / `read_from_cbl` on the bytes in
  memory against `arbiter convert FILE /tmp/…pgn` run as a process (best of 3 per file, summed),
  which also includes process start-up and writing the PGN; the start-up time is printed below.
- games = games read without error; MB/s = input bytes / best seconds / 1e6; games/s likewise;
  ratio = arbiter MB/s / cchess MB/s (chess: arbiter / pgn-reader).
- no ratio where cchess read no game (the Big5 file: cchess decodes it as UTF-8 and raises).
- notes for the CCPD files: games whose main line cchess reads to the end (plies equal to
  ccpd-sample.expected.tsv), and plies read out of the expected total.
"""
import argparse, contextlib, glob, io, os, re, subprocess, sys, time

import cchess.read_cbr, cchess.read_pgn, cchess.read_xqf

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# cchess opens files by name: hand it the bytes we already hold instead.
cchess.read_pgn.open = lambda data, *a, **k: io.TextIOWrapper(io.BytesIO(data))
cchess.read_xqf.open = cchess.read_cbr.open = lambda data, *a, **k: io.BytesIO(data)


def best_of(n, f, budget=5.0):
    """Best wall time of n calls of f (fewer once `budget` seconds are spent) and f's result."""
    best, out, spent = float("inf"), None, 0.0
    for _ in range(n):
        t = time.perf_counter()
        out = f()
        best, spent = min(best, time.perf_counter() - t), spent + time.perf_counter() - t
        if spent > budget:
            break
    return best, out


def read_speed(path, repeat, chess=False):
    """(label, games, seconds) rows of the read_speed example (seconds from its MB/s column,
    which has more digits than best_seconds)."""
    cmd = ["cargo", "run", "--release", "-q", "-p", "arbiter-records", "--example", "read_speed",
           "--", path, "--repeat", str(repeat)] + (["--chess"] if chess else [])
    out = subprocess.run(cmd, cwd=ROOT, check=True, capture_output=True, text=True).stdout
    rows = [l.split("\t") for l in out.splitlines()[1:] if l.count("\t") == 4]
    size = os.path.getsize(path)
    return [(r[0], int(r[1]) if "decode" not in r[0] else 0, size / float(r[3]) / 1e6) for r in rows]


def split_games(data):
    """One chunk per game: a game starts at a '[' line after a blank or non-tag line."""
    chunks, cur, prev = [], [], b""
    for line in data.splitlines(keepends=True):
        if line.startswith(b"[") and not prev.startswith(b"[") and any(l.strip() for l in cur):
            chunks.append(b"".join(cur)); cur = []
        prev = line
        cur.append(line)
    if any(l.strip() for l in cur):
        chunks.append(b"".join(cur))
    return chunks


def plies(game):
    n, m = 0, game.first_move
    while m:
        n, m = n + 1, m.next_move
    return n


def cchess_read(reader, chunks):
    """cchess's result per chunk, or the exception's type name if it raised."""
    out = []
    with contextlib.redirect_stdout(io.StringIO()):  # cchess prints some complaints
        for c in chunks:
            try:
                out.append(reader(c))
            except Exception as e:
                out.append(type(e).__name__)
    return out


def raised(out):
    errs = [g for g in out if isinstance(g, str)]
    return f"{len(errs)} raised ({', '.join(sorted(set(errs)))})" if errs else ""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", default="/work/shared/data/records")
    ap.add_argument("--repeat", type=int, default=5)
    a = ap.parse_args()
    load0 = os.getloadavg()
    subprocess.run(["cargo", "build", "--release", "-q", "-p", "arbiter", "-p", "arbiter-records",
                    "--example", "read_speed"], cwd=ROOT, check=True)
    rows, notes = [], []  # rows: (file, tool, games, bytes, seconds, ratio-group)

    def add(name, tool, games, size, secs, note=""):
        rows.append((name, tool, games, size / secs / 1e6, games / secs, note))

    exp = [int(l.split("\t")[4]) for l in
           open(f"{a.data}/xiangqi-ccpd/ccpd-sample.expected.tsv", encoding="utf-8").readlines()[1:]]
    # cchess knows only simplified piece names (马 车 进 …); the CCPD sample is in traditional
    # characters (馬 車 進 …), so cchess stops at the first such move. The third row is cchess on
    # a copy with those six characters replaced (not timed), the only like-for-like comparison.
    simplified = str.maketrans("進車馬將帥後", "进车马将帅后")
    for enc, simp in (("utf8", False), ("utf8", True), ("big5", False)):
        path = f"{a.data}/xiangqi-ccpd/ccpd-sample.{enc}.pgn"
        name, data = os.path.basename(path), open(path, "rb").read()
        if not simp:
            for label, games, secs in read_speed(path, a.repeat):
                add(name, ("" if label.startswith("arbiter") else "arbiter ") + label, games, len(data), secs)
        chunks = split_games(data)
        if simp:
            chunks = [c.decode().translate(simplified).encode() for c in chunks]
        secs, out = best_of(3, lambda: cchess_read(cchess.read_pgn.read_from_pgn, chunks))
        got = [-1 if isinstance(g, str) else plies(g) for g in out]  # -1: raised
        full = sum(g == e for g, e in zip(got, exp)) if len(got) == len(exp) else "?"
        got = [max(g, 0) for g in got]
        add(name, f"cchess read_from_pgn ({len(chunks)} per-game chunks{', simplified copy' if simp else ''})",
            sum(not isinstance(g, str) for g in out), len(data), secs,
            f"{full}/{len(exp)} games complete; plies {sum(got)}/{sum(exp)}; {raised(out)}".rstrip("; "))

    arbiter = os.path.join(ROOT, "target/release/arbiter")
    startup, _ = best_of(5, lambda: subprocess.run([arbiter, "--version"], capture_output=True))
    readers = {"xqf": cchess.read_xqf.read_from_xqf, "cbr": cchess.read_cbr.read_from_cbr,
               "cbl": lambda d: cchess.read_cbr.read_from_cbl(d)["games"]}
    groups = {}  # files of 10 KB or more get a row of their own (the XQF variation-tree tests)
    for f in sorted(glob.glob(f"{a.data}/xiangqi-xqf/*")):
        ext = f.rsplit(".", 1)[-1].lower()
        if ext in readers:
            big = os.path.getsize(f) >= 10_000
            key = (os.path.basename(f) if big else f"small .{ext} files", ext)
            groups.setdefault(key, []).append(f)
    for (name, ext), files in groups.items():
        reader, size = readers[ext], sum(os.path.getsize(f) for f in files)
        name = os.path.basename(files[0]) if len(files) == 1 else f"{name} ({len(files)})"
        a_secs = a_games = 0
        for f in files:
            secs, p = best_of(3, lambda: subprocess.run([arbiter, "convert", f, "/tmp/bench_records.pgn"],
                                                        capture_output=True, text=True))
            m = re.search(r"(\d+) games written", p.stderr)
            a_secs, a_games = a_secs + secs, a_games + (int(m.group(1)) if m else 0)
        add(name, "arbiter convert (process)", a_games, size, a_secs)
        blobs = [open(f, "rb").read() for f in files]
        secs, out = best_of(3, lambda: cchess_read(reader, blobs))
        games = sum(len(g) if isinstance(g, list) else 1 for g in out if g is not None and not isinstance(g, str))
        add(name, f"cchess read_from_{ext}", games, size, secs, raised(out))

    path = f"{a.data}/chess-lichess/lichess-2025-05-sample.pgn"
    for label, games, secs in read_speed(path, a.repeat, chess=True):
        add(os.path.basename(path), ("" if label.startswith("arbiter") else "(Rust) ") + label,
            games, os.path.getsize(path), secs)

    print("| file | tool | games | MB/s | games/s | ratio arbiter/cchess (chess: /pgn-reader) | notes |")
    print("|---|---|---:|---:|---:|---:|---|")
    for name, tool, games, mbs, gps, note in rows:
        # ratio: the main arbiter reader's MB/s over this row's, on the cchess / pgn-reader rows
        main = [r for r in rows if r[0] == name and (r[1].startswith("arbiter XiangqiGames")
                or r[1].startswith("arbiter convert") or r[1].startswith("arbiter ChessGames"))]
        ratio = f"{main[0][3] / mbs:.1f}" if main and not tool.startswith("arbiter") and games else ""
        gps = f"{gps:,.0f}" if gps >= 10 else f"{gps:.2f}" if games else ""
        print(f"| {name} | {tool} | {games} | {mbs:.2f} | {gps} | {ratio} | {note} |")
    print(f"\narbiter process start-up (`arbiter --version`, best of 5): {startup * 1e3:.1f} ms")
    print(f"load average before: {' '.join(f'{x:.2f}' for x in load0)}; "
          f"after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; {os.cpu_count()} CPUs")


if __name__ == "__main__":
    main()
