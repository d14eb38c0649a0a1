// The review page (`/review`): a record file (uploaded as bytes) or pasted PGN goes to
// `POST /api/review`; the game comes back with every ply's FEN and the judge's verdict, and is
// stepped through here on the board of board.js. Nothing is played: the board only shows.

import { Board, parseFen } from "./board.js";
import { explanationOf, language, reasonName, sideName, t } from "./i18n.js";

const $ = (id) => document.getElementById(id);

const state = {
  body: null, // the last record sent (bytes or text), re-sent when the rules or the game change
  type: "",
  review: null,
  at: 0, // plies shown: 0 is the start position
  flipped: false,
};

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
    if (!res.ok) throw new Error(data.error || `${res.status} ${res.statusText}`);
    $("error").textContent = "";
    show(data);
  } catch (e) {
    $("error").textContent = e.message;
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
  state.review = review;
  state.at = review.plies.length;
  if (firstShow) state.flipped = false;
  $("result").hidden = false;
  $("games").textContent = review.games > 1 ? `of ${review.games}` : "";
  $("game").max = String(review.games);
  const first = review.kind === "xiangqi" ? tag("Red") : tag("White");
  const second = tag("Black");
  const players = first || second ? `${first || "?"} – ${second || "?"}` : "";
  const event = tag("Event");
  $("title").textContent = [review.kind === "xiangqi" ? "象棋 Xiangqi" : "Chess", players, event]
    .filter(Boolean)
    .join(" · ");
  const select = $("notation");
  const kinds = review.kind === "xiangqi" ? ["chinese", "wxf", "iccs"] : ["san", "uci"];
  if (select.dataset.kind !== review.kind) {
    select.innerHTML = kinds.map((k) => `<option value="${k}">${k.toUpperCase()}</option>`).join("");
    select.dataset.kind = review.kind;
  }
  drawVerdict();
  drawTags();
  drawPlies();
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
    s.classList.toggle("check", p.check);
    s.classList.toggle("chase", chased.has(p.ply));
    // A move of the repetition cycle the judge ruled on (or is waiting on), with its class.
    s.classList.toggle("ruled", Boolean(p.class));
    const notes = [];
    if (p.check) notes.push("check");
    if (p.class) notes.push(`${p.class.label}${p.class.chases.length ? ` ${p.class.chases.join(" ")}` : ""}`);
    if (notes.length) s.title = notes.join(" · ");
    s.addEventListener("click", () => go(p.ply));
    host.appendChild(s);
    if (p.side !== firstSide) number += 1;
  });
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
  if (v.stopped) line(`Judging stopped: ${v.stopped}`, "error");
  if (r.recordResult) {
    const agree =
      r.agrees === true ? "agrees with the board" : r.agrees === false ? r.contradiction : "the board alone does not decide it";
    line(`The record says ${r.recordResult}: ${agree}`, `agree-${r.agrees}`);
  }
  if (r.checks.length) line(`Checks at plies ${r.checks.join(", ")}`);
  if (r.chases.length) line(`Chases (捉): ${r.chases.map((c) => `${c.ply} ${c.pieces.join(" ")}`).join("; ")}`);
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
    li.textContent = i.ply ? `ply ${i.ply}: ${i.message}` : i.message;
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
  board.host = $("board");
  board.render({
    kind: r.kind,
    fen,
    flipped: state.flipped,
    lastMove: ply ? ply.coordinate : null,
    check: ply && ply.check ? kingSquare(r.kind, fen) : null,
    legal: [],
    canMove: false,
    letters: $("letters").checked,
  });
  $("position").textContent = ply
    ? `Ply ${ply.ply} of ${r.plies.length}: ${ply.side} ${moveText(ply)}${ply.check ? " — check" : ""}`
    : `Start position (${r.plies.length} plies)`;
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
    $("error").textContent = "Choose a file or paste a record.";
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
  draw();
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
