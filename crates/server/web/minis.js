// The current round's boards, small, following their games live as the game page does: the
// event page shows them all live. Each board watches its game over the game's socket, which
// takes none of the six connections a browser opens to a server over HTTP/1.1 (shared by all
// its tabs: NDJSON streams, one a board, starved every other request once a few pages were
// open). Where sockets cannot open (a proxy without them), only the first few boards hold an
// HTTP stream, and the others are read in turn, a snapshot each (the stream's first line) every
// few seconds, until a stream frees up as a game ends. A board stays while its game is among
// those shown; one that leaves the list has its connection closed.

/// Streams held at once by the boards.
const STREAMS = 3;
/// Pause between two rounds of snapshots of the boards without a stream.
const POLL_MS = 3000;

import { readLines } from "./api.js";
import { Board } from "./board.js";
import { reasonName, sideName, t } from "./i18n.js";
import { GameSocket } from "./socket.js";

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

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

  /// "socket", "stream", "poll", or "done" (the game is over or the board gone); shown on the board's
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

  /// Follows the game over its socket, opened again after a drop, until the game ends (or the
  /// board goes); false if no socket ever opened, for the caller to fall back to the stream.
  async watch() {
    let opened = false;
    while (!this.abort.signal.aborted && this.live) {
      const held = await this.socketOnce();
      if (!held && !opened) return false;
      opened ||= held;
      if (this.abort.signal.aborted || !this.live) break;
      await sleep(1000);
    }
    return true;
  }

  // One socket, watching (a hello without a token), resumed after the version drawn; resolves
  // when it closes (true) or never opens (false). Closed by us once the game is over.
  socketOnce() {
    return new Promise((resolve) => {
      let socket = null;
      const stop = () => socket?.ws.close();
      const closed = (held) => {
        this.abort.signal.removeEventListener("abort", stop);
        resolve(held);
      };
      this.abort.signal.addEventListener("abort", stop);
      const since = this.game.version >= 0 ? this.game.version : null;
      const line = (ev) => {
        this.onLine(ev);
        if (!this.live) stop();
      };
      GameSocket.open(this.id, null, since, line, () => closed(true)).then(
        (s) => {
          socket = s;
          if (this.abort.signal.aborted) stop();
        },
        () => closed(false),
      );
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
      await sleep(1000);
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
    // Until a socket fails to open: then the boards share the HTTP streams' budget.
    this.sockets = typeof WebSocket === "function";
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

  // A socket to every board still live; without sockets, streams to the first boards within
  // the budget and the rest polled.
  assign() {
    for (const mini of this.boards.values()) {
      if (mini.mode === "socket" || mini.mode === "stream" || mini.mode === "done") continue;
      if (this.sockets) {
        mini.mode = "socket";
        mini.watch().then((held) => {
          if (held || mini.mode === "done") {
            mini.mode = "done";
            return;
          }
          this.sockets = false;
          mini.mode = null;
          this.assign();
        });
      } else if (this.streams < STREAMS) {
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
