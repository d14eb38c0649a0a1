#!/usr/bin/env python3
"""Time one Swiss round (FIDE Dutch) with arbiter and with bbpPairings on the same TRF.

    BBP=/path/to/bbpPairings.exe python3 tools/bench_swiss.py [N ...] [--played 4] [--rounds 9] [--seed 1] [--runs 3]

For each N (default 100 200 500 1000) a synthetic history of N players is written by
../shared/tools/tournament/synth_trf.py (consistent, not itself a Dutch pairing), and the next
round is paired by `target/release/arbiter pair` and, if BBP is set, by `bbpPairings --dutch -p`.
Prints user CPU seconds (best of --runs), the ratio, and whether the two pairings are the same.
"""
import os, resource, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SYNTH = os.path.join(ROOT, "..", "shared", "tools", "tournament", "synth_trf.py")
ARBITER = os.path.join(ROOT, "target", "release", "arbiter")


def user_time(cmd):
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime - before


def pairs(path):
    lines = open(path).read().split()
    return sorted(zip(lines[1::2], lines[2::2]))


def main():
    args = sys.argv[1:]
    opts = {"--played": 4, "--rounds": 9, "--runs": 3, "--seed": 1}
    sizes = []
    while args:
        a = args.pop(0)
        if a in opts:
            opts[a] = int(args.pop(0))
        else:
            sizes.append(int(a))
    sizes = sizes or [100, 200, 500, 1000]
    bbp = os.environ.get("BBP")
    tmp = tempfile.mkdtemp()
    print(f"{'players':>8} {'arbiter s':>10} {'bbp s':>10} {'ratio':>7}  same")
    for n in sizes:
        trf = os.path.join(tmp, f"s{n}.trf")
        with open(trf, "w") as f:
            subprocess.run([sys.executable, SYNTH, str(n), str(opts["--played"]), str(opts["--rounds"]), str(opts["--seed"])],
                           check=True, stdout=f)
        ours_out, bbp_out = trf + ".ours", trf + ".bbp"
        ours = min(user_time([ARBITER, "pair", trf, "-p", ours_out]) for _ in range(opts["--runs"]))
        if bbp:
            theirs = min(user_time([bbp, "--dutch", trf, "-p", bbp_out]) for _ in range(1 if n > 500 else opts["--runs"]))
            same = "yes" if pairs(ours_out) == pairs(bbp_out) else "NO"
            ratio = f"{theirs / max(ours, 1e-3):.0f}x"
            print(f"{n:>8} {ours:>10.2f} {theirs:>10.2f} {ratio:>7}  {same}")
        else:
            print(f"{n:>8} {ours:>10.2f} {'-':>10} {'-':>7}  -")


if __name__ == "__main__":
    main()
