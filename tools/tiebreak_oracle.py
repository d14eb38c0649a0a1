#!/usr/bin/env python3
"""FIDE C.07 (2026) tie-breaks of the Dutch fixtures, as FIDE's Gacrux computes them.

    GACRUX=/path/to/TieBreakServer python3 tools/tiebreak_oracle.py OUT.tsv.gz [EVERY]

Gacrux (FIDE TEC's reference, github OttoMilvang/TieBreakServer, MIT; needs `networkx`) is run
with `tiebreakchecker.py -t PTS BH BH/C1 … -dT` on every EVERY-th file (default 6) of
crates/tournament/tests/data/dutch that uses the standard point system; its table is written
with the file name in front of each row. crates/tournament/tests/tiebreaks.rs compares
arbiter's values with it. Standard library only; Gacrux is never part of the repository.
"""
import glob, gzip, os, subprocess, sys, tempfile

# FB last: Gacrux 1.9.57 keeps Fore Buchholz's "last round not absent" in shared state, so an
# SB asked for after FB changes (e.g. g0625 player 27: SB alone 12.50, after FB 12.00).
CODES = "PTS BH BH/C1 BH/C2 BH/M1 SB SB/C1 PS PS/C1 WIN WON BPG BWG REP VUR ARO TPR PTP FB".split()
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    out = sys.argv[1]
    every = int(sys.argv[2]) if len(sys.argv) > 2 else 6
    gacrux = os.environ["GACRUX"]
    files = sorted(glob.glob(os.path.join(ROOT, "crates/tournament/tests/data/dutch/*.trf.gz")))
    rows = ["# Gacrux tiebreakchecker.py -t " + " ".join(CODES) + " -dT (2026 rules), per fixture file",
            "file\tStartNo\t" + "\t".join(CODES)]
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
            res = subprocess.run([sys.executable, os.path.join(gacrux, "tiebreakchecker.py"), "-i", trf, "-o", "-",
                                  "-t", *CODES, "-dT"], capture_output=True, text=True, cwd=gacrux)
            lines = [l for l in res.stdout.split("\n") if l.strip()]
            if res.returncode or not lines or not lines[0].startswith("StartNo"):
                print(f"{path}: gacrux failed: {res.stderr[-300:]}", file=sys.stderr)
                continue
            name = os.path.basename(path)
            for l in lines[1:]:
                cells = l.split("\t")
                rows.append(name + "\t" + cells[0] + "\t" + "\t".join(cells[2:]))
            done += 1
    with gzip.open(out, "wt") as f:
        f.write("\n".join(rows) + "\n")
    print(f"{done} files, {len(rows) - 2} players", file=sys.stderr)


if __name__ == "__main__":
    main()
