// The current round's boards, small, each following its game's stream as the game page does:
// the event page shows them all live. A board stays (and keeps its stream) while its game is
// among those shown; a game that leaves the round's list has its stream closed.

import { Board } from "./board.js";
import { reasonName, sideName, t } from "./i18n.js";

class Mini {
  constructor(host, gameId) {
    this.id = gameId;
    this.root = document.createElement("figure");
    this.root.className = "mini";
    this.root.dataset.game = gameId;
    this.names = document.createElement("figcaption");
    this.boardHost = document.createElement("a");
    this.boardHost.href = `/game/${gameId}#watch`;
    this.boardHost.className = "mini-board";
    this.status = document.createElement("p");
    this.status.className = "mini-status";
    this.root.append(this.names, this.boardHost, this.status);
    host.appendChild(this.root);
    this.board = new Board(this.boardHost, () => {});
    this.game = { kind: "xiangqi", fen: "", moves: [], status: "created", version: -1 };
    this.abort = new AbortController();
    this.follow();
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
      this.status.textContent = t("nMoves", { n: g.moves.length });
    } else {
      const outcome = g.winner ? t("wins", { side: sideName(g.winner) }) : g.status === "aborted" ? t("aborted") : t("draw");
      this.status.textContent = g.status === "aborted" ? outcome : `${outcome} (${reasonName(g.reason || g.status, g.kind)})`;
    }
  }

  redraw() {
    this.draw();
  }

  async follow() {
    for (;;) {
      try {
        const since = this.game.version >= 0 ? `?since=${this.game.version}` : "";
        const res = await fetch(`/api/board/game/stream/${this.id}${since}`, { signal: this.abort.signal });
        if (!res.ok) throw new Error(`${res.status}`);
        const reader = res.body.getReader();
        const decoder = new TextDecoder();
        let buf = "";
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buf += decoder.decode(value, { stream: true });
          let nl;
          while ((nl = buf.indexOf("\n")) >= 0) {
            const line = buf.slice(0, nl).trim();
            buf = buf.slice(nl + 1);
            if (line) this.onLine(JSON.parse(line));
          }
        }
      } catch {
        if (this.abort.signal.aborted) return;
      }
      if (this.abort.signal.aborted) return;
      if (this.game.status !== "started" && this.game.status !== "created") return;
      await new Promise((r) => setTimeout(r, 1000));
    }
  }

  close() {
    this.abort.abort();
    this.root.remove();
  }
}

export class MiniBoards {
  constructor(host) {
    this.host = host;
    this.boards = new Map();
  }

  /// One board per pairing: the pairing's latest game (a match's next game replaces the last).
  show(pairings, who, scoreOf) {
    const wanted = new Map();
    for (const p of pairings) {
      const latest = p.liveGames.reduce((a, b) => (b.game > a.game ? b : a));
      wanted.set(latest.id, p);
    }
    for (const [id, mini] of this.boards) {
      if (!wanted.has(id)) {
        mini.close();
        this.boards.delete(id);
      }
    }
    for (const [id, p] of wanted) {
      let mini = this.boards.get(id);
      if (!mini) {
        mini = new Mini(this.host, id);
        this.boards.set(id, mini);
      }
      const name = (n) => (n == null ? t("bye") : who.get(n) || `#${n}`);
      // The first-named has red (white) in odd games.
      const game = p.liveGames.find((g) => g.id === id).game;
      const [a, b] = game % 2 === 1 ? [p.first, p.second] : [p.second, p.first];
      mini.label(name(a), name(b), p.verdict === "pending" ? "" : scoreOf(p));
      mini.redraw();
    }
  }
}
