#!/usr/bin/env python3
"""Game-end oracle fixtures for the judge: Xiangqi judged by pyffish, chess by python-chess.

Writes two gzip-compressed TSV files that the judge's Rust tests compare
against (no Python needed in CI):

  crates/judge/tests/data/xiangqi-oracle.tsv.gz
      columns: id  source  start_fen  moves  checks  has_insufficient
      source    random | biased | ccpd | xqf
      start_fen Xiangqi FEN (ranks from black's side, as in standard FEN; w/b)
      moves     ICCS moves (files a-i, ranks 0-9 from red's side), space-separated
      checks    every ply where pyffish was consulted, as `ply:verdict/call`
                (ply 0 = start position, ply n = after n moves); verdict is
                red | black | draw, or the bare word `none` (e.g. `57:none`)
                when pyffish says the game goes on; call is the pyffish call
                that said so:
                  nomoves   legal_moves() was empty -> game_result()
                  immediate is_immediate_game_end() was True
                  optional  is_optional_game_end() was True (repetition rules,
                            move limit)
      has_insufficient  has_insufficient_material() at the final ply, as two
                letters T/F: red then black (e.g. `FT`)

  crates/judge/tests/data/chess-oracle.tsv.gz
      columns: id  source  start_fen  moves  events
      source    random | biased | lichess
      moves     UCI
      events    every ply where board.outcome(claim_draw=False) or
                board.outcome(claim_draw=True) is not None, as
                `ply:termination:winner:auto|claim` (termination = python-chess
                Termination name in lower case, winner = white|black|draw;
                `auto` = given by outcome(claim_draw=False), `claim` = only by
                outcome(claim_draw=True))

Both files start with `#` comment lines (command, seed, library versions),
then one header line, then one game per line.  The gzip header has mtime 0
and every game has its own seeded RNG (legal moves are sorted before the
choice), so a rerun writes byte-identical files.

When pyffish is consulted (Xiangqi).  pyffish costs ~2-3 ms per call, so it is
called only at the plies where a judge could end the game, found with a
Python move generator and position tracking of our own:
  * the current position (board + side to move) occurs for the 3rd (or a
    later) time since the last capture (or since the start position);
  * the side to move has no legal moves;
  * the plies-since-capture counter (start FEN's 5th field + plies) is >= 100:
    every such ply (pyffish's default protocol draws at 100, later when a side
    gave more than 10 checks in the window; the CXA limit is 120);
  * the final ply of the game.
At each consulted ply pyffish's legal-move list is compared with ours (the
run fails on any difference).  Random and biased games stop at the first
consulted ply whose verdict is not `none`, or at 300 plies; real games are
replayed to their end (a move that is not legal truncates the game:
BadMoveTest3.xqf keeps its first 9 plies).

Game kinds.
  Xiangqi random: uniform random legal moves from the start position
    (like judge_bench.py gen), max 300 plies.
  Xiangqi biased: games made to repeat.  Each game draws its own mix: an
    aggressor (red, black, or none) and a style (check, chase, mixed).  The
    aggressor prefers checking moves, or moves after which the moved piece
    newly attacks an unprotected enemy piece (or a rook, by a horse or cannon;
    a rough AXF chase), keeps to one kind, and takes the reverse of its own
    previous move among those when it can.  The other side (both sides when
    there is no aggressor) replays the reverse of its own previous move with
    probability p_rev (0.6-0.93) when legal, else prefers checks / attacks /
    random moves.  A third of the games start from the start position after
    0-40 random plies, two thirds from simplified positions (start position
    with random pieces removed, kings kept, the aggressor keeping more, valid
    per pyffish; black to move in a third of them).
  Xiangqi real: main lines of ccpd-sample.expected.tsv and xqf-expected.tsv in
    /work/shared/data/records (--records).
  Chess random: uniform random legal moves from the start, max 300 plies,
    stop at the first ply where outcome(claim_draw=True) is not None.
  Chess biased: knight/king/rook shuffles (reverse of own previous move with
    probability p_rev, else a quiet knight/king/rook move, else random) from
    the start after 0-30 random plies (4 in 8) or from the start position
    with random pieces removed (3 in 8); 1 in 8 "wander" from a position
    without pawns with quiet knight/king/rook moves and no reversal bias
    (these reach the seventy-five-move rule).  Even-numbered games stop at the
    first claimable end, odd-numbered ones play on until
    outcome(claim_draw=False) ends the game (fivefold repetition,
    seventy-five moves ...) or 300 plies.
  Chess real: the 438 main lines of lichess-2025-05-sample.pgn, every ply.
  python-chess is asked outcome(claim_draw=False) at every ply; the
  claim_draw=True call (slow: it tries every legal move) is made whenever a
  claim is possible at all (halfmove clock >= 99, or some position since the
  last pawn move/capture occurred twice) -- elsewhere it equals the first
  call.  Every 10th generated game and every lichess game is also checked
  with the plain outcome(claim_draw=True) call at every ply.

Run from the repository root (needs `pip install pyffish chess`, tested with
pyffish 0.0.90 and python-chess 1.11.2; takes about 14 minutes on 2 cores and
writes about 6 MB per file, nearly all of it the random games' moves):

    python3 tools/judge_oracle.py

which is the same as

    python3 tools/judge_oracle.py --out crates/judge/tests/data --seed 1 \\
        --xq-random 10000 --xq-biased 6000 --chess-random 10000 --chess-biased 2000 \\
        --records /work/shared/data/records --jobs 2

Other modes (no files written):
    python3 tools/judge_oracle.py --selftest [N]   # our Xiangqi move generator vs
        # crates/xiangqi/tests/data/fsf-{games,positions}.tsv.gz
        # (first N games and 50 N positions; all without N)
    python3 tools/judge_oracle.py --audit N [--audit-records]
        # consult pyffish at EVERY ply of N random and N biased Xiangqi games
        # (and of the real games); fail if pyffish ends a game at a ply that is
        # not one of our consultation plies
"""

import argparse
import collections
import gzip
import os
import random
import sys
import time

XQ_VARIANT = "xiangqi"
XQ_START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
MAX_PLIES = 300
FILES = "abcdefghi"

# ---------------------------------------------------------------------------
# Xiangqi board and move generator (independent of pyffish; checked against it)
#
# Square index = rank * 9 + file, rank 0 = red's back rank (ICCS).  Board: a
# list of 90 one-character strings, "." for empty, uppercase red, lowercase
# black (K king, A advisor, B elephant, N horse, R rook, C cannon, P pawn).

NAME = [FILES[s % 9] + str(s // 9) for s in range(90)]
SQ = {n: i for i, n in enumerate(NAME)}


def _on(f, r):
    return 0 <= f < 9 and 0 <= r < 10


def _build_tables():
    rays = []
    for s in range(90):
        f, r = s % 9, s // 9
        rs = []
        for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            ray, ff, rr = [], f + df, r + dr
            while _on(ff, rr):
                ray.append(rr * 9 + ff)
                ff += df
                rr += dr
            rs.append(ray)
        rays.append(rs)
    horse = []  # horse on s: (target, leg)
    for s in range(90):
        f, r = s % 9, s // 9
        out = []
        for df, dr in ((1, 2), (-1, 2), (1, -2), (-1, -2), (2, 1), (2, -1), (-2, 1), (-2, -1)):
            if _on(f + df, r + dr):
                leg = (r + (dr // 2 if abs(dr) == 2 else 0)) * 9 + f + (df // 2 if abs(df) == 2 else 0)
                out.append(((r + dr) * 9 + f + df, leg))
        horse.append(out)
    horse_to = [[] for _ in range(90)]  # square t: horses (source, leg) that attack t
    for s in range(90):
        for t, leg in horse[s]:
            horse_to[t].append((s, leg))

    def palace(s, red):
        f, r = s % 9, s // 9
        return 3 <= f <= 5 and ((0 <= r <= 2) if red else (7 <= r <= 9))

    king, advisor, elephant, pawn = {}, {}, {}, {}
    for red in (True, False):
        for s in range(90):
            f, r = s % 9, s // 9
            king[red, s] = [(r + dr) * 9 + f + df for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1))
                            if _on(f + df, r + dr) and palace((r + dr) * 9 + f + df, red)]
            advisor[red, s] = [(r + dr) * 9 + f + df for df, dr in ((1, 1), (-1, 1), (1, -1), (-1, -1))
                               if _on(f + df, r + dr) and palace((r + dr) * 9 + f + df, red)]
            el = []
            for df, dr in ((2, 2), (-2, 2), (2, -2), (-2, -2)):
                ff, rr = f + df, r + dr
                if _on(ff, rr) and ((rr <= 4) if red else (rr >= 5)):
                    el.append((rr * 9 + ff, (r + dr // 2) * 9 + f + df // 2))
            elephant[red, s] = el
            fwd = 1 if red else -1
            crossed = (r >= 5) if red else (r <= 4)
            pw = []
            if _on(f, r + fwd):
                pw.append((r + fwd) * 9 + f)
            if crossed:
                pw += [r * 9 + f + df for df in (1, -1) if _on(f + df, r)]
            pawn[red, s] = pw
    return rays, horse, horse_to, king, advisor, elephant, pawn


RAYS, HORSE, HORSE_TO, KING, ADVISOR, ELEPHANT, PAWN = _build_tables()


def is_red(p):
    return "A" <= p <= "Z"


def parse_xq_fen(fen):
    parts = fen.split()
    board = ["."] * 90
    for i, row in enumerate(parts[0].split("/")):
        r, f = 9 - i, 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            else:
                board[r * 9 + f] = ch
                f += 1
        assert f == 9, fen
    red = len(parts) < 2 or parts[1] in ("w", "r")
    half = int(parts[4]) if len(parts) > 4 else 0
    return board, red, half


def board_field(board):
    rows = []
    for r in range(9, -1, -1):
        s, e = "", 0
        for f in range(9):
            p = board[r * 9 + f]
            if p == ".":
                e += 1
            else:
                if e:
                    s += str(e)
                    e = 0
                s += p
        rows.append(s + (str(e) if e else ""))
    return "/".join(rows)


def xq_fen(board, red, half=0, full=1):
    return f"{board_field(board)} {'w' if red else 'b'} - - {half} {full}"


def attacked(board, s, by_red):
    """Is square s attacked by a piece of side by_red (the king counts as a rook: flying general)."""
    R, C, N, P, K = ("R", "C", "N", "P", "K") if by_red else ("r", "c", "n", "p", "k")
    for ray in RAYS[s]:
        screen = False
        for t in ray:
            p = board[t]
            if p == ".":
                continue
            if not screen:
                if p == R or p == K:
                    return True
                screen = True
            else:
                if p == C:
                    return True
                break
    for h, leg in HORSE_TO[s]:
        if board[h] == N and board[leg] == ".":
            return True
    f, r = s % 9, s // 9
    if by_red:
        if r >= 1 and board[s - 9] == P:
            return True
        if r >= 5:
            if f >= 1 and board[s - 1] == P:
                return True
            if f <= 7 and board[s + 1] == P:
                return True
    else:
        if r <= 8 and board[s + 9] == P:
            return True
        if r <= 4:
            if f >= 1 and board[s - 1] == P:
                return True
            if f <= 7 and board[s + 1] == P:
                return True
    return False


def piece_targets(board, s):
    """Pseudo-legal destination squares of the piece on s."""
    p = board[s]
    red = is_red(p)
    t = p.upper()
    out = []
    if t == "R" or t == "C":
        for ray in RAYS[s]:
            screen = False
            for x in ray:
                q = board[x]
                if not screen:
                    if q == ".":
                        out.append(x)
                        continue
                    if t == "R":
                        if is_red(q) != red:
                            out.append(x)
                        break
                    screen = True
                elif q != ".":
                    if is_red(q) != red:
                        out.append(x)
                    break
        return out
    if t == "N":
        cand = [x for x, leg in HORSE[s] if board[leg] == "."]
    elif t == "B":
        cand = [x for x, eye in ELEPHANT[red, s] if board[eye] == "."]
    elif t == "A":
        cand = ADVISOR[red, s]
    elif t == "K":
        cand = KING[red, s]
    else:
        cand = PAWN[red, s]
    for x in cand:
        q = board[x]
        if q == "." or is_red(q) != red:
            out.append(x)
    return out


def legal_moves(board, red):
    """Legal moves of the side to move, as (from, to) pairs."""
    ks = board.index("K" if red else "k")
    out = []
    for s in range(90):
        p = board[s]
        if p == "." or is_red(p) != red:
            continue
        for t in piece_targets(board, s):
            cap = board[t]
            board[t] = p
            board[s] = "."
            if not attacked(board, t if s == ks else ks, not red):
                out.append((s, t))
            board[s] = p
            board[t] = cap
    return out


def in_check(board, red):
    return attacked(board, board.index("K" if red else "k"), not red)


def iccs(m):
    return NAME[m[0]] + NAME[m[1]]


def iccs_to_fsf(m):
    return f"{m[0]}{int(m[1]) + 1}{m[2]}{int(m[3]) + 1}"


def fsf_to_iccs(m):
    i = 1
    while m[i].isdigit():
        i += 1
    return f"{m[0]}{int(m[1:i]) - 1}{m[i]}{int(m[i + 1:]) - 1}"


# ---------------------------------------------------------------------------
# Xiangqi: pyffish consultation and game replay


class XqOracleError(Exception):
    pass


def pyffish_verdict(sf, start, fsf_moves, red_to_move, mine):
    """Ask pyffish about the position after fsf_moves. Returns (verdict, call)."""
    lm = sf.legal_moves(XQ_VARIANT, start, fsf_moves)
    theirs = sorted(fsf_to_iccs(m) for m in lm)
    if theirs != mine:
        raise XqOracleError(f"legal moves differ after {len(fsf_moves)} plies of {start!r}: "
                            f"pyffish-only {sorted(set(theirs) - set(mine))} "
                            f"ours-only {sorted(set(mine) - set(theirs))}")
    if not lm:
        call, value = "nomoves", sf.game_result(XQ_VARIANT, start, fsf_moves)
    else:
        imm, value = sf.is_immediate_game_end(XQ_VARIANT, start, fsf_moves)
        if imm:
            call = "immediate"
        else:
            opt, value = sf.is_optional_game_end(XQ_VARIANT, start, fsf_moves)
            if not opt:
                return "none", None
            call = "optional"
    if value == 0:
        verdict = "draw"
    elif (value > 0) == red_to_move:
        verdict = "red"
    else:
        verdict = "black"
    return verdict, call


class XqGame:
    """Position tracking of one game: board, repetition window, counters."""

    def __init__(self, start_fen):
        self.start = start_fen
        self.board, self.red, self.half = parse_xq_fen(start_fen)
        self.moves = []       # ICCS
        self.fsf = []         # pyffish notation
        self.window = collections.Counter()
        self.window[self.key()] = 1
        self.reached3 = None  # first ply with a 3rd occurrence
        self.checks = []      # (ply, verdict, call)
        self.keys = [self.key()]                   # position key per ply
        self.in_check = [in_check(self.board, self.red)]  # side to move in check, per ply
        self.last_capture = 0                      # ply of the last capture

    def key(self):
        return ("".join(self.board), self.red)

    def legal(self):
        return sorted(iccs(m) for m in legal_moves(self.board, self.red))

    def push(self, m):
        s, t = SQ[m[:2]], SQ[m[2:]]
        p = self.board[s]
        assert p != "." and is_red(p) == self.red, m
        cap = self.board[t] != "."
        self.board[t] = p
        self.board[s] = "."
        self.red = not self.red
        self.moves.append(m)
        self.fsf.append(iccs_to_fsf(m))
        if cap:
            self.half = 0
            self.window.clear()
            self.last_capture = len(self.moves)
        else:
            self.half += 1
        k = self.key()
        self.keys.append(k)
        self.in_check.append(in_check(self.board, self.red))
        self.window[k] += 1
        if self.window[k] >= 3 and self.reached3 is None:
            self.reached3 = len(self.moves)

    def trigger(self, legal):
        """Could a judge end the game here?"""
        return self.window[self.key()] >= 3 or not legal or self.half >= 100

    def consult(self, sf, legal):
        v, call = pyffish_verdict(sf, self.start, self.fsf, self.red, legal)
        self.checks.append((len(self.moves), v, call))
        return v != "none"

    def repetition_kind(self):
        """For the summary: how the first verdict at a 3rd occurrence came about.

        `draw`, `check` (the loser gave check with every move since the first
        occurrence: perpetual check) or `other` (a win for another reason, under
        pyffish's AXF rules a perpetual chase).  None if no such verdict.
        """
        for ply, v, call in self.checks:
            k = self.keys[ply]
            occ = [i for i in range(self.last_capture_before(ply), ply + 1) if self.keys[i] == k]
            if len(occ) < 3 or v == "none" or call != "optional":
                continue
            if v == "draw":
                return "draw"
            loser_red = v == "black"
            # move i (to ply i) was made by red iff the side to move at ply i-1 was red
            mover_red = [None] + [self.keys[i - 1][1] for i in range(1, ply + 1)]
            span = [i for i in range(occ[0] + 1, ply + 1) if mover_red[i] == loser_red]
            return "check" if all(self.in_check[i] for i in span) else "other"
        return None

    def last_capture_before(self, ply):
        """First ply of the repetition window that contains ply."""
        start = 0
        b, _, _ = parse_xq_fen(self.start)
        count = sum(p != "." for p in b)
        for i in range(1, ply + 1):
            c = sum(p != "." for p in self.keys[i][0])
            if c < count:
                start, count = i, c
        return start

    def row(self, sf, gid, source):
        ins = sf.has_insufficient_material(XQ_VARIANT, self.start, self.fsf)
        checks = " ".join(f"{p}:{v}/{c}" if c else f"{p}:{v}" for p, v, c in self.checks)
        return "\t".join([gid, source, self.start, " ".join(self.moves), checks,
                          "".join("T" if x else "F" for x in ins)])


def play_xq(sf, start_fen, choose, max_plies=MAX_PLIES):
    """Play a generated game: choose(game, legal) picks the next move (ICCS)."""
    g = XqGame(start_fen)
    while True:
        legal = g.legal()
        n = len(g.moves)
        if g.trigger(legal) or n >= max_plies:
            if g.consult(sf, legal):
                break
        if n >= max_plies:
            break
        g.push(choose(g, legal))
    return g


def replay_xq(sf, start_fen, moves):
    """Replay a real game to its end (truncated at a move that is not legal)."""
    g = XqGame(start_fen)
    truncated = None
    for i in range(len(moves) + 1):
        legal = g.legal()
        last = i == len(moves)
        if not last and moves[i] not in legal:
            truncated = i
            last = True
        if g.trigger(legal) or last:
            g.consult(sf, legal)
        if last:
            break
        g.push(moves[i])
    return g, truncated


def random_chooser(rng):
    return lambda g, legal: rng.choice(legal)


def gives_check_or_attack(board, red, m):
    """(gives check, chases) for ICCS move m of side red.

    chases: a rough version of an AXF chase.  The moved piece (not a king or
    pawn) attacks, after the move and not before it, an enemy rook, horse,
    cannon, advisor, elephant or crossed pawn that is either a rook attacked by
    a horse or cannon, or that no enemy piece could recapture after the
    capture, and that could not capture the moved piece back if of the same
    type (pins and legality are ignored).
    """
    s, t = SQ[m[:2]], SQ[m[2:]]
    p, cap = board[s], board[t]
    board[t] = p
    board[s] = "."
    check = attacked(board, board.index("k" if red else "K"), red)
    chase = False
    if not check and p not in "KkPp":
        before = None
        for x in piece_targets(board, t):
            q = board[x]
            if q == "." or q in "Kk":
                continue
            if q in "Pp" and ((x // 9 <= 4) if is_red(q) else (x // 9 >= 5)):
                continue  # uncrossed pawn
            if before is None:
                board[s] = p
                board[t] = cap
                before = set(piece_targets(board, s))
                board[t] = p
                board[s] = "."
            if x in before:
                continue  # not a new attack
            if q.upper() == p.upper() and t in piece_targets(board, x):
                continue  # same type, can capture back: an exchange offer
            if q in "Rr" and p in "NnCc":
                chase = True
                break
            board[x] = p
            board[t] = "."
            protected = any(board[y] != "." and is_red(board[y]) != red and x in piece_targets(board, y)
                            for y in range(90))
            board[t] = p
            board[x] = q
            if not protected:
                chase = True
                break
    board[s] = p
    board[t] = cap
    return check, chase


def biased_chooser(rng, p_rev, p_check, p_attack, aggressor, idle_rev):
    """Repetition-seeking move choice.

    aggressor: True (red), False (black) or None.  The aggressor prefers checks
    (probability p_check) and moves after which the moved piece attacks an enemy
    piece (p_attack), taking the reverse of its own previous move among those
    when it can (probability p_rev), so that it checks or chases on every move of
    a cycle; it replays an idle reverse move only with probability
    p_rev * idle_rev.  The other side (both sides when aggressor is None, with p_check and
    p_attack scaled down) replays the reverse of its own previous move with
    probability p_rev, else prefers checks / attacks / random moves.
    """
    last_kind = [None]  # kind of the aggressor's last check/chase move

    def choose(g, legal):
        rev = None
        if len(g.moves) >= 2:
            prev = g.moves[-2]
            rev = prev[2:] + prev[:2]
            if rev not in legal:
                rev = None
        agg = g.red == aggressor
        pc, pa = (p_check, p_attack) if agg else (p_check / 3, p_attack / 3)
        if not agg and rev and rng.random() < p_rev:
            return rev
        r = rng.random()
        if r < pc + pa:
            checks, attacks = [], []
            for m in legal:
                c, a = gives_check_or_attack(g.board, g.red, m)
                if c:
                    checks.append(m)
                elif a:
                    attacks.append(m)
            first_checks = r < pc
            if agg and last_kind[0] is not None and rng.random() < 0.8:
                first_checks = last_kind[0] == "check"  # keep to one kind: perpetual check or chase
            for kind, pool in ((("check", checks), ("chase", attacks)) if first_checks
                               else (("chase", attacks), ("check", checks))):
                if pool:
                    if agg:
                        last_kind[0] = kind
                        if rev in pool and rng.random() < p_rev:
                            return rev
                    return rng.choice(pool)
        if agg and rev and rng.random() < p_rev * idle_rev:
            return rev
        return rng.choice(legal)
    return choose


def simplified_start(sf, rng, keep_red, keep_black, red_to_move, strong=None):
    """Start position with random non-king pieces removed, valid per pyffish.

    strong: None, or the side (True = red) that must keep a rook or two of
    rook/horse/cannon.
    """
    base, _, _ = parse_xq_fen(XQ_START)
    while True:
        board = [p if p in ".Kk" or rng.random() < (keep_red if is_red(p) else keep_black) else "."
                 for p in base]
        if board == base:
            continue
        if strong is not None:
            mine = [p.upper() for p in board if p != "." and is_red(p) == strong]
            if "R" not in mine and sum(p in "RNC" for p in mine) < 2:
                continue
        if in_check(board, not red_to_move):
            continue  # side not to move in check (includes facing kings)
        if not legal_moves(board, red_to_move):
            continue
        fen = xq_fen(board, red_to_move)
        if sf.validate_fen(fen, XQ_VARIANT) != 1:
            continue
        return fen


def xq_task(args):
    import pyffish as sf
    kind, idx, seed = args[:3]
    if kind == "random":
        rng = random.Random(f"{seed}:xq-random:{idx}")
        g = play_xq(sf, XQ_START, random_chooser(rng))
        return g.row(sf, f"random-{idx}", "random"), g.reached3, None, g.repetition_kind()
    if kind == "biased":
        rng = random.Random(f"{seed}:xq-biased:{idx}")
        p_rev = rng.choice((0.6, 0.75, 0.85, 0.93))
        aggressor = rng.choice((True, True, False, False, None))
        idle_rev = rng.choice((0.0, 0.1, 0.3))
        style = rng.choice(("check", "chase", "mixed"))
        if aggressor is None or style == "mixed":
            p_check = rng.choice((0.25, 0.5, 0.8))
            p_attack = rng.choice((0.3, 0.6, 0.9)) * (1 - p_check)
        elif style == "check":
            p_check, p_attack = 0.97, 0.02
        else:
            p_check, p_attack = 0.0, 0.97
        if idx % 3 == 0:
            g0 = XqGame(XQ_START)
            for _ in range(rng.randrange(41)):
                legal = g0.legal()
                if not legal:
                    break
                g0.push(rng.choice(legal))
            start = xq_fen(g0.board, g0.red, 0)
        else:
            keep = rng.choice((0.15, 0.25, 0.4, 0.6))
            keep_red = keep_black = keep
            if aggressor is not None:  # the aggressor keeps more pieces
                k1 = rng.choice((0.3, 0.5, 0.7))
                k2 = rng.choice((0.05, 0.15, 0.3) if style == "check" else (0.2, 0.35, 0.5))
                keep_red, keep_black = (k1, k2) if aggressor else (k2, k1)
            start = simplified_start(sf, rng, keep_red, keep_black, rng.random() >= 1 / 3, aggressor)
        g = play_xq(sf, start, biased_chooser(rng, p_rev, p_check, p_attack, aggressor, idle_rev))
        return g.row(sf, f"biased-{idx}", "biased"), g.reached3, None, g.repetition_kind()
    gid, source, start, moves = args[1], args[2], args[3], args[4]
    g, truncated = replay_xq(sf, start, moves)
    return g.row(sf, gid, source), g.reached3, truncated, g.repetition_kind()


def audit_task(args):
    """Consult pyffish at every ply of one game; report off-trigger game ends."""
    import pyffish as sf
    # regenerate the game exactly as xq_task does, then walk it ply by ply
    row = xq_task(args)[0].split("\t")
    start, moves = row[2], row[3].split()
    g = XqGame(start)
    bad, calls = [], 0
    for i in range(len(moves) + 1):
        legal = g.legal()
        trig = g.trigger(legal) or i == len(moves)
        v, call = pyffish_verdict(sf, start, g.fsf, g.red, legal)
        calls += 1
        if v != "none" and not trig:
            bad.append(f"{row[0]} ply {i}: {v}/{call}")
        if i < len(moves):
            g.push(moves[i])
    return bad, calls


# ---------------------------------------------------------------------------
# Chess (python-chess)


def chess_outcomes(board, window):
    """(outcome(claim_draw=False), outcome(claim_draw=True)) of the board.

    window: Counter of (board_fen, turn) since the last pawn move or capture,
    current position included.  A threefold claim needs a position that occurred
    twice in python-chess's window (which is never larger), a fifty-move claim a
    halfmove clock >= 99: without either, the claim call equals the plain one.
    """
    o1 = board.outcome(claim_draw=False)
    if o1 is not None:
        return o1, o1
    if board.halfmove_clock >= 99 or max(window.values()) >= 2:
        return None, board.outcome(claim_draw=True)
    return None, None


def chess_event(ply, o1, o2):
    o = o1 or o2
    winner = "draw" if o.winner is None else ("white" if o.winner else "black")
    return f"{ply}:{o.termination.name.lower()}:{winner}:{'auto' if o1 else 'claim'}"


def play_chess(start_fen, moves=None, choose=None, stop="claim", verify=False):
    """Generated game (choose) or replay (moves). Returns (uci moves, events)."""
    import chess
    board = chess.Board(start_fen)
    window = collections.Counter()
    window[(board.board_fen(), board.turn)] = 1
    played, events = [], []
    i = 0
    while True:
        o1, o2 = chess_outcomes(board, window)
        if verify:
            a, b = board.outcome(claim_draw=False), board.outcome(claim_draw=True)
            assert (a, b) == (o1, o2), (start_fen, played, a, b, o1, o2)
        if o1 or o2:
            events.append(chess_event(i, o1, o2))
        if moves is not None:
            if i == len(moves):
                break
            m = board.parse_uci(moves[i])
        else:
            if (stop == "claim" and o2) or o1 or i >= MAX_PLIES:
                break
            m = choose(board, played)
        if board.is_zeroing(m):
            window.clear()
        board.push(m)
        window[(board.board_fen(), board.turn)] += 1
        played.append(m.uci())
        i += 1
    return played, events


def chess_sorted_legal(board):
    return sorted(board.legal_moves, key=lambda m: m.uci())


def chess_random_start(rng, keep, pawns=True):
    import chess
    base = chess.Board()
    while True:
        b = chess.Board(None)
        for s, p in base.piece_map().items():
            if p.piece_type == chess.KING or (rng.random() < keep and (pawns or p.piece_type != chess.PAWN)):
                b.set_piece_at(s, p)
        b.turn = rng.random() < 0.5
        b.castling_rights = b.clean_castling_rights()
        if b.is_valid() and any(b.legal_moves) and b.outcome() is None:
            return b.fen()


def chess_task(args):
    import chess
    kind, idx, seed = args[:3]
    if kind == "random":
        rng = random.Random(f"{seed}:chess-random:{idx}")
        played, events = play_chess(chess.STARTING_FEN,
                                    choose=lambda b, p: rng.choice(chess_sorted_legal(b)),
                                    verify=idx % 10 == 0)
        return "\t".join([f"random-{idx}", "random", chess.STARTING_FEN, " ".join(played),
                          " ".join(events)])
    if kind == "biased":
        rng = random.Random(f"{seed}:chess-biased:{idx}")
        p_rev = rng.choice((0.6, 0.8, 0.9))
        p_shuffle = rng.choice((0.5, 0.8, 0.95))
        stop = "claim" if idx % 2 == 0 else "auto"
        if idx % 8 == 7:  # wander: no pawns, quiet piece moves, no reversal bias (seventy-five moves)
            p_rev, p_shuffle = 0.0, 0.97
            start = chess_random_start(rng, rng.choice((0.2, 0.35, 0.5)), pawns=False)
        elif idx % 8 < 4:
            b = chess.Board()
            for _ in range(rng.randrange(31)):
                legal = chess_sorted_legal(b)
                if not legal or b.outcome(claim_draw=True):
                    break
                b.push(rng.choice(legal))
            start = b.fen()
            if b.outcome(claim_draw=True) or not any(b.legal_moves):
                start = chess.STARTING_FEN
        else:
            start = chess_random_start(rng, rng.choice((0.2, 0.35, 0.5)))

        def choose(board, played):
            legal = chess_sorted_legal(board)
            if len(played) >= 2 and rng.random() < p_rev:
                prev = played[-2]
                rev = chess.Move.from_uci(prev[2:4] + prev[0:2])
                if rev in legal:
                    return rev
            if rng.random() < p_shuffle:
                quiet = [m for m in legal
                         if board.piece_type_at(m.from_square) in (chess.KNIGHT, chess.KING, chess.ROOK)
                         and not board.is_capture(m)]
                if quiet:
                    return rng.choice(quiet)
            return rng.choice(legal)

        played, events = play_chess(start, choose=choose, stop=stop, verify=idx % 10 == 0)
        return "\t".join([f"biased-{idx}", "biased", start, " ".join(played), " ".join(events)])
    gid, start, moves = args[1], args[3], args[4]
    played, events = play_chess(start, moves=moves, verify=True)
    return "\t".join([gid, "lichess", start, " ".join(played), " ".join(events)])


# ---------------------------------------------------------------------------
# Inputs and output


def read_xq_records(root):
    games = []
    p = os.path.join(root, "xiangqi-ccpd", "ccpd-sample.expected.tsv")
    with open(p, encoding="utf-8") as fh:
        head = fh.readline().rstrip("\n").split("\t")
        for line in fh:
            r = dict(zip(head, line.rstrip("\n").split("\t")))
            games.append((f"ccpd-{r['n']}", "ccpd", r["start_fen"], r["iccs_moves"].split()))
    p = os.path.join(root, "xiangqi-xqf", "xqf-expected.tsv")
    with open(p, encoding="utf-8") as fh:
        head = fh.readline().rstrip("\n").split("\t")
        for line in fh:
            r = dict(zip(head, line.rstrip("\n").split("\t")))
            games.append((f"xqf-{r['file']}", "xqf", r["start_fen"], r["mainline_iccs_raw"].split()))
    return games


def read_chess_records(root):
    import chess.pgn
    games = []
    p = os.path.join(root, "chess-lichess", "lichess-2025-05-sample.pgn")
    with open(p, encoding="utf-8") as fh:
        n = 0
        while True:
            game = chess.pgn.read_game(fh)
            if game is None:
                break
            n += 1
            games.append((f"lichess-{n}", game.board().fen(), [m.uci() for m in game.mainline_moves()]))
    return games


def write_gz(path, comments, header, rows):
    tmp = path + ".tmp"
    with open(tmp, "wb") as raw:
        with gzip.GzipFile(filename="", mode="wb", compresslevel=9, fileobj=raw, mtime=0) as gz:
            text = "".join(f"# {c}\n" for c in comments) + "\t".join(header) + "\n"
            text += "".join(r + "\n" for r in rows)
            gz.write(text.encode("utf-8"))
    os.replace(tmp, path)


def pool_map(fn, tasks, jobs, label):
    t0 = time.time()
    out = []
    if jobs <= 1:
        it = map(fn, tasks)
        pool = None
    else:
        import multiprocessing
        pool = multiprocessing.get_context("fork").Pool(jobs)
        it = pool.imap(fn, tasks, chunksize=8)
    step = max(1, len(tasks) // 10)
    for i, r in enumerate(it, 1):
        out.append(r)
        if i % step == 0 or i == len(tasks):
            print(f"  {label}: {i}/{len(tasks)} ({time.time() - t0:.0f}s)", file=sys.stderr, flush=True)
    if pool:
        pool.close()
        pool.join()
    return out


def command_line(a):
    return (f"python3 tools/judge_oracle.py --out {a.out} --seed {a.seed} --xq-random {a.xq_random} "
            f"--xq-biased {a.xq_biased} --chess-random {a.chess_random} --chess-biased {a.chess_biased} "
            f"--records {a.records}")


def run_xiangqi(a):
    import pyffish as sf
    t0 = time.time()
    tasks = [("random", i, a.seed) for i in range(a.xq_random)]
    tasks += [("biased", i, a.seed) for i in range(a.xq_biased)]
    tasks += [(gid, gid, src, fen, moves) for gid, src, fen, moves in read_xq_records(a.records)]
    res = pool_map(xq_task, tasks, a.jobs, "xiangqi")
    rows = [r[0] for r in res]
    write_gz(os.path.join(a.out, "xiangqi-oracle.tsv.gz"),
             [f"generated by: {command_line(a)}",
              f"pyffish {'.'.join(map(str, sf.version()))} (Fairy-Stockfish), variant xiangqi; "
              "one game per line, see tools/judge_oracle.py for the columns"],
             ["id", "source", "start_fen", "moves", "checks", "has_insufficient"], rows)
    # summary
    per_src = collections.Counter()
    reached = collections.Counter()
    final = collections.Counter()
    kinds = collections.Counter()
    at3 = collections.Counter()
    calls = collections.Counter()
    trunc = []
    plies = 0
    repk = collections.Counter()
    for (row, r3, tr, rk), t in zip(res, tasks):
        f = row.split("\t")
        src = f[1]
        per_src[src] += 1
        plies += len(f[3].split()) if f[3] else 0
        if r3 is not None:
            reached[src] += 1
        entries = f[4].split()
        calls[src] += len(entries)
        for e in entries:
            kinds[src, e.split(":", 1)[1]] += 1
        last = entries[-1].split(":", 1)[1]
        final[src, last] += 1
        if r3 is not None:
            at = [e for e in entries if int(e.split(":")[0]) == r3]
            at3[src, at[0].split(":", 1)[1] if at else "?"] += 1
        if rk:
            repk[src, rk] += 1
        if tr is not None:
            trunc.append(f"{f[0]} at ply {tr}")
    print(f"xiangqi: {len(rows)} games, {plies} plies, {sum(calls.values())} consulted plies, "
          f"{time.time() - t0:.0f}s")
    for src in per_src:
        print(f"  {src}: {per_src[src]} games, {reached[src]} reached a 3rd occurrence, "
              f"{calls[src]} consulted plies")
        print("    final verdicts: " + ", ".join(f"{k[1]} {v}" for k, v in sorted(final.items()) if k[0] == src))
        print("    verdict at the first 3rd occurrence: "
              + ", ".join(f"{k[1]} {v}" for k, v in sorted(at3.items()) if k[0] == src))
        print("    first repetition verdict (optional, 3rd occurrence): "
              + ", ".join(f"{k[1]} {v}" for k, v in sorted(repk.items()) if k[0] == src)
              + "  [check = the loser checked on every move of the span]")
        print("    all consulted plies: " + ", ".join(f"{k[1]} {v}" for k, v in sorted(kinds.items()) if k[0] == src))
    if trunc:
        print("  truncated real games (illegal move): " + ", ".join(trunc))


def run_chess(a):
    import chess
    t0 = time.time()
    tasks = [("random", i, a.seed) for i in range(a.chess_random)]
    tasks += [("biased", i, a.seed) for i in range(a.chess_biased)]
    tasks += [("lichess", gid, a.seed, fen, moves) for gid, fen, moves in read_chess_records(a.records)]
    rows = pool_map(chess_task, tasks, a.jobs, "chess")
    write_gz(os.path.join(a.out, "chess-oracle.tsv.gz"),
             [f"generated by: {command_line(a)}",
              f"python-chess {chess.__version__}; one game per line, see tools/judge_oracle.py for the columns"],
             ["id", "source", "start_fen", "moves", "events"], rows)
    per_src, first, kinds = collections.Counter(), collections.Counter(), collections.Counter()
    plies = 0
    for row in rows:
        f = row.split("\t")
        per_src[f[1]] += 1
        plies += len(f[3].split()) if f[3] else 0
        ev = f[4].split()
        first[f[1], ev[0].split(":", 1)[1] if ev else "none"] += 1
        for e in ev:
            kinds[f[1], e.split(":", 1)[1]] += 1
    print(f"chess: {len(rows)} games, {plies} plies, {time.time() - t0:.0f}s")
    for src in per_src:
        print(f"  {src}: {per_src[src]} games")
        print("    first event: " + ", ".join(f"{k[1]} {v}" for k, v in sorted(first.items()) if k[0] == src))
        print("    all events: " + ", ".join(f"{k[1]} {v}" for k, v in sorted(kinds.items()) if k[0] == src))


def fnv1a32(data):
    h = 2166136261
    for b in data:
        h = ((h ^ b) * 16777619) & 0xFFFFFFFF
    return h


def signature(moves):
    return f"{len(moves)}:{fnv1a32(' '.join(sorted(moves)).encode()):08x}"


def selftest(a):
    d = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "crates", "xiangqi", "tests", "data")
    n = bad = 0
    with gzip.open(os.path.join(d, "fsf-games.tsv.gz"), "rt") as fh:
        for i, line in enumerate(l for l in fh if not l.startswith("#")):
            if a.selftest and i >= a.selftest:
                break
            fen, moves, sigs = line.rstrip("\n").split("\t")
            g = XqGame(fen)
            moves, sigs = moves.split(), sigs.split()
            for j, sig in enumerate(sigs):
                n += 1
                legal = g.legal()
                if signature(legal) != sig:
                    bad += 1
                    print(f"MISMATCH game {i} ply {j}: {xq_fen(g.board, g.red)}", file=sys.stderr)
                if j < len(moves):
                    g.push(moves[j])
    with gzip.open(os.path.join(d, "fsf-positions.tsv.gz"), "rt") as fh:
        for i, line in enumerate(l for l in fh if not l.startswith("#")):
            if a.selftest and i >= a.selftest * 50:
                break
            fen, sig = line.rstrip("\n").split("\t")
            board, red, _ = parse_xq_fen(fen)
            n += 1
            if signature([iccs(m) for m in legal_moves(board, red)]) != sig:
                bad += 1
                print(f"MISMATCH position {fen}", file=sys.stderr)
    print(f"selftest: {n} positions, {bad} mismatches")
    return 1 if bad else 0


def audit(a):
    tasks = [("random", i, a.seed) for i in range(a.audit)] + [("biased", i, a.seed) for i in range(a.audit)]
    if a.audit_records:
        tasks += [(gid, gid, src, fen, moves) for gid, src, fen, moves in read_xq_records(a.records)]
    res = pool_map(audit_task, tasks, a.jobs, "audit")
    bad = [b for r in res for b in r[0]]
    print(f"audit: {len(tasks)} games, {sum(r[1] for r in res)} pyffish consultations, "
          f"{len(bad)} game ends off our trigger plies")
    for b in bad[:50]:
        print("  " + b)
    return 1 if bad else 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default="crates/judge/tests/data")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--xq-random", type=int, default=10000)
    ap.add_argument("--xq-biased", type=int, default=6000)
    ap.add_argument("--chess-random", type=int, default=10000)
    ap.add_argument("--chess-biased", type=int, default=2000)
    ap.add_argument("--records", default="/work/shared/data/records")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", choices=["xiangqi", "chess"])
    ap.add_argument("--selftest", type=int, nargs="?", const=0, default=None,
                    help="check the Python move generator against the FSF move fixtures and exit")
    ap.add_argument("--audit", type=int, default=None,
                    help="consult pyffish at every ply of N random and N biased games and exit")
    ap.add_argument("--audit-records", action="store_true",
                    help="with --audit: also every ply of the real Xiangqi games")
    a = ap.parse_args(argv)
    if a.selftest is not None:
        return selftest(a)
    if a.audit is not None:
        return audit(a)
    t0 = time.time()
    os.makedirs(a.out, exist_ok=True)
    if a.only != "chess":
        run_xiangqi(a)
    if a.only != "xiangqi":
        run_chess(a)
    print(f"total {time.time() - t0:.0f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
