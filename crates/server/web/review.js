// The review page (`/review`): a record file (uploaded as bytes) or pasted PGN goes to
// `POST /api/review`; the game comes back with every ply's FEN and the judge's verdict, and is
// stepped through here on the board of board.js. Nothing is played: the board only shows.
// On demand the server's engine analyses every position (analysis.js): each ply gets its
// evaluation, and the current position its best line, drawn as an arrow.

import { Analysis, barShare, longScore, shortScore } from "./analysis.js";
import { Board, parseFen } from "./board.js";
import { failure, showError } from "./errors.js";
import { addStrings, explanationOf, language, reasonName, setupLanguage, sideName, strings, t } from "./i18n.js";
import { REVIEW_STRINGS } from "./reviewstrings.js";

addStrings(REVIEW_STRINGS);

const $ = (id) => document.getElementById(id);

const state = {
  body: null, // the last record sent (bytes or text), re-sent when the rules or the game change
  type: "",
  review: null,
  at: 0, // plies shown: 0 is the start position
  flipped: false,
};

const analysis = new Analysis(() => {
  drawEvals();
  draw();
});

async function send() {
  if (!state.body) return;
  const params = new URLSearchParams();
  if ($("rules").value) params.set("rules", $("rules").value);
  const game = Number($("game").value) || 1;
  if (game > 1) params.set("game", String(game));
  $("submit").disabled = true;
  try {
    const res = await fetch(`/api/review${params.toString() ? `?${params}` : ""}`, {
      method: "POST",
      headers: { "Content-Type": state.type, Accept: "application/json" },
      body: state.body,
    });
    const text = await res.text();
    let data;
    try {
      data = JSON.parse(text);
    } catch {
      data = { error: text || `${res.status} ${res.statusText}` };
    }
    if (!res.ok) throw failure(res, data);
    showError($("error"), null);
    show(data);
    state.error = "";
  } catch (e) {
    state.error = e;
    showError($("error"), e);
  } finally {
    $("submit").disabled = false;
  }
}

function tag(name) {
  const t = (state.review.tags || []).find((x) => x.name.toLowerCase() === name.toLowerCase());
  return t ? t.value : "";
}

function show(review) {
  const firstShow = !state.review || state.review.kind !== review.kind;
  const line = (r) => (r ? `${r.initialFen} ${r.plies.map((p) => p.coordinate).join(" ")}` : "");
  // Another game (not the same one under other rules): its analysis is another.
  if (line(review) !== line(state.review)) analysis.reset();
  state.review = review;
  state.at = review.plies.length;
  if (firstShow) state.flipped = false;
  $("result").hidden = false;
  redraw();
}

/// Everything drawn from the review, in the page's language.
function redraw() {
  for (const [id, key] of [["first", "stepStart"], ["prev", "stepBack"], ["next", "stepForward"], ["last", "stepEnd"]]) {
    $(id).title = t(key);
  }
  if (state.error === "choose") $("error").textContent = t("chooseRecord");
  else if (state.error) showError($("error"), state.error);
  const review = state.review;
  if (!review) return;
  $("games").textContent = review.games > 1 ? t("gamesOf", { n: review.games }) : "";
  $("game").max = String(review.games);
  const first = review.kind === "xiangqi" ? tag("Red") : tag("White");
  const second = tag("Black");
  const players = first || second ? `${first || "?"} – ${second || "?"}` : "";
  const event = tag("Event");
  $("title").textContent = [t(review.kind), players, event].filter(Boolean).join(" · ");
  const select = $("notation");
  const kinds = review.kind === "xiangqi" ? ["chinese", "wxf", "iccs"] : ["san", "uci"];
  const chosen = select.dataset.kind === review.kind ? select.value : kinds[0];
  select.innerHTML = kinds.map((k) => `<option value="${k}">${strings().notation[k]}</option>`).join("");
  select.value = chosen;
  select.dataset.kind = review.kind;
  drawVerdict();
  drawTags();
  drawPlies();
  drawEvals();
  draw();
}

function moveText(p) {
  switch ($("notation").value) {
    case "wxf":
      return p.wxf || p.coordinate;
    case "iccs":
    case "uci":
      return p.coordinate;
    default:
      return p.notation;
  }
}

function drawPlies() {
  const r = state.review;
  const host = $("plies");
  host.innerHTML = "";
  const chased = new Set((r.chases || []).map((c) => c.ply));
  const firstSide = r.kind === "xiangqi" ? "red" : "white";
  // Full-move numbers from the start position's FEN.
  let number = Number(r.initialFen.split(" ")[5]) || 1;
  r.plies.forEach((p, i) => {
    if (p.side === firstSide || i === 0) {
      const n = document.createElement("span");
      n.className = "num";
      n.textContent = p.side === firstSide ? `${number}.` : `${number}…`;
      if (i > 0) host.appendChild(document.createElement("br"));
      host.appendChild(n);
    }
    const s = document.createElement("span");
    s.className = "ply";
    s.dataset.ply = String(p.ply);
    s.textContent = moveText(p);
    // The judge's class of a move of a ruled repetition, shown on the move itself.
    if (p.class) {
      const badge = document.createElement("span");
      badge.className = "cls";
      badge.textContent = strings().classShort[p.class.label] || p.class.label;
      s.prepend(badge);
    }
    s.classList.toggle("check", p.check);
    s.classList.toggle("chase", chased.has(p.ply));
    // A move of the repetition cycle the judge ruled on (or is waiting on), with its class.
    s.classList.toggle("ruled", Boolean(p.class));
    if (p.class) s.title = judgedText(p.class);
    s.addEventListener("click", () => go(p.ply));
    host.appendChild(s);
    const ev = document.createElement("span");
    ev.className = "ev";
    ev.dataset.ply = String(p.ply);
    host.appendChild(ev);
    if (p.side !== firstSide) number += 1;
  });
}

/// The judge's class of a move in words: what it is and the pieces it chases.
function judgedText(c) {
  const names = strings().chasedPieces;
  const pieces = c.chases.map((x) => {
    const [piece, square] = x.split("@");
    return t("pieceOnSquare", { piece: names[piece] || piece, square });
  });
  const chases = pieces.length ? t("judgedChases", { pieces: pieces.join(", ") }) : "";
  return t("judgedMove", { label: strings().classLabel[c.label] || c.label, chases });
}

/// The evaluation after each ply, in the move list.
function drawEvals() {
  for (const s of document.querySelectorAll("#plies .ev")) {
    s.textContent = shortScore(analysis.positions[Number(s.dataset.ply)]);
  }
  $("analysis-status").textContent = analysis.status();
  $("analyse").disabled = analysis.running || !state.review;
}

/// The current position's evaluation and best line, and the arrow of its best move.
function drawEval(r) {
  const p = analysis.positions[state.at];
  const shown = analysis.running || analysis.positions.length > 0;
  $("eval").hidden = $("evalbar").hidden = !shown;
  if (!shown) return null;
  const score = longScore(p, r.kind, r.initialFen);
  const bar = $("evalbar");
  bar.className = `evalbar ${r.kind}`;
  const first = r.kind === "xiangqi" ? "red" : "white";
  bar.firstElementChild.style.width = `${Math.round(barShare(p, r.kind, r.initialFen) * 100)}%`;
  bar.setAttribute("aria-label", t("evalBar", { side: sideName(first), score: p ? shortScore(p) : t("evalNone") }));
  const box = $("eval");
  box.innerHTML = "";
  const strong = document.createElement("span");
  strong.className = "score";
  strong.textContent = `${t("evalLabel")}: ${score}`;
  box.appendChild(strong);
  const parts = [];
  if (p && p.depth) parts.push(t("evalDepth", { depth: p.depth }));
  if (p && p.pv && p.pv.length) parts.push(t("bestLine", { line: p.pv.map(moveText).join(" ") }));
  if (parts.length) box.appendChild(document.createTextNode(parts.join(" · ")));
  return p && p.best ? p.best.coordinate : null;
}

function drawVerdict() {
  const r = state.review;
  const v = r.verdict;
  const box = $("verdict");
  box.innerHTML = "";
  const line = (text, cls) => {
    const p = document.createElement("p");
    p.textContent = text;
    if (cls) p.className = cls;
    box.appendChild(p);
    return p;
  };
  // The verdict in the language chosen on the other pages: the judge writes it in both.
  const judged = (text, cls) => {
    const p = line(text, cls);
    p.lang = language() === "zh" ? "zh-CN" : "en";
    return p;
  };
  if (v.result === "ongoing") {
    judged(t("reviewNotEnded", { ply: v.ply, ruleset: v.ruleset }), "result");
  } else {
    const outcome = v.result === "draw" ? t("reviewDraw") : t("reviewWins", { side: sideName(v.result) });
    const how = `${reasonName(v.reason, r.kind)}${v.claim ? t("reviewIfClaimed") : ""}`;
    judged(t("reviewResult", { outcome, how, ply: v.ply, ruleset: v.ruleset }), "result");
  }
  judged(explanationOf(v));
  if (v.pending) judged(t("reviewPending", { ply: v.pending.ply, text: explanationOf(v.pending) }));
  if (v.stopped) line(t("judgingStopped", { text: v.stopped }), "error");
  if (r.recordResult) {
    const agree =
      r.agrees === true
        ? t("recordAgrees")
        : r.agrees === false
          ? t("recordContradicts", { text: r.contradiction })
          : t("recordUndecided");
    line(t("recordSays", { result: r.recordResult, agree }), `agree-${r.agrees}`);
  }
  if (r.checks.length) line(t("checksAt", { plies: r.checks.join(", ") }));
  if (r.chases.length) line(t("chasesAt", { list: r.chases.map((c) => `${c.ply} ${c.pieces.join(" ")}`).join("; ") }));
}

function drawTags() {
  const table = $("tags");
  table.innerHTML = "";
  for (const t of state.review.tags) {
    const tr = document.createElement("tr");
    for (const text of [t.name, t.value]) {
      const td = document.createElement("td");
      td.textContent = text;
      tr.appendChild(td);
    }
    table.appendChild(tr);
  }
  const issues = $("issues");
  issues.innerHTML = "";
  for (const i of state.review.issues) {
    const li = document.createElement("li");
    // A refused move in the page's words; other repairs of a record as the reader wrote them.
    const r = i.refused;
    const message = r ? t(`refused:${r.why}${r.selfCheck ? ":self" : ""}`, { move: r.written }) : i.message;
    li.textContent = i.ply ? t("issueAt", { ply: i.ply, message }) : message;
    issues.appendChild(li);
  }
}

// The king (general) of the side to move, from a FEN.
function kingSquare(kind, fen) {
  const pieces = parseFen(kind, fen);
  const king = fen.split(" ")[1] === "b" ? "k" : "K";
  return Object.keys(pieces).find((sq) => pieces[sq] === king) || null;
}

const board = new Board(document.createElement("div"), () => {});

function draw() {
  const r = state.review;
  if (!r) return;
  const ply = state.at > 0 ? r.plies[state.at - 1] : null;
  const fen = ply ? ply.fen : r.initialFen;
  const best = drawEval(r);
  const judged = $("judged");
  judged.hidden = !(ply && ply.class);
  judged.textContent = ply && ply.class ? judgedText(ply.class) : "";
  board.host = $("board");
  board.render({
    kind: r.kind,
    fen,
    flipped: state.flipped,
    lastMove: ply ? ply.coordinate : null,
    check: ply && ply.check ? kingSquare(r.kind, fen) : null,
    legal: [],
    canMove: false,
    boardLabel: t("reviewBoard", { game: t(r.kind === "xiangqi" ? "xiangqiTitle" : "chessTitle") }),
    pointLabel: (sq, p) => `${sq} ${p ? strings().pieceNames[r.kind][p] : t("emptyPoint")}`,
    letters: $("letters").checked,
    // The pieces the move chases, by the judge; the engine's best move from here.
    marked: ply && ply.class ? ply.class.chases.map((x) => x.split("@")[1]).filter(Boolean) : [],
    arrow: best,
  });
  $("position").textContent = ply
    ? t("plyOf", { ply: ply.ply, n: r.plies.length, side: sideName(ply.side), move: moveText(ply) }) +
      (ply.check ? t("withCheck") : "")
    : t("startPosition", { n: r.plies.length });
  for (const s of document.querySelectorAll("#plies .ply")) {
    const current = Number(s.dataset.ply) === state.at;
    s.classList.toggle("current", current);
    if (current) s.scrollIntoView({ block: "nearest" });
  }
  $("first").disabled = $("prev").disabled = state.at === 0;
  $("next").disabled = $("last").disabled = state.at === r.plies.length;
}

function go(ply) {
  if (!state.review) return;
  state.at = Math.max(0, Math.min(state.review.plies.length, ply));
  draw();
}

$("form").addEventListener("submit", async (evt) => {
  evt.preventDefault();
  const file = $("file").files[0];
  if (file) {
    // As bytes: XQF is binary, and a GBK or Big5 PGN must reach the server undecoded.
    state.body = await file.arrayBuffer();
    state.type = "application/octet-stream";
  } else if ($("record").value.trim()) {
    state.body = $("record").value;
    state.type = "text/plain; charset=utf-8";
  } else {
    state.error = "choose";
    showError($("error"), null);
    $("error").textContent = t("chooseRecord");
    return;
  }
  send();
});
// A pasted record replaces a chosen file, and a chosen file a pasted record.
$("record").addEventListener("input", () => {
  $("file").value = "";
});
$("file").addEventListener("change", () => {
  if ($("file").files[0]) {
    $("record").value = "";
    $("game").value = "1";
    $("form").requestSubmit();
  }
});
$("rules").addEventListener("change", send);
$("game").addEventListener("change", send);
$("first").addEventListener("click", () => go(0));
$("prev").addEventListener("click", () => go(state.at - 1));
$("next").addEventListener("click", () => go(state.at + 1));
$("last").addEventListener("click", () => go(Infinity));
$("flip").addEventListener("click", () => {
  state.flipped = !state.flipped;
  draw();
});
$("letters").addEventListener("change", draw);
$("notation").addEventListener("change", () => {
  drawPlies();
  drawEvals();
  draw();
});
$("analyse").addEventListener("click", () => {
  const r = state.review;
  if (!r) return;
  analysis.start(
    r.kind,
    r.initialFen,
    r.plies.map((p) => p.coordinate),
  );
});
setupLanguage(() => {
  redraw();
  drawEvals();
});
document.addEventListener("keydown", (evt) => {
  const t = evt.target;
  if (t instanceof HTMLTextAreaElement || t instanceof HTMLInputElement || t instanceof HTMLSelectElement) return;
  const moves = { ArrowLeft: -1, ArrowRight: 1 };
  if (evt.key in moves) go(state.at + moves[evt.key]);
  else if (evt.key === "Home") go(0);
  else if (evt.key === "End") go(Infinity);
  else return;
  evt.preventDefault();
});
