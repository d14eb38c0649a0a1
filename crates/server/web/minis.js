// The current round's boards, small, following their games' streams as the game page does: the
// event page shows them all live. A browser opens at most six connections to a server over
// HTTP/1.1, and the event's stream and the page's own requests need theirs: so only the first
// few boards hold a stream, and the others are read in turn, a snapshot each (the stream's first
// line) every few seconds, until a stream frees up as a game ends. A board stays while its game
// is among those shown; one that leaves the list has its connection closed.

/// Streams held at once by the boards.
const STREAMS = 3;
/// Pause between two rounds of snapshots of the boards without a stream.
const POLL_MS = 3000;

import { readLines } from "./api.js";
import { Board } from "./board.js";
import { reasonName, sideName, t } from "./i18n.js";

class Mini {
  /// `eventId`: the event the game is of, if any (its page is linked from the game's).
  constructor(host, gameId, eventId) {
    this.id = gameId;
    this.root = document.createElement("figure");
    this.root.className = "mini";
    this.root.dataset.game = gameId;
    this.names = document.createElement("figcaption");
    this.boardHost = document.createElement("a");
    this.boardHost.href = eventId ? `/game/${gameId}#watch&event=${eventId}` : `/game/${gameId}#watch`;
    this.boardHost.className = "mini-board";
    this.status = document.createElement("p");
    this.status.className = "mini-status";
    this.root.append(this.names, this.boardHost, this.status);
    host.appendChild(this.root);
    this.board = new Board(this.boardHost, () => {});
    this.game = { kind: "xiangqi", fen: "", moves: [], status: "created", version: -1 };
    this.abort = new AbortController();
    this.mode = null;
  }

  /// "stream", "poll", or "done" (the game is over or the board gone); shown on the board's
  /// element for whoever inspects the page.
  set mode(m) {
    this._mode = m;
    this.root.dataset.mode = m || "";
  }

  get mode() {
    return this._mode;
  }

  /// `decided`: the pairing's result when the event has one while the game still runs (the
  /// organiser entered it), else "".
  label(first, second, decided) {
    this.names.textContent = `${first} – ${second}`;
    this.decided = decided;
  }

  onLine(ev) {
    const g = this.game;
    if (ev.version !== undefined) g.version = ev.version;
    if (ev.type === "gameFull") g.kind = ev.kind || g.kind;
    const st = ev.type === "gameFull" ? ev.state || ev : ev.type === "gameState" ? ev : null;
    if (!st) return;
    if (st.fen) g.fen = st.fen;
    if (st.moves !== undefined) g.moves = typeof st.moves === "string" ? st.moves.split(" ").filter(Boolean) : st.moves;
    g.status = st.status || g.status;
    g.winner = st.winner;
    g.reason = st.reason || "";
    this.draw();
  }

  draw() {
    const g = this.game;
    if (!g.fen) return;
    this.board.render({
      kind: g.kind,
      fen: g.fen,
      flipped: false,
      lastMove: g.moves.length ? g.moves[g.moves.length - 1] : null,
      check: null,
      legal: [],
      first: g.kind === "xiangqi" ? "red" : "white",
      letters: false,
      mySide: null,
      canMove: false,
    });
    const live = g.status === "started" || g.status === "created";
    this.root.classList.toggle("over", !live);
    if (live && this.decided) {
      this.status.textContent = t("resultEntered", { score: this.decided });
    } else if (live) {
      this.status.textContent = g.moves.length === 1 ? t("oneMove") : t("nMoves", { n: g.moves.length });
    } else {
      const outcome = g.winner ? t("wins", { side: sideName(g.winner) }) : g.status === "aborted" ? t("aborted") : t("draw");
      this.status.textContent = g.status === "aborted" && g.reason !== "called_off" ? outcome : `${outcome} (${reasonName(g.reason || g.status, g.kind)})`;
    }
  }

  redraw() {
    this.draw();
  }

  get live() {
    return this.game.status === "started" || this.game.status === "created";
  }

  // NDJSON lines of `res` to `onLine` until it ends, or only the first when `once`.
  async read(res, once) {
    await readLines(res, (line) => {
      this.onLine(line);
      return once;
    });
  }

  /// Follows the game's stream until it ends with the game (or the board goes).
  async follow() {
    while (!this.abort.signal.aborted && this.live) {
      try {
        const since = this.game.version >= 0 ? `?since=${this.game.version}` : "";
        const res = await fetch(`/api/board/game/stream/${this.id}${since}`, { signal: this.abort.signal });
        if (!res.ok) throw new Error(`${res.status}`);
        await this.read(res, false);
      } catch {
        // Dropped: tried again below while the game goes on.
      }
      if (this.abort.signal.aborted || !this.live) return;
      await new Promise((r) => setTimeout(r, 1000));
    }
  }

  /// The game as it is now: the stream's first line, then the connection closed.
  async snapshot() {
    try {
      const res = await fetch(`/api/board/game/stream/${this.id}`, { signal: this.abort.signal });
      if (res.ok) await this.read(res, true);
    } catch {
      // Tried again on the next round.
    }
  }

  close() {
    this.mode = "done";
    this.abort.abort();
    this.root.remove();
  }
}

export class MiniBoards {
  constructor(host, eventId) {
    this.host = host;
    this.eventId = eventId;
    this.boards = new Map();
    this.streams = 0;
    this.polling = false;
  }

  /// One board per pairing: the pairing's latest game (a match's next game replaces the last).
  /// `scoreOf(pairing)` is its result when decided.
  show(pairings, who, scoreOf, boards = 0) {
    const name = (n) => (n == null ? t("bye") : who.get(n) || `#${n}`);
    const games = pairings.flatMap((p) => {
      const latest = p.liveGames.reduce((a, b) => (b.game > a.game ? b : a));
      // A team pairing is played on all its boards at once: every board of the match (or
      // play-off match) now played, board 1 first.
      const shown = boards
        ? p.liveGames
            .filter((g) => Math.ceil(g.game / boards) === Math.ceil(latest.game / boards))
            .sort((x, y) => x.game - y.game)
        : [latest];
      return shown.map((g) => {
        // The first-named has red (white) in odd games (boards).
        const [a, b] = g.game % 2 === 1 ? [p.first, p.second] : [p.second, p.first];
        const board = boards ? ` · ${t("boardN", { n: ((g.game - 1) % boards) + 1 })}` : "";
        return { id: g.id, first: name(a), second: name(b) + board, decided: p.verdict === "pending" ? "" : scoreOf(p) };
      });
    });
    this.showGames(games);
  }

  /// One board per game of `games` (`{id, first, second, decided}`, in order): boards of games
  /// no longer listed go.
  showGames(games) {
    const wanted = new Map(games.map((g) => [g.id, g]));
    for (const [id, mini] of this.boards) {
      if (!wanted.has(id)) {
        mini.close();
        this.boards.delete(id);
      }
    }
    for (const [id, g] of wanted) {
      let mini = this.boards.get(id);
      if (!mini) {
        mini = new Mini(this.host, id, this.eventId);
        this.boards.set(id, mini);
      }
      mini.label(g.first, g.second, g.decided || "");
      mini.redraw();
    }
    this.assign();
  }

  // Streams to the first boards still live, within the budget; the rest are polled.
  assign() {
    for (const mini of this.boards.values()) {
      if (mini.mode === "stream" || mini.mode === "done") continue;
      if (this.streams < STREAMS) {
        mini.mode = "stream";
        this.streams += 1;
        mini.follow().finally(() => {
          this.streams -= 1;
          mini.mode = "done";
          this.assign();
        });
      } else {
        mini.mode = "poll";
      }
    }
    if (!this.polling && [...this.boards.values()].some((m) => m.mode === "poll")) this.poll();
  }

  async poll() {
    this.polling = true;
    for (;;) {
      const waiting = [...this.boards.values()].filter((m) => m.mode === "poll");
      if (!waiting.length) break;
      for (const mini of waiting) {
        if (mini.mode !== "poll") continue;
        await mini.snapshot();
        if (!mini.live) mini.mode = "done";
      }
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
    this.polling = false;
  }
}
