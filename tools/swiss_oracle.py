#!/usr/bin/env python3
"""FIDE Dutch pairing fixtures made with bbpPairings v6.0.0 (the oracle).

Writes one gzip-compressed TRF per tournament and a MANIFEST.tsv into OUTDIR
(the committed corpus is crates/tournament/tests/data/dutch/). Every round of
every file was paired by bbpPairings; the Rust tests re-pair each round and
compare. Standard library only; the oracle binary is never part of the repo.

    BBP=/path/to/bbpPairings.exe python3 tools/swiss_oracle.py generate OUTDIR
    BBP=/path/to/bbpPairings.exe python3 tools/swiss_oracle.py check OUTDIR [GLOB]

generate: deterministic (fixed seeds and parameters, gzip mtime 0); files that
already exist are kept, so an interrupted run can be resumed. Two sets:
  g*.trf.gz  bbp's random tournament generator (`--dutch -g cfg -o out -s SEED`),
             9 to 1000 players, written byte for byte as bbp writes them (CR line
             ends, no initial-colour line: it is implied by round 1).
  h*.trf.gz  driven round by round by this script (`--dutch cur.trf -p pairs`),
             9 to 60 players, with what the generator never makes: forbidden
             pairs (XXP, 260), acceleration (XXA, 250, 192 ..._BAKU), point
             systems (BBx, 162), requested byes as 0000 - H/F/Z or 240 lines,
             withdrawals. LF line ends.
  The two 1000-player events take about 6 CPU minutes each; the whole run about
  25 minutes on one core (check: about the same).
check: runs `bbp --dutch FILE -c` on every file (or those matching GLOB) and
prints each discrepancy; exit status 1 if any (bbp itself exits 0 regardless).
"""
import glob, gzip, io, os, random, re, shutil, subprocess, sys, tempfile, time

BBP = os.environ.get("BBP", "bbpPairings.exe")
BANDS = [(960, 9, 120), (125, 121, 300), (26, 301, 500), (4, 501, 800), (2, 1000, 1000)]
HAND = 40
NONE = 1000000  # a generator rate that never fires ("1 in a million")
GEN_POINTS = {"std": {}, "3/1/0": {"PointsForWin": "3.0", "PointsForDraw": "1.0"},
              "2/1/0": {"PointsForWin": "2.0", "PointsForDraw": "1.0"},
              "pab0.5": {"PointsForPAB": "0.5"}}
FEATURES = ["forfeits", "hpb", "fpb", "zpb", "withdrawn", "pab", "forbidden", "accel", "points", "init"]


# ---------------------------------------------------------------- TRF reading
def lines_of(text):
    return re.split(r"\r\n|\r|\n", text)


def entries(line):
    """Round entries of a 001 line: list of (opponent, colour, result); blank = (0, ' ', ' ')."""
    out = []
    for s in range(91, len(line), 10):
        seg = line[s:s + 8].ljust(8)
        out.append((int(seg[:4]) if seg[:4].strip() else 0, seg[5], seg[7]))
    return out


def features(text):
    """Counts of what a finished TRF exercises (see MANIFEST.tsv header)."""
    f = dict.fromkeys(FEATURES, 0)
    f.update(accel="-", points="1/0.5/0/0/1", init="?")
    pts = {"W": 1.0, "D": 0.5, "L": 0.0, "Z": 0.0, "P": None}
    rows = {}
    for l in lines_of(text):
        tag = l[:3]
        if tag == "001":
            rows[int(l[4:8])] = entries(l)
        elif tag in ("XXP", "260"):
            f["forbidden"] += 1
        elif tag in ("XXA", "250"):
            f["accel"] = tag
        elif tag == "192" and l.endswith("BAKU"):
            f["accel"] = "baku"
        elif tag in ("XXC", "152"):
            f["init"] = "W" if ("white1" in l or l == "152 W") else "B"
        elif tag == "162":
            for k in range(5, len(l) - 4, 9):
                pts[l[k]] = float(l[k + 1:k + 5])
        elif tag in ("BBW", "BBD", "BBL", "BBZ", "BBU"):
            pts["WDLZP"["WDLZU".index(tag[2])]] = float(l[4:])
    if pts["P"] is None:
        pts["P"] = pts["W"]
    f["points"] = "/".join("%g" % pts[k] for k in "WDLZP")
    for es in rows.values():
        f["forfeits"] += sum(1 for o, c, r in es if o and r in "+-")
        f["hpb"] += sum(1 for o, c, r in es if not o and r == "H")
        f["fpb"] += sum(1 for o, c, r in es if not o and r == "F")
        f["pab"] += sum(1 for o, c, r in es if not o and r == "U")
        absent = "".join("a" if not o and r in "Z- " else "p" for o, c, r in es)
        f["zpb"] += absent.count("a")
        f["withdrawn"] += len(absent) - len(absent.rstrip("a")) >= 2
    if f["init"] == "?":
        f["init"] = infer_initial_colour(rows)
    return f


def infer_initial_colour(rows):
    """bbp's rule (README): the first-round colour of the highest participant,
    reversed for every participant above him who had no colour."""
    first = min(k for es in rows.values() for k, e in enumerate(es) if e[1] in "wb")
    index = 0
    for pid in sorted(rows):
        es = rows[pid][:first + 1]
        if any(o or r in "U+" for o, c, r in es):
            if len(rows[pid]) > first and rows[pid][first][1] in "wb":
                c = rows[pid][first][1]
                return ("W" if c == "w" else "B") if index % 2 == 0 else ("B" if c == "w" else "W")
            index += 1
    return "?"


# ---------------------------------------------------------------- bbp calls
def run_bbp(args, tmp):
    p = subprocess.run([BBP, "--dutch"] + args, cwd=tmp, capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


def check_text(text, tmp):
    """Return the discrepancy lines bbp's checker prints for this TRF (empty = ok)."""
    path = os.path.join(tmp, "chk.trf")
    open(path, "w", newline="").write(text)
    rc, out = run_bbp(["chk.trf", "-c"], tmp)
    bad = [l for l in out.splitlines() if l.strip() and not re.match(r"^\S+: Round #\d+$", l)]
    return bad + (["exit code %d" % rc] if rc else [])


def write_gz(path, text):
    buf = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buf, mtime=0, compresslevel=9) as g:
        g.write(text.encode())
    open(path, "wb").write(buf.getvalue())


# ---------------------------------------------------------------- generator set
def gen_plan():
    i = 0
    for count, lo, hi in BANDS:
        for _ in range(count):
            i += 1
            rng = random.Random(i)
            n = rng.randint(lo, 24) if lo < 25 and rng.random() < 0.3 else rng.randint(max(lo, 25), hi)
            r = rng.randint(5, 11)
            if n >= 1000:
                r = 9 - (i % 2)
            elif n > 500:
                r = rng.randint(5, 8)
            elif n > 300:
                r = rng.randint(5, 9)
            elif n >= 30 and rng.random() < 0.1:
                r = rng.randint(12, 15)
            elif rng.random() < 0.05:
                r = rng.randint(3, 4)
            r = min(r, max(3, n // 2 + 1))
            hi_r = rng.randint(1800, 2850)
            cfg = {"PlayersNumber": n, "RoundsNumber": r, "DrawPercentage": rng.randint(10, 60),
                   "ForfeitRate": rng.choice([NONE, 50, 20, 8]),
                   "RetiredRate": rng.choice([NONE, NONE, 20, 8, 4]),
                   "HalfPointByeRate": rng.choice([NONE, NONE, 20, 8, 4]),
                   "HighestRating": hi_r, "LowestRating": rng.randint(1000, hi_r - 300)}
            pts = rng.choices(list(GEN_POINTS), [88, 5, 4, 3])[0]
            cfg.update(GEN_POINTS[pts])
            yield "g%04d-p%d-r%d" % (i, n, r), 1000 + i, cfg, pts


def generate_one(name, seed, cfg, tmp):
    open(os.path.join(tmp, "cfg.txt"), "w").write("".join("%s=%s\n" % kv for kv in cfg.items()))
    out = os.path.join(tmp, "out.trf")
    if os.path.exists(out):
        os.remove(out)
    rc, msg = run_bbp(["-g", "cfg.txt", "-o", "out.trf", "-s", str(seed)], tmp)
    if rc:
        return None, "bbp exit %d: %s" % (rc, msg.strip().replace("\n", " "))
    return open(out, newline="").read(), None


# ---------------------------------------------------------------- hand-driven set
def fmt_pts(x):
    return "%4.1f" % x


class Hand:
    """One tournament paired by bbp round by round, with results drawn by this script."""

    def __init__(self, j, rounds=None):
        rng = self.rng = random.Random(900000 + j)
        self.j, self.n = j, rng.randint(9, 60)
        planned = rng.randint(5, min(11, self.n // 2 + 2))
        self.R = rounds or planned
        self.fp_kind = ["none", "XXP", "260", "XXP+260"][j % 4]
        self.acc = ["none", "XXA", "250", "baku", "none"][(j // 4) % 5]
        self.pts_kind = rng.choice(["std", "std", "3/1/0 BB", "3/1/0 162", "2/1/0 162", "pab0.5 BB", "pab0.5 162"])
        if self.acc == "baku" and self.pts_kind.startswith("3/1/0"):
            self.pts_kind = "std"  # Baku needs loss 0 and win = 2 draws
        self.W, self.D = {"3": (3.0, 1.0), "2": (2.0, 1.0)}.get(self.pts_kind[0], (1.0, 0.5))
        self.U = 0.5 if self.pts_kind.startswith("pab") else self.W
        self.byes240 = j % 3 == 0
        self.modern = rng.random() < 0.5  # 142/152 instead of XXR/XXC
        self.init = rng.choice("WB")
        self.type192 = "FIDE_DUTCH_2025_BAKU" if self.acc == "baku" else rng.choice([None, None, "FIDE_DUTCH_2025"])
        self.p_draw, self.p_forfeit = rng.uniform(0.1, 0.6), [0, 0.03, 0.08][(j // 2) % 3]
        self.p_h, self.p_z, self.p_f = [(0, 0.02, 0), (0.04, 0, 0.01), (0.08, 0.04, 0)][(j // 3) % 3]
        self.wd_marker = rng.choice("Z-")
        n = self.n
        ratings = sorted((rng.randint(1200, 2600) for _ in range(n)), reverse=True)
        if rng.random() < 0.25:  # a few unrated players at the bottom
            for k in range(1, rng.randint(1, 3) + 1):
                ratings[-k] = 0
        self.ratings = ratings
        self.withdraw = {p: rng.randint(2, self.R - 1) for p in rng.sample(range(1, n + 1), rng.choice([0, 1, 2, 3]))}
        self.forbidden, self.dyn = [], {}  # dyn: round -> kind of a line added from bbp's own pairing
        if self.fp_kind != "none":
            for kind in self.fp_kind.split("+"):
                for k in rng.sample(range(1, self.R + 1), rng.randint(1, 2)):
                    self.dyn[k] = kind
                for _ in range(rng.randint(0, 2)):
                    a = rng.randint(1, n - 4)
                    group = [a, a + rng.randint(1, 3)] + ([a + 4] if rng.random() < 0.2 else [])
                    if kind == "XXP":
                        self.forbidden.append("XXP " + " ".join(str(p) for p in group))
                    else:
                        r1 = rng.randint(1, self.R)
                        r2 = rng.randint(r1, self.R)
                        self.forbidden.append("260 %3d %3d " % (r1, r2) + " ".join("%4d" % p for p in group))
        self.hist = {p: [] for p in range(1, n + 1)}
        self.lines240 = []

    def points(self, e):
        o, c, r = e
        return {"1": self.W, "+": self.W, "F": self.W, "=": self.D, "H": self.D, "U": self.U}.get(r, 0.0)

    def header(self):
        h = ["012 Hand-driven Dutch tournament h%04d" % self.j,
             ("142 %d" if self.modern else "XXR %d") % self.R,
             ("152 %s" % self.init) if self.modern else ("XXC %s1" % ("white" if self.init == "W" else "black"))]
        if self.pts_kind.endswith("BB"):
            h += ["BBW %s" % fmt_pts(self.W), "BBD %s" % fmt_pts(self.D)] + (["BBU  0.5"] if self.U == 0.5 else [])
        elif self.pts_kind.endswith("162"):
            groups = ([("W", self.W), ("D", self.D)] if self.W != 1 else []) + ([("P", self.U)] if self.U == 0.5 else [])
            h.append("162  " + "    ".join(k + fmt_pts(v) for k, v in groups))
        if self.type192:
            h.append("192 " + self.type192)
        h += self.acc_lines + self.forbidden + self.lines240
        return h

    def make_acceleration(self):
        rng, half = self.rng, (self.n + 1) // 2
        full, last = max(1, (self.R + 1) // 4), max(2, (self.R + 1) // 2)
        if self.acc == "XXA":
            self.acc_lines = ["XXA %4d " % p + " ".join(fmt_pts(self.W if k < full else self.D) for k in range(last))
                              for p in range(1, half + rng.randint(0, 2) + 1)]
        elif self.acc == "250":
            self.acc_lines = ["250      %s %3d %3d %4d %4d" % (fmt_pts(self.W), 1, full, 1, half),
                              "250      %s %3d %3d %4d %4d" % (fmt_pts(self.D), full + 1, last, 1, half)]
        else:
            self.acc_lines = []

    def render(self, markers):
        score = {p: sum(map(self.points, es)) for p, es in self.hist.items()}
        order = sorted(score, key=lambda p: (-score[p], p))
        rank = {p: k + 1 for k, p in enumerate(order)}
        out = self.header()
        for p, es in self.hist.items():
            rating = "%4d" % self.ratings[p - 1] if self.ratings[p - 1] else "    "
            name = "Player, Hand%04d" % p
            l = "001 %4d m    %-33s %s     %11s %10s %s %4d" % (p, name, rating, "", "", fmt_pts(score[p]), rank[p])
            cols = ["%4d %s %s" % e if e[0] else "0000 - " + e[2] for e in es] + (["0000 - %s" % markers[p]] if p in markers else [])
            out.append((l + "".join("  " + c for c in cols)).rstrip())
        return "\n".join(out) + "\n"

    def result(self, w, b):
        rng = self.rng
        x = rng.random()
        if x < self.p_forfeit * 0.15:
            return "-", "-"
        if x < self.p_forfeit:
            return rng.choice([("+", "-"), ("-", "+")])
        d = (self.ratings[w - 1] or 1000) - (self.ratings[b - 1] or 1000)
        e = 1 / (1 + 10 ** (-d / 400))
        y = rng.random()
        if y < self.p_draw:
            return "=", "="
        return ("1", "0") if rng.random() < e else ("0", "1")

    def play(self, tmp):
        """Pair and play all rounds; return (trf text, None) or (None, round that had no pairing)."""
        self.make_acceleration()
        rng, hcount = self.rng, {p: 0 for p in self.hist}
        for k in range(1, self.R + 1):
            markers = {}
            for p in self.hist:
                if p in self.withdraw and k >= self.withdraw[p]:
                    markers[p] = self.wd_marker
                elif rng.random() < self.p_h and hcount[p] < 2 and k < self.R:
                    markers[p], hcount[p] = "H", hcount[p] + 1
                elif rng.random() < self.p_z:
                    markers[p] = "Z"
                elif rng.random() < self.p_f:
                    markers[p] = "F"
            if self.byes240:
                for t in "HFZ":
                    ids = [p for p, m in markers.items() if (m if m in "HF" else "Z") == t]
                    if ids:
                        self.lines240.append("240 %s %3d " % (t, k) + " ".join("%4d" % p for p in sorted(ids)))
                text = self.render({})
            else:
                text = self.render(markers)
            pairs = self.pair(text, k, tmp)
            if pairs and k in self.dyn:  # forbid a pair bbp just made on a top board, then pair again
                met = {(p, o) for p, es in self.hist.items() for o, c, r in es}
                w, b = rng.choice([(w, b) for w, b in pairs[:4] if b and (w, b) not in met] or [(0, 0)])
                if w and self.dyn[k] == "XXP":
                    self.forbidden.append("XXP %d %d" % (w, b))
                elif w:
                    self.forbidden.append("260 %3d %3d %4d %4d" % (k, rng.randint(k, self.R), w, b))
                pairs = self.pair(self.render({} if self.byes240 else markers), k, tmp)
            if pairs is None:
                return None, k
            for w, b in pairs:
                if b == 0:
                    self.hist[w].append((0, "-", "U"))
                else:
                    rw, rb = self.result(w, b)
                    self.hist[w].append((b, "w", rw))
                    self.hist[b].append((w, "b", rb))
            for p, m in markers.items():
                self.hist[p].append((0, "-", m))
            assert all(len(es) == k for es in self.hist.values()), "round %d incomplete" % k
        return self.render({}), None

    def pair(self, text, k, tmp):
        """bbp's pairing of the round after the history in text: [(white, black)], black 0 = PAB; None = no valid pairing."""
        open(os.path.join(tmp, "cur.trf"), "w").write(text)
        rc, msg = run_bbp(["cur.trf", "-p", "pairs.txt"], tmp)
        if rc == 1:
            return None
        if rc:
            raise RuntimeError("h%04d round %d: bbp exit %d: %s" % (self.j, k, rc, msg))
        return [tuple(map(int, l.split())) for l in open(os.path.join(tmp, "pairs.txt")).read().split("\n")[1:] if l.strip()]

    def params(self):
        return "fp=%s;acc=%s;pts=%s;byes=%s;hdr=%s;draw=%.2f;forfeit=%.2f;hpb=%.2f;zpb=%.2f;fpb=%.2f;withdraw=%s" % (
            self.fp_kind, self.acc, self.pts_kind.replace(" ", ":"), "240" if self.byes240 else "column",
            "142/152" if self.modern else "XXR/XXC", self.p_draw, self.p_forfeit, self.p_h, self.p_z, self.p_f,
            ",".join("%d@%d" % kv for kv in sorted(self.withdraw.items())) or "-")


def hand_one(j, tmp):
    """Play tournament j; if some round has no valid pairing, replay with fewer rounds."""
    rounds = None
    while True:
        h = Hand(j, rounds)
        text, failed_round = h.play(tmp)
        if text is not None:
            return h, text
        if failed_round <= 3:
            return h, None
        rounds = failed_round - 1


# ---------------------------------------------------------------- commands
def generate(outdir):
    os.makedirs(outdir, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix="swiss_oracle.")  # removed at the end
    rows, failures, t0 = [], [], time.time()

    def store(name, seed, params, text):
        path = os.path.join(outdir, name + ".trf.gz")
        if text is None:
            text = gzip.open(path, "rt", newline="").read()
        else:
            bad = check_text(text, tmp) if name.startswith("h") else []
            if bad:
                failures.append("%s\tchecker: %s" % (name, " | ".join(bad)))
                return
            write_gz(path, text)
        f = features(text)
        rows.append([name + ".trf.gz", name.split("-p")[1].split("-")[0], name.split("-r")[1], str(seed), params]
                    + [str(f[k]) for k in FEATURES])

    for j in range(1, HAND + 1):
        for old in glob.glob(os.path.join(outdir, "h%04d-*.trf.gz" % j)):
            os.remove(old)  # cheap: the hand-driven set is always made again
        h, text = hand_one(j, tmp)
        name = "h%04d-p%d-r%d" % (j, h.n, h.R)
        if text is None:
            failures.append("%s\tno valid pairing even with 3 rounds" % name)
        else:
            store(name, 900000 + j, h.params(), text)
    for name, seed, cfg, pts in gen_plan():
        params = "draw=%(DrawPercentage)d;forfeit=%(ForfeitRate)d;retired=%(RetiredRate)d;hpb=%(HalfPointByeRate)d;" \
                 "rating=%(LowestRating)d-%(HighestRating)d" % cfg + ";pts=" + pts
        path = os.path.join(outdir, name + ".trf.gz")
        if os.path.exists(path):
            store(name, seed, params, None)
            continue
        t = time.time()
        text, err = generate_one(name, seed, cfg, tmp)
        print("%s %.1fs %s" % (name, time.time() - t, err or "ok"), flush=True)
        if err:
            failures.append("%s\tseed %d: %s" % (name, seed, err))
        else:
            store(name, seed, params, text)
    with open(os.path.join(outdir, "MANIFEST.tsv"), "w") as m:
        m.write("# Dutch (FIDE 2026) pairing fixtures, every round paired by bbpPairings v6.0.0\n"
                "# regenerate: BBP=/path/to/bbpPairings.exe python3 tools/swiss_oracle.py generate DIR\n"
                "# g*: bbpPairings --dutch -g cfg -o out -s SEED (rates are '1 in N', %d = never); "
                "h*: tools/swiss_oracle.py driver, seed = Python RNG seed\n"
                "# feature columns count player-round entries (forfeits, hpb, fpb, zpb, pab), players absent "
                "in their last 2+ rounds (withdrawn), XXP/260 lines (forbidden); points = W/D/L/Z/PAB; "
                "init = initial colour (explicit or inferred from round 1)\n" % NONE)
        for f in failures:
            m.write("# failed: %s\n" % f)
        m.write("\t".join(["file", "players", "rounds", "seed", "params"] + FEATURES) + "\n")
        for r in sorted(rows):
            m.write("\t".join(r) + "\n")
    shutil.rmtree(tmp)
    print("%d files, %d failures, %.0f s" % (len(rows), len(failures), time.time() - t0))
    for f in failures:
        print("failed:", f)


def check(outdir, pattern="*"):
    tmp, bad_files = tempfile.mkdtemp(prefix="swiss_oracle."), 0
    files = sorted(glob.glob(os.path.join(outdir, pattern + ".trf.gz")))
    for path in files:
        bad = check_text(gzip.open(path, "rt", newline="").read(), tmp)
        if bad:
            bad_files += 1
            print("%s:\n  %s" % (os.path.basename(path), "\n  ".join(bad)), flush=True)
    shutil.rmtree(tmp)
    print("%d files checked, %d with discrepancies" % (len(files), bad_files))
    return 1 if bad_files else 0


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "generate":
        generate(sys.argv[2])
    elif len(sys.argv) >= 3 and sys.argv[1] == "check":
        sys.exit(check(*sys.argv[2:4]))
    else:
        sys.exit(__doc__)
