#!/usr/bin/env python3
"""FIDE C.07 (2026) tie-breaks of the Dutch fixtures, as FIDE's Gacrux computes them.

    GACRUX=/path/to/TieBreakServer python3 tools/tiebreak_oracle.py OUT.tsv.gz [EVERY]

Gacrux (FIDE TEC's reference, github OttoMilvang/TieBreakServer, MIT; needs `networkx`) is run
with `tiebreakchecker.py -t PTS BH BH/C1 … -s -dT` on every EVERY-th file (default 6) of
crates/tournament/tests/data/dutch that uses the standard point system; its table is written
with the file name in front of each row. Direct Encounter depends on the tie-breaks before it,
so Gacrux is run again for each order of DE_ORDERS and two columns are added, named by the order:
its DE (`PTS>BH>DE`) and the rank it gives (`PTS>BH>DE rank`). crates/tournament/tests/tiebreaks.rs
compares arbiter's values and standings with it.
Standard library only; Gacrux is never part of the repository.
"""
import glob, gzip, os, subprocess, sys, tempfile

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


def main():
    out = sys.argv[1]
    every = int(sys.argv[2]) if len(sys.argv) > 2 else 6
    gacrux_dir = os.environ["GACRUX"]
    files = sorted(glob.glob(os.path.join(ROOT, "crates/tournament/tests/data/dutch/*.trf.gz")))
    de_names = [n for o in DE_ORDERS for n in (o.replace(" ", ">"), o.replace(" ", ">") + " rank")]
    rows = ["# Gacrux tiebreakchecker.py -t " + " ".join(CODES) + " -s -dT (2026 rules), per fixture file; "
            "then -t ORDER for each DE column, named by its order",
            "file\tStartNo\t" + "\t".join(CODES + de_names)]
    done = 0
    with tempfile.TemporaryDirectory() as tmp:
        for i, path in enumerate(files):
            if i % every:
                continue
            text = gzip.open(path, "rt", newline="").read().replace("\r\n", "\n").replace("\r", "\n")
            if any(l[:3] in ("BBW", "BBD", "BBL", "BBZ", "BBF", "BBU", "162", "XXA", "250") or
                   l.startswith("192 FIDE_DUTCH_2025_BAKU") for l in text.split("\n")):
                continue  # other point systems and acceleration: not compared
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
