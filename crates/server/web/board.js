// The boards, drawn in SVG: Xiangqi's 9×10 points with palace and river, chess's 8×8 squares.
// Pieces come from the FEN; moves are UCI (chess) or ICCS (Xiangqi) strings, which share one
// shape: from-square then to-square, files as letters from the left of the side at the bottom of
// the diagram (White/Red), ranks counted up from there (1–8 in chess, 0–9 in Xiangqi).

const SVG = "http://www.w3.org/2000/svg";

const XQ_NAMES = {
  K: "帥", A: "仕", B: "相", N: "傌", R: "俥", C: "炮", P: "兵",
  k: "將", a: "士", b: "象", n: "馬", r: "車", c: "砲", p: "卒",
};
// The same pieces in simplified characters (帅 for 帥, 马 for 傌 and 馬, 车 for 俥 and 車, 炮 for
// both cannons), as printed on most sets sold in the mainland.
const XQ_SIMPLIFIED = {
  K: "帅", A: "仕", B: "相", N: "马", R: "车", C: "炮", P: "兵",
  k: "将", a: "士", b: "象", n: "马", r: "车", c: "炮", p: "卒",
};

/// The characters Xiangqi pieces are drawn in, chosen on the page and kept in this browser:
/// `traditional` (the default) or `simplified`.
export function pieceScript() {
  return localStorage.getItem("pieces") === "simplified" ? "simplified" : "traditional";
}

export function setPieceScript(script) {
  localStorage.setItem("pieces", script === "simplified" ? "simplified" : "traditional");
}

const CHESS_NAMES = {
  K: "♔", Q: "♕", R: "♖", B: "♗", N: "♘", P: "♙",
  k: "♚", q: "♛", r: "♜", b: "♝", n: "♞", p: "♟",
};

function el(name, attrs, parent) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

// Geometry of each game: files, ranks, the first rank's number, and whether pieces stand on
// points (Xiangqi) or squares (chess).
export const GAMES = {
  xiangqi: { files: 9, ranks: 10, rank0: 0, points: true },
  chess: { files: 8, ranks: 8, rank0: 1, points: false },
};

/// Pieces of a FEN's board field: a map from square name to piece letter.
export function parseFen(kind, fen) {
  const g = GAMES[kind];
  const rows = fen.split(" ")[0].split("/");
  const pieces = {};
  rows.forEach((row, i) => {
    const rank = g.rank0 + g.ranks - 1 - i;
    let file = 0;
    for (const ch of row) {
      if (/[0-9]/.test(ch)) {
        file += Number(ch);
      } else {
        pieces[squareName(kind, file, rank)] = ch;
        file += 1;
      }
    }
  });
  return pieces;
}

export function squareName(kind, file, rank) {
  return String.fromCharCode(97 + file) + String(rank);
}

function squareXY(kind, sq, flipped) {
  const g = GAMES[kind];
  let file = sq.charCodeAt(0) - 97;
  let row = g.rank0 + g.ranks - 1 - Number(sq.slice(1));
  if (flipped) {
    file = g.files - 1 - file;
    row = g.ranks - 1 - row;
  }
  return [file, row];
}

// The square at screen column `file`, row `row` (0 at the top).
function screenSquare(kind, file, row, flipped) {
  const g = GAMES[kind];
  if (flipped) {
    file = g.files - 1 - file;
    row = g.ranks - 1 - row;
  }
  return squareName(kind, file, g.rank0 + g.ranks - 1 - row);
}

const ARROWS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

/// Height of the strips holding Xiangqi's file numbers, in cells.
const COORD_STRIP = 0.42;
const CHINESE_DIGITS = ["一", "二", "三", "四", "五", "六", "七", "八", "九"];

/// The files' names as each player reads them. Xiangqi numbers each side's files from its own
/// right: Red's 一 to 九 (Chinese numerals, as in 炮二平五) along Red's edge, Black's 1 to 9
/// along Black's, so the file Red calls 九 is the one Black calls 1. Chess: a–h along the
/// bottom rank, 1–8 up the left file, whichever side is at the bottom.
function drawCoordinates(svg, kind, flipped, cell, { margin, height, strip }) {
  const g = el("g", { class: "coords", "aria-hidden": "true" }, svg);
  const label = (x, y, text, anchor, baseline) => {
    const e = el("text", { x, y, "text-anchor": anchor, "dominant-baseline": baseline }, g);
    e.textContent = text;
    e.setAttribute("font-size", kind === "xiangqi" ? strip * 0.78 : cell * 0.2);
  };
  if (kind === "xiangqi") {
    for (let file = 0; file < 9; file++) {
      const x = margin + (flipped ? 8 - file : file) * cell;
      const red = CHINESE_DIGITS[8 - file];
      const black = String(file + 1);
      const [top, bottom] = flipped ? [red, black] : [black, red];
      label(x, -strip / 2, top, "middle", "central");
      label(x, height + strip / 2, bottom, "middle", "central");
    }
    return;
  }
  for (let i = 0; i < 8; i++) {
    const file = flipped ? 7 - i : i;
    label((i + 1) * cell - 3, 8 * cell - 4, String.fromCharCode(97 + file), "end", "auto");
    const rank = flipped ? i + 1 : 8 - i;
    label(3, i * cell + 3, String(rank), "start", "hanging");
  }
}

/// An arrow from point `a` to point `b` (its head short of `b`'s centre, over the piece there).
function drawArrow(parent, [x1, y1], [x2, y2], cell) {
  const len = Math.hypot(x2 - x1, y2 - y1) || 1;
  const [ux, uy] = [(x2 - x1) / len, (y2 - y1) / len];
  const head = cell * 0.32;
  const [bx, by] = [x2 - ux * cell * 0.18, y2 - uy * cell * 0.18];
  const [hx, hy] = [bx - ux * head, by - uy * head];
  const g = el("g", { class: "arrow", "aria-hidden": "true" }, parent);
  el("line", { x1: x1 + ux * cell * 0.2, y1: y1 + uy * cell * 0.2, x2: hx, y2: hy }, g);
  const w = head * 0.6;
  el("polygon", { points: `${bx},${by} ${hx - uy * w},${hy + ux * w} ${hx + uy * w},${hy - ux * w}` }, g);
}

/// A board in `host`: `state` = { kind, fen, flipped, lastMove, check, legal, letters,
/// pointLabel(square, piece), marked (squares), arrow (a move) }; `onMove(move)` is called with a UCI/ICCS string when the user
/// moves (click, drag, or the keyboard: the arrows walk the points, Enter or Space picks a piece
/// up and puts it down, Escape lets it go). Each point is a focusable element that a screen
/// reader names by its square and piece; one of them is in the tab order at a time.
/// While `state.premoving` (the opponent to move), a move of one's own piece to any other
/// square goes to `onPremove(move)` instead, shown as `state.premove`; a click elsewhere, a
/// right-click or Escape cancels it (`onPremove(null)`).
export class Board {
  constructor(host, onMove, onPremove) {
    this.host = host;
    this.onMove = onMove;
    this.onPremove = onPremove || null;
    this.selected = null;
    this.dragFrom = null;
    this.state = null;
    this.cursor = null;
  }

  render(state) {
    // A render replaces every point: the one the keyboard was on takes the focus back.
    const focused = this.host.contains(document.activeElement);
    // Away from the board, the keyboard comes back to where the game is (see startPoint).
    if (!focused) this.cursor = null;
    this.state = state;
    const { kind } = state;
    const g = GAMES[kind];
    const cell = 60;
    const margin = g.points ? cell / 2 : 0;
    const width = g.points ? cell * (g.files - 1) + 2 * margin : cell * g.files;
    const height = g.points ? cell * (g.ranks - 1) + 2 * margin : cell * g.ranks;
    // Xiangqi's file numbers go in strips above and below the points: the discs of the end
    // ranks fill the margin. Chess's letters and numbers sit in the squares' corners.
    const strip = g.points ? COORD_STRIP * cell : 0;
    this.host.innerHTML = "";
    const svg = el("svg", { viewBox: `0 ${-strip} ${width} ${height + 2 * strip}`, class: `board ${kind}`, role: "img" }, this.host);
    svg.setAttribute("aria-label", state.boardLabel || `${kind} board`);
    svg.setAttribute("role", "group");
    const centre = (sq) => {
      const [f, r] = squareXY(kind, sq, state.flipped);
      return g.points ? [margin + f * cell, margin + r * cell] : [f * cell + cell / 2, r * cell + cell / 2];
    };
    if (g.points) this.drawXiangqiGrid(svg, cell, margin);
    else this.drawChessSquares(svg, cell);
    drawCoordinates(svg, kind, state.flipped, cell, { margin, height, strip });

    const marks = el("g", {}, svg);
    const mark = (sq, cls) => {
      const [x, y] = centre(sq);
      if (g.points) el("circle", { cx: x, cy: y, r: cell * 0.46, class: cls }, marks);
      else el("rect", { x: x - cell / 2, y: y - cell / 2, width: cell, height: cell, class: cls }, marks);
    };
    if (state.lastMove) {
      mark(state.lastMove.slice(0, 2), "last");
      mark(state.lastMove.slice(2, 4), "last");
    }
    if (state.check) mark(state.check, "check");

    const pieces = parseFen(kind, state.fen);
    const layer = el("g", {}, svg);
    for (const [sq, p] of Object.entries(pieces)) {
      const [x, y] = centre(sq);
      const white = p === p.toUpperCase();
      const grp = el("g", { class: `piece ${white ? "white" : "black"}`, "data-square": sq, "data-piece": p }, layer);
      if (kind === "xiangqi") {
        el("circle", { cx: x, cy: y, r: cell * 0.43, class: "disc" }, grp);
        el("circle", { cx: x, cy: y, r: cell * 0.36, class: "ring" }, grp);
      }
      const t = el("text", { x, y, class: "glyph", "text-anchor": "middle", "dominant-baseline": "central" }, grp);
      const xq = pieceScript() === "simplified" ? XQ_SIMPLIFIED : XQ_NAMES;
      t.textContent = state.letters ? p.toUpperCase() : (kind === "xiangqi" ? xq : CHESS_NAMES)[p];
      t.setAttribute("font-size", kind === "xiangqi" ? cell * 0.42 : cell * 0.8);
    }

    // On Xiangqi's points the discs cover the marks beneath them: rings drawn over the pieces
    // show the last move, the general in check and the piece picked up.
    const rings = el("g", { class: "rings" }, svg);
    const ring = (sq, cls) => {
      if (!g.points) return;
      const [x, y] = centre(sq);
      el("circle", { cx: x, cy: y, r: cell * 0.46, class: `ring-mark ${cls}-ring` }, rings);
    };
    if (state.lastMove) {
      ring(state.lastMove.slice(0, 2), "last");
      ring(state.lastMove.slice(2, 4), "last");
    }
    if (state.check) ring(state.check, "check");
    // Marked points (a review's chased pieces), and an arrow (an engine's best move).
    for (const sq of state.marked || []) {
      mark(sq, "marked");
      ring(sq, "marked");
    }
    if (state.arrow) drawArrow(rings, centre(state.arrow.slice(0, 2)), centre(state.arrow.slice(2, 4)), cell);
    if (state.premove) {
      for (const sq of [state.premove.slice(0, 2), state.premove.slice(2, 4)]) {
        if (g.points) ring(sq, "premove");
        else mark(sq, "premove");
      }
    }

    // Hints for the selected piece: its legal destinations (a promotion's four moves, one).
    const targets = new Set(
      this.selected ? (state.legal || []).filter((m) => m.slice(0, 2) === this.selected).map((m) => m.slice(2, 4)) : [],
    );
    const hints = el("g", { class: "hints" }, svg);
    for (const sq of targets) {
      const [x, y] = centre(sq);
      el("circle", { cx: x, cy: y, r: cell * 0.14, class: "hint", "data-square": sq }, hints);
    }
    if (this.selected && state.legal && state.legal.length) {
      mark(this.selected, "selected");
      ring(this.selected, "selected");
    }

    this.drawPoints(svg, pieces, centre, cell, g.points, targets);
    if (focused) this.focusCursor();

    // Input: click a piece then a destination, or drag. Squares are found from coordinates.
    const toSquare = (evt) => {
      const pt = svg.createSVGPoint();
      pt.x = evt.clientX;
      pt.y = evt.clientY;
      const p = pt.matrixTransform(svg.getScreenCTM().inverse());
      const file = g.points ? Math.round((p.x - margin) / cell) : Math.floor(p.x / cell);
      const row = g.points ? Math.round((p.y - margin) / cell) : Math.floor(p.y / cell);
      if (file < 0 || row < 0 || file >= g.files || row >= g.ranks) return null;
      return screenSquare(kind, file, row, state.flipped);
    };
    svg.addEventListener("pointerdown", (evt) => {
      const sq = toSquare(evt);
      if (!sq) return;
      // Kept on the board: the render replaces the SVG that will see the pointer go up.
      if (this.pick(sq, pieces)) this.dragFrom = sq;
    });
    svg.addEventListener("keydown", (evt) => this.key(evt, pieces));
    svg.addEventListener("contextmenu", (evt) => {
      if (!this.selected && !state.premove) return;
      evt.preventDefault();
      this.cancelPremove();
    });
    svg.addEventListener("pointerup", (evt) => {
      const sq = toSquare(evt);
      const from = this.dragFrom;
      this.dragFrom = null;
      if (from && sq && sq !== from) this.tryMove(from, sq);
    });
  }

  /// Picks the piece on `sq` up, or puts the one picked up down there; whether a piece of
  /// the player's is picked up now.
  pick(sq, pieces) {
    this.cursor = sq;
    // A board one only looks at keeps its drawing: redrawn, the element under the pointer
    // would be gone before the click, and a small board's link would not open.
    if (!this.state.canMove && !this.selected) return false;
    // A click while a premove waits cancels it (and may pick the next one's piece).
    if (this.state.premove && !this.selected && this.onPremove) this.onPremove(null);
    if (this.selected && this.selected !== sq && this.tryMove(this.selected, sq)) return false;
    this.selected = pieces[sq] && this.mine(pieces[sq]) ? sq : null;
    this.render(this.state);
    return this.selected !== null;
  }

  // The point the keyboard starts from: the piece picked up, the last move's destination, else
  // the middle of the player's own back rank.
  startPoint() {
    const { kind, flipped, lastMove } = this.state;
    const g = GAMES[kind];
    if (this.selected) return this.selected;
    if (lastMove) return lastMove.slice(2, 4);
    return screenSquare(kind, Math.floor(g.files / 2), g.ranks - 1, flipped);
  }

  // One focusable element a point, over everything drawn, named for screen readers; the
  // cursor's alone is in the tab order.
  drawPoints(svg, pieces, centre, cell, points, targets) {
    const { kind } = this.state;
    const g = GAMES[kind];
    if (!this.cursor) this.cursor = this.startPoint();
    const layer = el("g", { class: "points" }, svg);
    const label = this.state.pointLabel || ((sq, p) => (p ? `${sq} ${p}` : sq));
    for (let row = 0; row < g.ranks; row++) {
      for (let file = 0; file < g.files; file++) {
        const sq = screenSquare(kind, file, row, false);
        const [x, y] = centre(sq);
        const size = points ? cell * 0.92 : cell;
        const e = el("rect", { x: x - size / 2, y: y - size / 2, width: size, height: size, rx: points ? size / 2 : 0, class: "point", "data-square": sq, role: "button" }, layer);
        e.setAttribute("tabindex", sq === this.cursor ? "0" : "-1");
        let name = label(sq, pieces[sq] || null);
        if (sq === this.selected) name += ` (${this.state.pickedLabel || "picked up"})`;
        else if (targets.has(sq)) name += ` (${this.state.legalLabel || "can move here"})`;
        e.setAttribute("aria-label", name);
      }
    }
  }

  focusCursor() {
    const e = this.host.querySelector(`rect.point[data-square='${this.cursor}']`);
    if (!e) return;
    for (const p of this.host.querySelectorAll("rect.point[tabindex='0']")) p.setAttribute("tabindex", "-1");
    e.setAttribute("tabindex", "0");
    e.focus();
  }

  key(evt, pieces) {
    const { kind, flipped } = this.state;
    const g = GAMES[kind];
    const arrow = ARROWS[evt.key];
    if (arrow) {
      evt.preventDefault();
      const [f, r] = squareXY(kind, this.cursor || this.startPoint(), flipped);
      const file = Math.min(g.files - 1, Math.max(0, f + arrow[0]));
      const row = Math.min(g.ranks - 1, Math.max(0, r + arrow[1]));
      this.cursor = screenSquare(kind, file, row, flipped);
      this.focusCursor();
    } else if (evt.key === "Enter" || evt.key === " ") {
      evt.preventDefault();
      this.pick(this.cursor || this.startPoint(), pieces);
    } else if (evt.key === "Escape" && (this.selected || this.state.premove)) {
      evt.preventDefault();
      this.cancelPremove();
    }
  }

  // Lets the piece picked up go, and the premove waiting.
  cancelPremove() {
    this.selected = null;
    if (this.state.premove && this.onPremove) this.onPremove(null);
    else this.render(this.state);
  }

  mine(piece) {
    if (!this.state.canMove) return false;
    const first = piece === piece.toUpperCase();
    const side = this.state.mySide || this.state.toMove;
    return (side === this.state.first) === first && (this.state.toMove === side || Boolean(this.state.premoving));
  }

  /// Send the move from→to if it is legal (a pawn reaching the last rank in chess becomes a
  /// queen unless the user picks otherwise in the promotion box).
  tryMove(from, to) {
    if (this.state.premoving && this.onPremove) {
      // Not our turn: any move of one's own piece to a square it does not hold, ruled when sent.
      const pieces = parseFen(this.state.kind, this.state.fen);
      if (pieces[to] && this.mine(pieces[to])) return false;
      const promo = this.state.kind === "chess" && /[Pp]/.test(pieces[from] || "") && (to[1] === "8" || to[1] === "1");
      const choice = (document.getElementById("promotion") || { value: "q" }).value;
      this.selected = null;
      this.onPremove(from + to + (promo ? choice : ""));
      return true;
    }
    if (!this.state.legal) {
      // No list from the server: send the move; a chess pawn reaching the last rank promotes.
      const pieces = parseFen(this.state.kind, this.state.fen);
      const last = to[1] === "8" || to[1] === "1";
      const promo = this.state.kind === "chess" && /[Pp]/.test(pieces[from] || "") && last;
      const choice = (document.getElementById("promotion") || { value: "q" }).value;
      this.selected = null;
      this.onMove(from + to + (promo ? choice : ""));
      return true;
    }
    const candidates = this.state.legal.filter((m) => m.slice(0, 4) === from + to);
    if (candidates.length === 0) return false;
    let move = candidates[0];
    if (candidates.length > 1) {
      const choice = (document.getElementById("promotion") || { value: "q" }).value;
      move = candidates.find((m) => m.endsWith(choice)) || candidates[0];
    }
    this.selected = null;
    this.onMove(move);
    return true;
  }

  drawXiangqiGrid(svg, cell, m) {
    const g = el("g", { class: "grid" }, svg);
    const line = (x1, y1, x2, y2) => el("line", { x1, y1, x2, y2 }, g);
    el("rect", { x: m, y: m, width: 8 * cell, height: 9 * cell, class: "frame" }, g);
    for (let r = 0; r < 10; r++) line(m, m + r * cell, m + 8 * cell, m + r * cell);
    for (let f = 0; f < 9; f++) {
      if (f === 0 || f === 8) {
        line(m + f * cell, m, m + f * cell, m + 9 * cell);
      } else {
        // The river cuts the inner files.
        line(m + f * cell, m, m + f * cell, m + 4 * cell);
        line(m + f * cell, m + 5 * cell, m + f * cell, m + 9 * cell);
      }
    }
    // Palaces: the diagonals of the 3×3 squares at each end.
    for (const top of [0, 7]) {
      line(m + 3 * cell, m + top * cell, m + 5 * cell, m + (top + 2) * cell);
      line(m + 5 * cell, m + top * cell, m + 3 * cell, m + (top + 2) * cell);
    }
    const river = el("text", { x: m + 4 * cell, y: m + 4.5 * cell, class: "river", "text-anchor": "middle", "dominant-baseline": "central" }, g);
    river.textContent = "楚 河          漢 界";
    river.setAttribute("font-size", cell * 0.4);
  }

  drawChessSquares(svg, cell) {
    const g = el("g", { class: "squares" }, svg);
    for (let r = 0; r < 8; r++) {
      for (let f = 0; f < 8; f++) {
        el("rect", { x: f * cell, y: r * cell, width: cell, height: cell, class: (r + f) % 2 ? "dark" : "light" }, g);
      }
    }
  }
}
