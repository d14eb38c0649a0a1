#!/usr/bin/env python3
"""Fairy-Stockfish oracle for the xiangqi move generator.

Asks Fairy-Stockfish (``go perft 1``) for the legal moves of xiangqi
positions and writes compact, gzip-compressed TSV fixtures that the Rust
tests compare our move generator against:

  fsf-games.tsv.gz      <start FEN> TAB <ICCS moves> TAB <per-ply signatures>
  fsf-positions.tsv.gz  <FEN> TAB <signature>

A signature is ``<count>:<hash>``: the number of legal moves and the 32-bit
FNV-1a hash (8 lowercase hex digits) of the legal moves in ICCS notation,
sorted as ASCII strings and joined with single spaces.  No legal moves gives
``0:811c9dc5``.  A game line has one signature per position: the start
position, then the position after each move.

Every position is also checked against a small independent Python move
generator and attack test (a cross-check of the oracle, not the oracle
itself); any disagreement is reported and makes the run fail.

Usage:
  python3 tools/fsf_oracle.py                      # regenerate both fixtures
  python3 tools/fsf_oracle.py --fen '<FEN>'        # print FSF's legal moves (ICCS)

Standard library only.  Squares: FSF uses ranks 1-10, ICCS uses ranks 0-9.
"""

import argparse
import gzip
import os
import random
import re
import subprocess
import sys
import time

START_FEN = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
MAX_PLIES = 200
FILES = "abcdefghi"

# ---------------------------------------------------------------------------
# Signatures


def fnv1a32(data):
    h = 2166136261
    for b in data:
        h ^= b
        h = (h * 16777619) & 0xFFFFFFFF
    return h


def signature(moves):
    """`<count>:<fnv1a32 of sorted ICCS moves joined by spaces>`."""
    ms = sorted(moves)
    return "%d:%08x" % (len(ms), fnv1a32(" ".join(ms).encode("ascii")))


# ---------------------------------------------------------------------------
# Board representation: list of 90 cells, index = rank * 9 + file,
# rank 0 = red's back rank.  Cells hold a FEN letter or None.
# Red = uppercase = 'w' in FEN.


def sq(f, r):
    return r * 9 + f


def on_board(f, r):
    return 0 <= f < 9 and 0 <= r < 10


def is_red(p):
    return p.isupper()


def parse_fen(fen):
    parts = fen.split()
    rows = parts[0].split("/")
    if len(rows) != 10:
        raise ValueError("bad FEN (need 10 ranks): %r" % fen)
    board = [None] * 90
    for i, row in enumerate(rows):
        r = 9 - i
        f = 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            else:
                if ch.upper() not in "KABNRCP" or f >= 9:
                    raise ValueError("bad FEN: %r" % fen)
                board[sq(f, r)] = ch
                f += 1
        if f != 9:
            raise ValueError("bad FEN rank %r in %r" % (row, fen))
    red_to_move = len(parts) < 2 or parts[1] == "w"
    return board, red_to_move


def board_fen(board):
    rows = []
    for r in range(9, -1, -1):
        s = ""
        empty = 0
        for f in range(9):
            p = board[sq(f, r)]
            if p is None:
                empty += 1
            else:
                if empty:
                    s += str(empty)
                    empty = 0
                s += p
        if empty:
            s += str(empty)
        rows.append(s)
    return "/".join(rows)


def make_fen(board, red_to_move, fullmove=1):
    return "%s %s - - 0 %d" % (board_fen(board), "w" if red_to_move else "b", fullmove)


def iccs(frm, to):
    return "%s%d%s%d" % (FILES[frm % 9], frm // 9, FILES[to % 9], to // 9)


def parse_iccs(m):
    return sq(FILES.index(m[0]), int(m[1])), sq(FILES.index(m[2]), int(m[3]))


def iccs_to_fsf(m):
    return "%s%d%s%d" % (m[0], int(m[1]) + 1, m[2], int(m[3]) + 1)


def fsf_to_iccs(m):
    mo = re.fullmatch(r"([a-i])(\d+)([a-i])(\d+)", m)
    if not mo:
        raise ValueError("unexpected FSF move %r" % m)
    return "%s%d%s%d" % (mo.group(1), int(mo.group(2)) - 1, mo.group(3), int(mo.group(4)) - 1)


# ---------------------------------------------------------------------------
# Placement rules


def palace(red):
    ranks = (0, 1, 2) if red else (7, 8, 9)
    return [sq(f, r) for r in ranks for f in (3, 4, 5)]


def _mirror(points, red):
    return [sq(f, r if red else 9 - r) for f, r in points]


ADVISOR_POINTS = [(3, 0), (5, 0), (4, 1), (3, 2), (5, 2)]
ELEPHANT_POINTS = [(2, 0), (6, 0), (0, 2), (4, 2), (8, 2), (2, 4), (6, 4)]
MAX_COUNT = {"K": 1, "A": 2, "B": 2, "N": 2, "R": 2, "C": 2, "P": 5}

ALLOWED = {}  # FEN letter -> frozenset of squares
for _red in (True, False):
    def _L(k):
        return k if _red else k.lower()
    ALLOWED[_L("K")] = frozenset(palace(_red))
    ALLOWED[_L("A")] = frozenset(_mirror(ADVISOR_POINTS, _red))
    ALLOWED[_L("B")] = frozenset(_mirror(ELEPHANT_POINTS, _red))
    for _k in "NRC":
        ALLOWED[_L(_k)] = frozenset(range(90))
    _pawn = set()
    for _s in range(90):
        _f, _r = _s % 9, _s // 9
        _rr = _r if _red else 9 - _r  # rank from the pawn owner's side
        if _rr in (3, 4) and _f % 2 == 0:
            _pawn.add(_s)
        elif _rr >= 5:
            _pawn.add(_s)
    ALLOWED[_L("P")] = frozenset(_pawn)
ALLOWED_SORTED = {k: sorted(v) for k, v in ALLOWED.items()}


def placement_problem(board):
    """Return None if the placement satisfies the static constraints."""
    counts = {}
    for s, p in enumerate(board):
        if p is None:
            continue
        counts[p] = counts.get(p, 0) + 1
        if s not in ALLOWED[p]:
            return "%s on illegal square %s" % (p, iccs(s, s)[:2])
    for p, c in counts.items():
        if c > MAX_COUNT[p.upper()]:
            return "too many %s" % p
    if counts.get("K") != 1 or counts.get("k") != 1:
        return "need exactly one king per side"
    if kings_facing(board):
        return "kings face each other"
    return None


# ---------------------------------------------------------------------------
# Independent reference move generator (cross-check only)

ORTHO = ((1, 0), (-1, 0), (0, 1), (0, -1))
DIAG = ((1, 1), (1, -1), (-1, 1), (-1, -1))
HORSE = ((1, 2, 0, 1), (-1, 2, 0, 1), (1, -2, 0, -1), (-1, -2, 0, -1),
         (2, 1, 1, 0), (2, -1, 1, 0), (-2, 1, -1, 0), (-2, -1, -1, 0))  # df, dr, leg df, leg dr


def find_king(board, red):
    k = "K" if red else "k"
    for s in (palace(red)):
        if board[s] == k:
            return s
    return None


def kings_facing(board):
    rk, bk = find_king(board, True), find_king(board, False)
    if rk is None or bk is None or rk % 9 != bk % 9:
        return False
    return all(board[s] is None for s in range(rk + 9, bk, 9))


def king_attacked(board, red):
    """Is the king of `red` attacked (flying general counts)?"""
    k = find_king(board, red)
    kf, kr = k % 9, k // 9
    enemy = (lambda p: p.islower()) if red else (lambda p: p.isupper())
    # rooks, cannons, facing king
    for df, dr in ORTHO:
        f, r = kf + df, kr + dr
        screens = 0
        while on_board(f, r):
            p = board[sq(f, r)]
            if p is not None:
                if screens == 0:
                    if enemy(p) and (p.upper() == "R" or (p.upper() == "K" and df == 0)):
                        return True
                    screens = 1
                else:
                    if enemy(p) and p.upper() == "C":
                        return True
                    break
            f += df
            r += dr
    # horses: a horse at H attacks K = H + (df, dr) unless H + leg is occupied
    for df, dr, lf, lr in HORSE:
        hf, hr = kf - df, kr - dr
        if not on_board(hf, hr):
            continue
        p = board[sq(hf, hr)]
        if p is not None and enemy(p) and p.upper() == "N" and board[sq(hf + lf, hr + lr)] is None:
            return True
    # pawns
    pawn = "p" if red else "P"
    fwd = -1 if red else 1  # direction the enemy pawn moves
    f, r = kf, kr - fwd
    if on_board(f, r) and board[sq(f, r)] == pawn:
        return True
    for df in (-1, 1):
        f, r = kf + df, kr
        if on_board(f, r) and board[sq(f, r)] == pawn:
            crossed = r <= 4 if red else r >= 5  # enemy pawn in our half
            if crossed:
                return True
    return False


def pseudo_moves(board, red):
    out = []
    own = (lambda p: p.isupper()) if red else (lambda p: p.islower())
    for s, p in enumerate(board):
        if p is None or not own(p):
            continue
        f, r = s % 9, s // 9
        k = p.upper()

        def add(tf, tr):
            if on_board(tf, tr):
                t = sq(tf, tr)
                q = board[t]
                if q is None or not own(q):
                    out.append((s, t))

        if k == "K":
            pal = ALLOWED[p]
            for df, dr in ORTHO:
                if on_board(f + df, r + dr) and sq(f + df, r + dr) in pal:
                    add(f + df, r + dr)
        elif k == "A":
            pal = ALLOWED[p]
            for df, dr in DIAG:
                if on_board(f + df, r + dr) and sq(f + df, r + dr) in pal:
                    add(f + df, r + dr)
        elif k == "B":
            for df, dr in DIAG:
                tf, tr = f + 2 * df, r + 2 * dr
                if not on_board(tf, tr):
                    continue
                if (red and tr > 4) or (not red and tr < 5):
                    continue
                if board[sq(f + df, r + dr)] is None:
                    add(tf, tr)
        elif k == "N":
            for df, dr, lf, lr in HORSE:
                if on_board(f + df, r + dr) and board[sq(f + lf, r + lr)] is None:
                    add(f + df, r + dr)
        elif k == "R":
            for df, dr in ORTHO:
                tf, tr = f + df, r + dr
                while on_board(tf, tr):
                    q = board[sq(tf, tr)]
                    if q is None:
                        out.append((s, sq(tf, tr)))
                    else:
                        if not own(q):
                            out.append((s, sq(tf, tr)))
                        break
                    tf += df
                    tr += dr
        elif k == "C":
            for df, dr in ORTHO:
                tf, tr = f + df, r + dr
                jumped = False
                while on_board(tf, tr):
                    q = board[sq(tf, tr)]
                    if not jumped:
                        if q is None:
                            out.append((s, sq(tf, tr)))
                        else:
                            jumped = True
                    elif q is not None:
                        if not own(q):
                            out.append((s, sq(tf, tr)))
                        break
                    tf += df
                    tr += dr
        elif k == "P":
            fwd = 1 if red else -1
            add(f, r + fwd)
            if (red and r >= 5) or (not red and r <= 4):
                add(f - 1, r)
                add(f + 1, r)
    return out


def legal_moves_py(board, red):
    out = []
    for s, t in pseudo_moves(board, red):
        captured = board[t]
        board[t] = board[s]
        board[s] = None
        if not king_attacked(board, red):
            out.append(iccs(s, t))
        board[s] = board[t]
        board[t] = captured
    return out


# ---------------------------------------------------------------------------
# Engine


class Engine:
    MOVE_RE = re.compile(r"^([a-i]\d+[a-i]\d+): (\d+)$")

    def __init__(self, path):
        self.proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.name = None
        self.send("uci")
        for line in self.lines_until(lambda l: l == "uciok"):
            if line.startswith("id name "):
                self.name = line[len("id name "):]
        self.send("setoption name UCI_Variant value xiangqi")
        self.sync()

    def send(self, cmd):
        self.proc.stdin.write(cmd + "\n")
        self.proc.stdin.flush()

    def readline(self):
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("engine exited unexpectedly")
        return line.rstrip("\r\n")

    def lines_until(self, stop):
        out = []
        while True:
            line = self.readline()
            out.append(line)
            if stop(line):
                return out

    def sync(self):
        self.send("isready")
        self.lines_until(lambda l: l == "readyok")

    def legal_moves(self, fen):
        """FSF's legal moves of `fen`, in ICCS."""
        self.send("position fen " + fen)
        self.send("go perft 1")
        moves = []
        while True:
            line = self.readline()
            if line.startswith("Nodes searched:"):
                n = int(line.split(":")[1])
                if n != len(moves):
                    raise RuntimeError("perft count %d != %d moves listed for %s" % (n, len(moves), fen))
                return moves
            m = self.MOVE_RE.match(line)
            if m:
                moves.append(fsf_to_iccs(m.group(1)))
            elif line and not line.startswith("info"):
                raise RuntimeError("unexpected engine output %r for %s" % (line, fen))

    def display(self, position_cmd):
        """Send `position ...` then `d`; return (Fen, [checker squares in ICCS])."""
        self.send(position_cmd)
        self.send("d")
        fen = None
        while True:
            line = self.readline()
            if line.startswith("Fen: "):
                fen = line[5:].strip()
            elif line.startswith("Checkers:"):
                checkers = [fsf_to_iccs(c + c)[:2] for c in line[9:].split()]
                return fen, checkers

    def close(self):
        try:
            self.send("quit")
            self.proc.stdin.close()
            self.proc.wait(timeout=10)
        except Exception:
            self.proc.kill()


# ---------------------------------------------------------------------------
# Random position generator


class PositionGenerator:
    """Seeded random legal-looking placements with a varied, themed mix."""

    PIECE_KINDS = "ABNRCP"
    KIND_WEIGHTS = [1, 1, 2, 2, 2, 3]

    def __init__(self, rng):
        self.rng = rng
        self.stats = {}

    # -- helpers -------------------------------------------------------
    def _can_place(self, board, p, s):
        if board[s] is not None or s not in ALLOWED[p]:
            return False
        return sum(1 for q in board if q == p) < MAX_COUNT[p.upper()]

    def _put(self, board, p, s):
        if self._can_place(board, p, s):
            board[s] = p
            return True
        return False

    def _random_piece(self, red=None, kinds=None):
        rng = self.rng
        if red is None:
            red = rng.random() < 0.5
        if kinds is None:
            k = rng.choices(self.PIECE_KINDS, self.KIND_WEIGHTS)[0]
        else:
            k = rng.choice(kinds)
        return k if red else k.lower()

    def _put_random_piece_on(self, board, s, tries=12, red=None, kinds=None):
        for _ in range(tries):
            if self._put(board, self._random_piece(red, kinds), s):
                return True
        return False

    def _fill(self, board, n):
        """Add up to n random pieces on random allowed squares."""
        rng = self.rng
        added = 0
        for _ in range(n * 6):
            if added >= n:
                break
            p = self._random_piece()
            if sum(1 for q in board if q == p) >= MAX_COUNT[p.upper()]:
                continue
            choices = [s for s in ALLOWED_SORTED[p] if board[s] is None]
            if not choices:
                continue
            board[rng.choice(choices)] = p
            added += 1

    def _ray(self, s, df, dr):
        f, r = s % 9 + df, s // 9 + dr
        out = []
        while on_board(f, r):
            out.append(sq(f, r))
            f += df
            r += dr
        return out

    # -- themes --------------------------------------------------------
    def _kings_same_file(self, board):
        """Both kings on one file with 1 (pin) or more pieces between."""
        rng = self.rng
        f = rng.choice((3, 4, 5))
        board[sq(f, rng.choice((0, 1, 2)))] = "K"
        board[sq(f, rng.choice((7, 8, 9)))] = "k"
        between = [s for s in range(find_king(board, True) + 9, find_king(board, False), 9)]
        n = rng.choices((1, 2, 3), (6, 3, 1))[0]
        for s in rng.sample(between, min(n, len(between))):
            self._put_random_piece_on(board, s)

    def _line_attack(self, board, discovered=False):
        """Rook/cannon on a king's file or rank with 0-3 pieces between."""
        rng = self.rng
        attacker_red = rng.random() < 0.5
        k = find_king(board, not attacker_red)
        df, dr = rng.choice(ORTHO)
        ray = [s for s in self._ray(k, df, dr)]
        if len(ray) < 2:
            return
        kind = rng.choice("RC")
        if discovered:
            n = 1 if kind == "R" else rng.choice((1, 2))
        else:
            n = rng.choices((0, 1, 2, 3), (3, 4, 3, 1))[0]
        n = min(n, len(ray) - 1)
        dist = rng.randint(n + 1, len(ray))
        if not self._put(board, kind if attacker_red else kind.lower(), ray[dist - 1]):
            return
        for s in rng.sample(ray[:dist - 1], n):
            if board[s] is None:
                own = attacker_red if discovered and (s == ray[0] or rng.random() < 0.7) else None
                self._put_random_piece_on(board, s, red=own)
        if discovered:
            self.forced_mover = attacker_red

    def _horse_near(self, board):
        rng = self.rng
        attacker_red = rng.random() < 0.5
        k = find_king(board, not attacker_red)
        kf, kr = k % 9, k // 9
        df, dr, lf, lr = rng.choice(HORSE)
        hf, hr = kf - df, kr - dr
        if rng.random() < 0.25:  # sometimes a horse diagonally adjacent (blocks/legs)
            hf, hr = kf + rng.choice((-1, 1)), kr + rng.choice((-1, 1))
        if not on_board(hf, hr):
            return
        if not self._put(board, "N" if attacker_red else "n", sq(hf, hr)):
            return
        if rng.random() < 0.5 and on_board(hf + lf, hr + lr):
            self._put_random_piece_on(board, sq(hf + lf, hr + lr))

    def _pawn_near(self, board):
        rng = self.rng
        attacker_red = rng.random() < 0.5
        k = find_king(board, not attacker_red)
        df, dr = rng.choice(ORTHO + DIAG)
        f, r = k % 9 + df, k // 9 + dr
        if on_board(f, r):
            self._put(board, "P" if attacker_red else "p", sq(f, r))

    def _place_kings(self, board):
        rng = self.rng
        if find_king(board, True) is None:
            board[rng.choice(palace(True))] = "K"
        if find_king(board, False) is None:
            board[rng.choice(palace(False))] = "k"

    # -- main ----------------------------------------------------------
    def attempt(self):
        rng = self.rng
        board = [None] * 90
        self.forced_mover = None
        profile = rng.choices(("sparse", "medium", "full", "themed"), (20, 20, 15, 45))[0]
        if profile == "themed":
            if rng.random() < 0.3:
                self._kings_same_file(board)
            self._place_kings(board)
            themes = [self._line_attack, self._line_attack, self._horse_near, self._pawn_near,
                      lambda b: self._line_attack(b, discovered=True)]
            for _ in range(rng.choices((1, 2, 3, 4), (4, 4, 2, 1))[0]):
                rng.choice(themes)(board)
            self._fill(board, rng.choice((0, 0, 2, 4, 6, 10, 16)))
        else:
            if rng.random() < 0.15:
                self._kings_same_file(board)
            self._place_kings(board)
            n = {"sparse": rng.randint(1, 4), "medium": rng.randint(5, 14),
                 "full": rng.randint(20, 30)}[profile]
            self._fill(board, n)
        if placement_problem(board) is not None:
            return None, profile
        red_chk, black_chk = king_attacked(board, True), king_attacked(board, False)
        if red_chk and black_chk:
            return None, profile
        if red_chk or black_chk:
            mover = red_chk
            if self.forced_mover is not None and self.forced_mover != mover:
                return None, profile
            if rng.random() < 0.4:  # keep roughly a third of the positions in check
                return None, profile
        elif self.forced_mover is not None:
            mover = self.forced_mover
        else:
            mover = rng.random() < 0.5
        return (board, mover), profile

    def generate(self):
        while True:
            res, profile = self.attempt()
            key = profile + (" ok" if res else " rejected")
            self.stats[key] = self.stats.get(key, 0) + 1
            if res:
                return res


# ---------------------------------------------------------------------------
# Oracle driver


class Oracle:
    def __init__(self, engine, crosscheck=True):
        self.engine = engine
        self.crosscheck = crosscheck
        self.mismatches = []

    def moves(self, board, red, fen):
        ms = sorted(self.engine.legal_moves(fen))
        if self.crosscheck:
            py = sorted(legal_moves_py(board, red))
            if py != ms:
                self.mismatches.append((fen, sorted(set(ms) - set(py)), sorted(set(py) - set(ms))))
                if len(self.mismatches) <= 10:
                    print("MISMATCH %s fsf-only=%s py-only=%s" % self.mismatches[-1], file=sys.stderr)
        return ms

    def checkers(self, fen):
        return self.engine.display("position fen " + fen)[1]


def gen_positions(oracle, rng, count, log):
    gen = PositionGenerator(rng)
    seen = set()
    lines = []
    in_check = 0
    t0 = time.time()
    while len(lines) < count:
        board, red = gen.generate()
        fen = make_fen(board, red)
        if fen in seen:
            continue
        # FSF validation: the side NOT to move must not be in check.
        other = oracle.checkers(make_fen(board, not red))
        if other:
            raise RuntimeError("generator bug: side not to move in check per FSF: %s" % fen)
        chk = oracle.checkers(fen)
        if bool(chk) != king_attacked(board, red):
            raise RuntimeError("check disagreement FSF=%s python=%s: %s" % (chk, not chk, fen))
        seen.add(fen)
        in_check += bool(chk)
        lines.append("%s\t%s" % (fen, signature(oracle.moves(board, red, fen))))
        if len(lines) % 10000 == 0:
            log("positions: %d (%.0fs)" % (len(lines), time.time() - t0))
    return lines, in_check, gen.stats


def play_game(oracle, rng, start_fen):
    board, red = parse_fen(start_fen)
    fullmove = 1
    fen = start_fen
    moves, sigs = [], []
    while True:
        legal = oracle.moves(board, red, fen)
        sigs.append(signature(legal))
        if not legal or len(moves) >= MAX_PLIES:
            break
        m = rng.choice(legal)  # `legal` is sorted
        moves.append(m)
        s, t = parse_iccs(m)
        board[t] = board[s]
        board[s] = None
        if not red:
            fullmove += 1
        red = not red
        fen = make_fen(board, red, fullmove)
    # Verify our move application against FSF's own.
    if moves:
        fsf_fen, _ = oracle.engine.display(
            "position fen %s moves %s" % (start_fen, " ".join(iccs_to_fsf(m) for m in moves)))
        if fsf_fen is None or fsf_fen.split()[:2] != fen.split()[:2]:
            raise RuntimeError("replay disagreement: FSF %s vs ours %s" % (fsf_fen, fen))
    return moves, sigs


def gen_games(oracle, rng, count, random_start_fraction, log):
    gen = PositionGenerator(rng)
    lines = []
    plies = 0
    ended = 0
    t0 = time.time()
    for i in range(count):
        if rng.random() < random_start_fraction:
            b, red = gen.generate()
            start = make_fen(b, red)
            if oracle.checkers(make_fen(b, not red)):
                raise RuntimeError("generator bug: side not to move in check per FSF: %s" % start)
        else:
            start = START_FEN
        moves, sigs = play_game(oracle, rng, start)
        plies += len(moves)
        ended += sigs[-1].startswith("0:")
        lines.append("%s\t%s\t%s" % (start, " ".join(moves), " ".join(sigs)))
        if (i + 1) % 100 == 0:
            log("games: %d (%.0fs)" % (i + 1, time.time() - t0))
    return lines, plies, ended


def write_gz(path, header, lines):
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "wb") as raw:
        # mtime=0 and no file name in the header: byte-reproducible output
        with gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0, compresslevel=9) as gz:
            for h in header:
                gz.write(("# " + h + "\n").encode("ascii"))
            for line in lines:
                gz.write((line + "\n").encode("ascii"))
    os.replace(tmp, path)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--engine", default="/usr/games/fairy-stockfish")
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--positions", type=int, default=100000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--random-start", type=float, default=0.2,
                    help="fraction of games starting from a random position (default 0.2)")
    ap.add_argument("--out", default="crates/xiangqi/tests/data")
    ap.add_argument("--no-crosscheck", action="store_true",
                    help="skip the independent Python move-generator cross-check")
    ap.add_argument("--fen", help="print FSF's legal moves of FEN (ICCS, sorted) and exit")
    args = ap.parse_args(argv)

    def log(msg):
        print(msg, file=sys.stderr, flush=True)

    engine = Engine(args.engine)
    try:
        if args.fen:
            board, red = parse_fen(args.fen)
            moves = sorted(engine.legal_moves(args.fen))
            for m in moves:
                print(m)
            _, chk = engine.display("position fen " + args.fen)
            py = sorted(legal_moves_py(board, red))
            log("signature %s  checkers %s  python-crosscheck %s" % (
                signature(moves), " ".join(chk) or "-",
                "agrees" if py == moves else "DIFFERS: fsf-only %s py-only %s" % (
                    sorted(set(moves) - set(py)), sorted(set(py) - set(moves)))))
            return 0

        oracle = Oracle(engine, crosscheck=not args.no_crosscheck)
        start_sig = signature(engine.legal_moves(START_FEN))
        if not start_sig.startswith("44:"):
            raise RuntimeError("startpos signature %s, expected 44 moves" % start_sig)
        cmd = ("python3 tools/fsf_oracle.py --games %d --positions %d --seed %d --random-start %g"
               % (args.games, args.positions, args.seed, args.random_start))
        common = ["generated by: " + cmd, "engine: %s (UCI_Variant xiangqi, go perft 1)" % engine.name,
                  "seed: %d" % args.seed,
                  "signature: <count>:<fnv1a32 hex of sorted ICCS legal moves joined by ' '>"]
        t0 = time.time()
        glines, plies, ended = gen_games(oracle, random.Random("games:%d" % args.seed),
                                         args.games, args.random_start, log)
        t1 = time.time()
        plines, in_check, stats = gen_positions(oracle, random.Random("positions:%d" % args.seed),
                                                args.positions, log)
        t2 = time.time()
        if oracle.mismatches:
            log("%d FSF/Python disagreements; fixtures NOT written" % len(oracle.mismatches))
            return 1
        gpath = os.path.join(args.out, "fsf-games.tsv.gz")
        ppath = os.path.join(args.out, "fsf-positions.tsv.gz")
        write_gz(gpath, common + [
            "format: <start FEN>\\t<ICCS moves>\\t<signature per position: start, then after each move>",
            "games: %d, plies: %d, max plies per game: %d, games ending with no legal move: %d"
            % (len(glines), plies, MAX_PLIES, ended)], glines)
        write_gz(ppath, common + [
            "format: <FEN>\\t<signature>",
            "positions: %d, side to move in check: %d" % (len(plines), in_check)], plines)
        log("startpos signature: %s" % start_sig)
        log("games: %d, plies: %d, ended with no legal moves: %d (%.1fs)" % (len(glines), plies, ended, t1 - t0))
        log("positions: %d, in check: %d (%.1fs)" % (len(plines), in_check, t2 - t1))
        log("generator attempts: %s" % ", ".join("%s %d" % kv for kv in sorted(stats.items())))
        for p in (gpath, ppath):
            log("wrote %s (%d bytes)" % (p, os.path.getsize(p)))
        return 0
    finally:
        engine.close()


if __name__ == "__main__":
    sys.exit(main())
