// The page: a lobby at `/` to start a game, and `/game/ID` to play it (with a seat token in the
// URL fragment, `#seat=TOKEN`, which never reaches the server's logs) or to watch it.
// Everything the page shows comes from the game's NDJSON stream; every action is one POST.

import { Board, parseFen } from "./board.js";

const $ = (id) => document.getElementById(id);

async function api(method, path, body, token) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = { error: text };
  }
  if (!res.ok) throw new Error((data && (data.error || data.message)) || `${res.status} ${res.statusText}`);
  return data;
}

// ---------------------------------------------------------------------------------------------
// Lobby

function lobby() {
  $("lobby").hidden = false;
  $("create").addEventListener("submit", async (evt) => {
    evt.preventDefault();
    const f = new FormData(evt.target);
    const body = {
      kind: f.get("kind"),
      clock: { limit: Number(f.get("minutes")) * 60, increment: Number(f.get("increment")) },
    };
    if (f.get("ruleset")) body.ruleset = f.get("ruleset");
    try {
      const game = await api("POST", "/api/game", body);
      const base = `${location.origin}/game/${game.id}`;
      $("links").hidden = false;
      // The seat token goes in the fragment, which browsers never send to the server.
      const link = (seat) => `${base}#seat=${seat.token}&side=${seat.side}`;
      $("link-white").value = link(game.seats[0]);
      $("link-black").value = link(game.seats[1]);
      $("link-watch").value = base;
      $("play-white").href = $("link-white").value;
      $("create-error").textContent = "";
    } catch (e) {
      $("create-error").textContent = e.message;
    }
  });
}

// ---------------------------------------------------------------------------------------------
// A game

const game = {
  id: null,
  token: null,
  kind: "chess",
  mySide: null,
  fen: "",
  moves: [],
  notation: {},
  status: "started",
  version: 0,
  clock: { white: 0, black: 0, at: 0, running: null },
};

// The seat: from the fragment (`#seat=T&side=S`) or the server's join link (`?seat=T`), kept for
// this tab so that a reload still plays.
function seatFromUrl() {
  const params = new URLSearchParams(location.hash.slice(1) || location.search.slice(1));
  if (params.get("seat")) {
    sessionStorage.setItem(`seat:${game.id}`, params.get("seat"));
    sessionStorage.setItem(`side:${game.id}`, params.get("side") || "");
  }
  game.mySide = sessionStorage.getItem(`side:${game.id}`) || null;
  return sessionStorage.getItem(`seat:${game.id}`);
}

function act(path) {
  return api("POST", `/api/board/game/${game.id}/${path}`, undefined, game.token).catch((e) => {
    $("message").textContent = e.message;
  });
}

// Events of the stream. `gameFull` carries the game's description and its state; `gameState`
// the state after each change; anything else (chat, offers) is shown as it comes.
function onEvent(ev) {
  if (ev.version !== undefined) game.version = ev.version;
  if (ev.type === "gameFull") {
    game.kind = ev.kind || game.kind;
    game.sides = game.kind === "xiangqi" ? ["red", "black"] : ["white", "black"];
    $("title").textContent = `${game.kind === "xiangqi" ? "象棋 Xiangqi" : "Chess"} · ${ev.ruleset || ""} · ${ev.rules || ""}`;
    onState(ev.state || ev);
  } else if (ev.type === "gameState") {
    onState(ev);
  } else if (ev.type === "notice" || ev.text) {
    $("message").textContent = ev.text || ev.message || ev.kind || JSON.stringify(ev);
  }
}

function onState(st) {
  if (st.fen) game.fen = st.fen;
  if (st.moves !== undefined) game.moves = typeof st.moves === "string" ? st.moves.split(" ").filter(Boolean) : st.moves;
  if (st.notation) game.notation = st.notation;
  if (st.san) game.notation.san = st.san;
  game.status = st.status || game.status;
  game.winner = st.winner;
  game.legal = st.legal || null;
  const [first, second] = game.sides || ["white", "black"];
  game.toMove = st.turn || (game.moves.length % 2 === 0 ? first : second);
  game.check = st.check ? kingSquare() : null;
  game.offer = st.wdraw ? first : st.bdraw ? second : null;
  game.reason = st.explanation || "";
  if (st.wtime !== undefined) {
    // wtime/btime are the first and second player's (Red's and Black's in Xiangqi).
    const running = game.status === "started" ? (game.toMove === first ? "white" : "black") : null;
    game.clock = { white: st.wtime, black: st.btime, at: performance.now(), running };
  }
  draw();
}

// The square of the king (general) of the side to move, from the FEN.
function kingSquare() {
  const first = game.toMove === (game.sides || ["white"])[0];
  const pieces = parseFen(game.kind, game.fen);
  return Object.keys(pieces).find((sq) => pieces[sq] === (first ? "K" : "k")) || null;
}

const board = new Board(document.createElement("div"), (move) => {
  act(`move/${move}`);
});

function draw() {
  const host = $("board");
  if (board.host !== host) board.host = host;
  const live = game.status === "started" || game.status === "created";
  board.render({
    kind: game.kind,
    fen: game.fen,
    flipped: game.flipped ?? game.mySide === "black",
    lastMove: game.moves.length ? game.moves[game.moves.length - 1] : null,
    check: game.check,
    // Without a list of legal moves from the server, any move is sent and the referee rules.
    legal: live ? game.legal : [],
    first: (game.sides || ["white"])[0],
    letters: $("letters").checked,
    mySide: game.mySide,
    canMove: Boolean(game.token),
    toMove: game.toMove,
  });
  drawMoves();
  const over = !live;
  const outcome = game.winner ? `${game.winner} wins` : game.status === "aborted" ? "Aborted" : "Draw";
  $("status").textContent = over
    ? `${outcome} (${game.status.replaceAll("_", " ")})${game.reason ? ` — ${game.reason}` : ""}`
    : `${game.toMove} to move${game.check ? " — check" : ""}`;
  $("status").dataset.status = game.status;
  $("offer").textContent = game.offer && game.offer !== game.mySide ? `${game.offer} offers a draw` : "";
  for (const id of ["draw", "claim", "resign", "abort"]) $(id).disabled = !game.token || over;
  $("accept").hidden = $("decline").hidden = !(game.offer && game.offer !== game.mySide && !over);
  $("pgn").href = `/api/game/${game.id}/pgn`;
  $("seat").textContent = game.token ? `You play ${game.mySide || "a seat"}` : "Watching";
}

function drawMoves() {
  const select = $("notation");
  const kinds = game.kind === "xiangqi" ? ["chinese", "wxf", "iccs"] : ["san", "uci"];
  if (select.dataset.kind !== game.kind) {
    select.innerHTML = kinds.map((k) => `<option value="${k}">${k.toUpperCase()}</option>`).join("");
    select.dataset.kind = game.kind;
  }
  const which = select.value;
  const list = which === "uci" || which === "iccs" ? game.moves : game.notation[which] || game.moves;
  const ol = $("moves");
  ol.innerHTML = "";
  for (let i = 0; i < list.length; i += 2) {
    const li = document.createElement("li");
    li.textContent = `${list[i]}${list[i + 1] ? `  ${list[i + 1]}` : ""}`;
    ol.appendChild(li);
  }
  ol.scrollTop = ol.scrollHeight;
}

function tickClocks() {
  const c = game.clock;
  const now = performance.now();
  for (const side of ["white", "black"]) {
    let ms = c[side] || 0;
    if (c.running === side) ms = Math.max(0, ms - (now - c.at));
    const s = Math.ceil(ms / 1000);
    const text = `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
    const e = $(`clock-${side}`);
    e.textContent = text;
    e.classList.toggle("running", c.running === side);
    e.classList.toggle("low", ms < 10000);
  }
  requestAnimationFrame(tickClocks);
}

// The stream, resumed after a drop from the last version seen.
async function follow() {
  for (;;) {
    try {
      // The first connection starts with `gameFull`; a reconnection asks only for what it missed.
      const since = game.connected ? `?since=${game.version}` : "";
      const res = await fetch(`/api/board/game/stream/${game.id}${since}`, {
        headers: game.token ? { Authorization: `Bearer ${game.token}` } : {},
      });
      if (!res.ok) throw new Error(`${res.status}`);
      game.connected = true;
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
          if (line) onEvent(JSON.parse(line));
        }
      }
      $("connection").textContent = "";
    } catch (e) {
      $("connection").textContent = `reconnecting (${e.message})`;
    }
    if (game.status !== "started" && game.status !== "created") return;
    await new Promise((r) => setTimeout(r, 1000));
  }
}

function play(id) {
  game.id = id;
  game.token = seatFromUrl();
  if (location.hash || location.search) history.replaceState(null, "", location.pathname);
  $("play").hidden = false;
  $("draw").addEventListener("click", () => act("draw/yes"));
  $("accept").addEventListener("click", () => act("draw/yes"));
  $("decline").addEventListener("click", () => act("draw/no"));
  $("claim").addEventListener("click", () => act("claim-draw"));
  $("resign").addEventListener("click", () => act("resign"));
  $("abort").addEventListener("click", () => act("abort"));
  $("flip").addEventListener("click", () => {
    game.flipped = !(game.flipped ?? game.mySide === "black");
    draw();
  });
  $("letters").addEventListener("change", draw);
  $("notation").addEventListener("change", drawMoves);
  requestAnimationFrame(tickClocks);
  follow();
}

const m = /^\/game\/([A-Za-z0-9_-]+)/.exec(location.pathname);
if (m) play(m[1]);
else lobby();
