#!/usr/bin/env python3
"""FIDE C.07 (2026) tie-breaks of the Dutch fixtures, as FIDE's Gacrux computes them.

    GACRUX=/path/to/TieBreakServer python3 tools/tiebreak_oracle.py OUT.tsv.gz [EVERY]
    GACRUX=/path/to/TieBreakServer python3 tools/tiebreak_oracle.py --points OUT.tsv.gz [MAX_PLAYERS]

Gacrux (FIDE TEC's reference, github OttoMilvang/TieBreakServer, MIT; needs `networkx`) is run
with `tiebreakchecker.py -t PTS BH BH/C1 … -s -dT` on fixture files of
crates/tournament/tests/data/dutch; its table is written with the file name in front of each
row. Direct Encounter depends on the tie-breaks before it, so Gacrux is run again for each order
of DE_ORDERS and two columns are added, named by the order: its DE (`PTS>BH>DE`) and the rank it
gives (`PTS>BH>DE rank`). crates/tournament/tests/tiebreaks.rs compares arbiter's values and
standings with it.

Which files:
- by default every EVERY-th file (default 6) that uses the standard point system (no `162` or
  `BB*` line) and no acceleration;
- with --points every file that states another point system (`162`, or bbpPairings' `BBW`,
  `BBD`, `BBL`, `BBZ`, `BBF`, `BBU`: 3/1/0, 2/1/0, a pairing-allocated bye worth 0.5) and has at
  most MAX_PLAYERS players (default 100; 0 = all), acceleration or not (Gacrux reads `250` only
  for its ACC/FLT/TOP, none asked for here, and skips `XXA`). Gacrux reads the point system from
  `162` only (without it, it guesses one from the players' totals), so a file's `BB*` lines are
  given to it as the equivalent `162` record as well.
Standard library only; Gacrux is never part of the repository.
"""
import argparse, glob, gzip, os, subprocess, sys, tempfile

# FB last: Gacrux 1.9.57 keeps Fore Buchholz's "last round not absent" in shared state, so an
# SB asked for after FB changes (e.g. g0625 player 27: SB alone 12.50, after FB 12.00).
CODES = "PTS BH BH/C1 BH/C2 BH/M1 SB SB/C1 PS PS/C1 WIN WON BPG BWG REP VUR ARO TPR PTP FB".split()
# DE alone on points (large groups, the "ranked first whatever the missing games" case) and
# after the usual first tie-breaks (small groups, mostly pairs that met).
DE_ORDERS = ["PTS DE", "PTS BH DE", "PTS BH/C1 DE", "PTS SB DE"]
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def gacrux(gacrux_dir, trf, codes):
    """Gacrux's rows for `codes`, by start number; None if it failed. `-s`: the fixtures are
    Swiss (Gacrux would otherwise take a field of rounds + 1 players for a round robin)."""
    res = subprocess.run([sys.executable, os.path.join(gacrux_dir, "tiebreakchecker.py"), "-i", trf, "-o", "-",
                          "-t", *codes, "-s", "-dT"], capture_output=True, text=True, cwd=gacrux_dir)
    lines = [l for l in res.stdout.split("\n") if l.strip()]
    if res.returncode or not lines or not lines[0].startswith("StartNo"):
        print(f"{trf}: gacrux failed: {res.stderr[-300:]}", file=sys.stderr)
        return None
    rows = [l.split("\t") for l in lines[1:]]
    return {cells[0]: cells[1:] for cells in rows}  # rank, then the values


POINTS = ("BBW", "BBD", "BBL", "BBZ", "BBF", "BBU", "162")
ACCELERATION = ("XXA", "250")


def points_162(lines):
    """The `162` record equivalent to bbpPairings' `BB*` lines (W, D, L, P; A for both absences
    and forfeit losses, the one letter TRF-2026 and Gacrux have for them)."""
    bb = {l[:3]: float(l[3:].strip()) for l in lines if l[:3] in POINTS[:6]}
    zero, forfeit = bb.get("BBZ", 0.0), bb.get("BBF", 0.0)
    if zero != forfeit:
        sys.exit(f"BBZ {zero} and BBF {forfeit} differ: no 162 record says that")
    win = bb.get("BBW", 1.0)
    groups = [("W", win), ("D", bb.get("BBD", 0.5)), ("L", bb.get("BBL", 0.0)), ("A", zero), ("P", bb.get("BBU", win))]
    return "162  " + "    ".join(f"{letter}{value:4.1f}" for letter, value in groups)


def selected(text, points, max_players):
    """The text Gacrux is given for a fixture, or None if the fixture is not in this table."""
    lines = text.split("\n")
    codes = {l[:3] for l in lines}
    if not points:
        if codes & set(POINTS + ACCELERATION) or any(l.startswith("192 FIDE_DUTCH_2025_BAKU") for l in lines):
            return None  # other point systems and acceleration: the --points table
        return text
    if not codes & set(POINTS):
        return None
    if max_players and sum(l.startswith("001") for l in lines) > max_players:
        return None
    if "162" not in codes:
        lines.append(points_162(lines))
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--points", action="store_true", help="the fixtures with another point system")
    ap.add_argument("out")
    ap.add_argument("n", nargs="?", type=int, help="EVERY (default 6), or with --points MAX_PLAYERS (default 100)")
    args = ap.parse_args()
    out, points = args.out, args.points
    every = 1 if points else (args.n or 6)
    max_players = (100 if args.n is None else args.n) if points else 0
    gacrux_dir = os.environ["GACRUX"]
    files = sorted(glob.glob(os.path.join(ROOT, "crates/tournament/tests/data/dutch/*.trf.gz")))
    de_names = [n for o in DE_ORDERS for n in (o.replace(" ", ">"), o.replace(" ", ">") + " rank")]
    which = "per fixture file"
    if points:
        which = "every fixture file with another point system (162 or BB*; BB* given as 162)"
        which += f" and at most {max_players} players" if max_players else ""
    rows = ["# Gacrux tiebreakchecker.py -t " + " ".join(CODES) + " -s -dT (2026 rules), " + which + "; "
            "then -t ORDER for each DE column, named by its order",
            "file\tStartNo\t" + "\t".join(CODES + de_names)]
    done = 0
    with tempfile.TemporaryDirectory() as tmp:
        for i, path in enumerate(files):
            if i % every:
                continue
            text = gzip.open(path, "rt", newline="").read().replace("\r\n", "\n").replace("\r", "\n")
            text = selected(text, points, max_players)
            if text is None:
                continue
            trf = os.path.join(tmp, "t.trf")
            open(trf, "w").write(text)
            table = gacrux(gacrux_dir, trf, CODES)
            des = [gacrux(gacrux_dir, trf, order.split()) for order in DE_ORDERS]
            if table is None or None in des:
                continue
            name = os.path.basename(path)
            for start, cells in table.items():
                de_cells = [c for de in des for c in (de[start][-1], de[start][0])]
                rows.append("\t".join([name, start] + cells[1:] + de_cells))
            done += 1
    # mtime 0: the same values give the same bytes.
    with open(out, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="") as f:
        f.write(("\n".join(rows) + "\n").encode())
    print(f"{done} files, {len(rows) - 2} players", file=sys.stderr)


if __name__ == "__main__":
    main()
