// The engine's analysis of a reviewed game: `POST /api/analyse` streams one JSON line a
// position (the start is ply 0), each kept here as it comes; the page redraws on every line,
// so the evaluations fill in while the server searches. Scores come from the first side's
// view (Red's, White's): `{cp}` or `{mate}`, positive when the first side stands better.

import { errorText, failure } from "./errors.js";
import { sideName, t } from "./i18n.js";

export class Analysis {
  constructor(onChange) {
    this.onChange = onChange;
    this.reset();
  }

  reset() {
    if (this.abort) this.abort.abort();
    this.abort = null;
    this.positions = [];
    this.total = 0;
    this.queued = 0;
    this.running = false;
    this.done = false;
    this.error = "";
    this.startedAt = 0;
    this.ms = 0;
  }

  /// Analyses the game from `fen` through `moves` (coordinates), replacing any analysis.
  async start(kind, fen, moves) {
    this.reset();
    const abort = new AbortController();
    this.abort = abort;
    this.running = true;
    this.total = moves.length + 1;
    this.onChange();
    try {
      const res = await fetch("/api/analyse", {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/x-ndjson" },
        body: JSON.stringify({ kind, fen, moves: moves.join(" ") }),
        signal: abort.signal,
      });
      if (!res.ok) {
        const text = await res.text();
        let data;
        try {
          data = JSON.parse(text);
        } catch {
          data = { error: text };
        }
        throw failure(res, data);
      }
      const reader = res.body.getReader();
      const decoder = new TextDecoder();
      let buf = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buf += decoder.decode(value, { stream: true });
        let end;
        while ((end = buf.indexOf("\n")) >= 0) {
          const line = buf.slice(0, end).trim();
          buf = buf.slice(end + 1);
          if (line) this.take(JSON.parse(line));
        }
      }
    } catch (e) {
      if (abort.signal.aborted) return;
      // The server's refusals in the page's language.
      this.error = await errorText(e);
      if (abort.signal.aborted) return;
    }
    if (this.abort !== abort) return;
    // A stream that ended without its last line was cut (the server stopped, the network).
    if (!this.done && !this.error) this.error = t("analysisCut");
    this.running = false;
    this.onChange();
  }

  take(line) {
    if (line.error) {
      this.error = line.error;
      // In the page's language once its sentences are at hand.
      const failed = Object.assign(new Error(line.error), { why: line.why, args: line.args });
      errorText(failed).then((text) => {
        if (this.error !== line.error) return;
        this.error = text;
        this.onChange();
      });
    } else if (line.done) {
      this.done = true;
    } else if (line.positions !== undefined) {
      this.total = line.positions;
      this.queued = line.queued;
    } else if (line.queued !== undefined) {
      this.queued = line.queued;
    } else if (line.ply !== undefined) {
      if (!this.startedAt) this.startedAt = performance.now();
      this.queued = 0;
      this.positions[line.ply] = line;
      const done = this.positions.filter(Boolean).length;
      if (done > 1) this.ms = Math.round((performance.now() - this.startedAt) / (done - 1));
    }
    this.onChange();
  }

  /// The status line: waiting, progress, done or why it stopped.
  status() {
    const done = this.positions.filter(Boolean).length;
    if (this.error) return t("analysisFailed", { text: this.error });
    if (this.running && this.queued) return t("analysisQueued", { n: this.queued });
    if (this.running) return t("analysing", { done, n: this.total });
    if (done) return t("analysed", { n: done, ms: this.ms });
    return "";
  }
}

const firstSide = (kind) => (kind === "xiangqi" ? "red" : "white");
// Black in both games.
const secondSide = () => "black";

/// Whose move it is after `ply` plies, from the start position's side to move.
function toMove(kind, startFen, ply) {
  const firstMoves = startFen.split(" ")[1] !== "b";
  return (ply % 2 === 0) === firstMoves ? firstSide(kind) : secondSide(kind);
}

/// A score in a few characters, for the move list: `+0.4`, `#3` (the first side mates),
/// `#-3` (the second side does), `#` (over).
export function shortScore(p) {
  if (!p) return "";
  if (p.over) return "#";
  if (!p.score) return "?";
  if (p.score.mate !== undefined) return `#${p.score.mate}`;
  const v = p.score.cp / 100;
  return `${v > 0 ? "+" : ""}${v.toFixed(1)}`;
}

/// The score in words, for the current position.
export function longScore(p, kind, startFen) {
  if (!p) return t("evalNone");
  if (p.over) return t("evalOver", { side: sideName(toMove(kind, startFen, p.ply)) });
  if (!p.score) return "?";
  if (p.score.mate !== undefined) {
    const side = p.score.mate > 0 ? firstSide(kind) : secondSide(kind);
    return t("evalMates", { side: sideName(side), n: Math.abs(p.score.mate) });
  }
  return shortScore(p);
}

/// The first side's share of the evaluation bar, 0 to 1: a pawn or so is a clear edge.
export function barShare(p, kind, startFen) {
  if (!p) return 0.5;
  if (p.over) return toMove(kind, startFen, p.ply) === firstSide(kind) ? 0 : 1;
  if (!p.score) return 0.5;
  if (p.score.mate !== undefined) return p.score.mate > 0 ? 1 : 0;
  return 1 / (1 + Math.exp(-p.score.cp / 250));
}
