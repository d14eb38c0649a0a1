// The page: a lobby at `/` to start a game, and `/game/ID` to play it (with a seat token in the
// URL fragment, `#seat=TOKEN`, which browsers never send to a server) or to watch it (`#watch`
// watches even where this browser holds a seat).
// Everything the page shows comes from the game's socket (socket.js), and every action is a
// message on it; where the socket cannot open, from the NDJSON stream, every action one POST.
// The game's arbiter opens it as a console (`#arbiter=TOKEN`, console.js); a board device at the
// table for both players (`#device=TOKEN`, device.js). `&event=ID` links the page back to its event.
// The interface speaks English or Chinese (the header's select; the browser's language at first,
// then the choice remembered in localStorage).

import { api, lagEstimate, readLines } from "./api.js";
import { Board, parseFen, pieceScript, setPieceScript } from "./board.js";
import { Console } from "./console.js";
import { Device } from "./device.js";
import { GameSocket } from "./socket.js";
import { reasonName, setupLanguage, sideName, strings, t } from "./i18n.js";
import { endExplanation, notice, refusalText } from "./notices.js";
import { errorText, showError } from "./errors.js";
import { drawActions, readActions, setupActions } from "./actions.js";
import { drawPremove, playPremove, premoving } from "./premove.js";
import { lobby, lobbyLabels } from "./lobby.js";
import { setSound, sound, soundOn, unlockSound } from "./sound.js";
import { heldSeat, holdSeat } from "./me.js";
import { rematch } from "./rematch.js";
import { takeChallenge } from "./seek.js";
import { drawMoves } from "./movelist.js";

const $ = (id) => document.getElementById(id);

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
  // "seat", "arbiter", "device" or "watch".
  mode: "watch",
  event: null,
};

// The arbiter's console or the board device, when the page is one.
let control = null;

// The game's event, from the fragment (`&event=ID`), kept for the plain address.
function eventFromUrl(params) {
  const key = `event:${game.id}`;
  const ev = params.get("event");
  if (ev && /^[A-Za-z0-9]{1,16}$/.test(ev)) localStorage.setItem(key, ev);
  return localStorage.getItem(key);
}

// An arbiter's or a board device's token from the fragment, kept for this tab and browser as
// seats are; the mode it gives, or null.
function roleFromUrl(params) {
  for (const mode of ["arbiter", "device"]) {
    const key = `${mode}:${game.id}`;
    const fresh = params.get(mode);
    if (fresh) {
      sessionStorage.setItem("role:" + game.id, mode);
      localStorage.setItem(key, fresh);
    }
  }
  if (params.has("seat")) sessionStorage.removeItem("role:" + game.id);
  const mode = sessionStorage.getItem("role:" + game.id);
  const token = mode && localStorage.getItem(`${mode}:${game.id}`);
  return token ? { mode, token } : null;
}

// The seat: from the fragment (`#seat=T&side=S`: then bound to this browser's session, so its
// other tabs and devices find it), kept for this tab (a reload plays the same seat); without
// one, the seat this browser's session (or account) holds, else the seat last opened here.
// `#watch` spectates all the same.
async function seatFromUrl(fragment) {
  const params = new URLSearchParams(fragment.slice(1));
  const key = `seat:${game.id}`;
  game.event = eventFromUrl(params);
  if (params.has("watch")) {
    sessionStorage.removeItem("role:" + game.id);
    return null;
  }
  const role = roleFromUrl(params);
  if (role) {
    game.mode = role.mode;
    return role.token;
  }
  let seat = null;
  if (params.get("seat")) {
    seat = JSON.stringify({ token: params.get("seat"), side: params.get("side") || "" });
    sessionStorage.setItem(key, seat);
    localStorage.setItem(key, seat);
    holdSeat(game.id, params.get("seat"));
  } else {
    const held = await heldSeat(game.id);
    seat = sessionStorage.getItem(key) || (held && JSON.stringify(held)) || localStorage.getItem(key);
  }
  try {
    const { token, side } = JSON.parse(seat);
    game.mySide = side || null;
    if (token) game.mode = "seat";
    return token || null;
  } catch {
    return null;
  }
}

// The open game socket, or null (then actions are POSTs).
let socket = null;

// The HTTP route of each socket command.
const routes = {
  "draw-offer": "draw/yes",
  "draw-accept": "draw/yes",
  "draw-decline": "draw/no",
  "takeback-offer": "takeback/yes",
  "takeback-accept": "takeback/yes",
  "takeback-decline": "takeback/no",
  "claim-draw": "claim-draw",
  resign: "resign",
  abort: "abort",
};

// Sends a command (`{t: "resign"}`, `{t: "move", move}`) on the socket, else as its POST.
function act(message) {
  showError($("message"), null);
  const offering = message.draw ? "&offeringDraw=true" : "";
  const path = message.t === "move" ? `move/${message.move}?lag=${lagEstimate()}${offering}` : routes[message.t];
  const sent = socket ? socket.send(message) : api("POST", `/api/board/game/${game.id}/${path}`, undefined, game.token);
  return sent.catch((e) => {
    // The referee's reason for this side (its code); any other error from its code too.
    if (strings().why[e.why]) $("message").textContent = refusalText(Object.assign(e, { text: message.move }), game.mySide);
    else showError($("message"), e);
  });
}

// A move of the player's, with a draw offer where one is to go with it.
function sendMove(move) {
  const draw = Boolean(game.offerWithMove && game.offerNext);
  game.offerNext = false;
  return act(draw ? { t: "move", move, draw } : { t: "move", move });
}

// Events of the stream. `gameFull` carries the game's description and its state; `gameState`
// the state after each change; anything else (fouls, refusals, warnings) is shown as it comes.
function onEvent(ev) {
  if (ev.t === "error") {
    showError($("message"), Object.assign(new Error(ev.error), { why: ev.why, args: ev.args }));
    return;
  }
  if (ev.version !== undefined) game.version = ev.version;
  if (control?.onLine) control.onLine(ev);
  if (ev.type === "gameFull") {
    game.kind = ev.kind || game.kind;
    game.sides = game.kind === "xiangqi" ? ["red", "black"] : ["white", "black"];
    game.ruleset = ev.ruleset || "";
    game.rules = ev.rules || "";
    game.players = [ev.white, ev.black];
    onState(ev.state || ev);
    if (control?.history && !game.historyRead) {
      game.historyRead = true;
      control.history(ev.version);
    }
  } else if (ev.type === "gameState") {
    onState(ev);
    // An arbiter's correction changes the state and says why.
    const text = noticeText(ev.event);
    if (text) $("message").textContent = text;
  } else if (ev.type === "notice") {
    const text = noticeText(ev.event);
    // Events the state already shows (the end, an offer) say nothing more.
    if (text) $("message").textContent = text;
  }
}

// A notice's event as a sentence, with this game's sides.
function noticeText(event) {
  return notice(event, game.sides || ["white", "black"]);
}

// The last move, read out by screen readers (a live region): who, and the move in the
// notation the page shows.
function announceMove() {
  const named = game.notation[$("notation").value];
  const i = game.moves.length - 1;
  const move = named && named.length === game.moves.length ? named[i] : game.moves[i];
  const sides = game.sides || ["white", "black"];
  const mover = game.toMove === sides[0] ? sides[1] : sides[0];
  $("announce").textContent = t("moved", { side: sideName(mover), move });
}

// Pieces on the board of a FEN: fewer after a move means a capture.
function pieceCount(fen) {
  return (fen || "").split(" ")[0].replace(/[^A-Za-z]/g, "").length;
}

// The sound for what a new state shows: the end of the game, else the last move's kind. The
// first state of the page (the game as it stood) makes none.
function soundFor(before, st) {
  if (!before.fen) return;
  const wasLive = before.status === "started" || before.status === "created";
  if (wasLive && !(game.status === "started" || game.status === "created")) return sound("end");
  if (game.moves.length <= before.plies) return;
  announceMove();
  if (game.check) return sound("check");
  sound(pieceCount(game.fen) < pieceCount(before.fen) ? "capture" : "move");
}

function onState(st) {
  const before = { fen: game.fen, plies: (game.moves || []).length, status: game.status };
  onStateInner(st);
  soundFor(before, st);
  const live = game.status === "started" || game.status === "created";
  playPremove(game, before.plies, live, sendMove);
  draw();
}

function onStateInner(st) {
  if (st.fen) game.fen = st.fen;
  if (st.moves !== undefined) game.moves = typeof st.moves === "string" ? st.moves.split(" ").filter(Boolean) : st.moves;
  if (st.notation) game.notation = st.notation;
  if (st.san) game.notation.san = st.san;
  game.status = st.status || game.status;
  game.endReason = st.reason || "";
  game.winner = st.winner;
  // Where the server says whether a draw may be claimed now, the claim button follows it.
  game.claimable = st.claimable;
  game.legal = st.legal || null;
  const [first, second] = game.sides || ["white", "black"];
  game.toMove = st.turn || (game.moves.length % 2 === 0 ? first : second);
  game.check = st.check ? kingSquare() : null;
  game.offer = st.wdraw ? first : st.bdraw ? second : null;
  game.claimable = !!st.claimable;
  game.reason = st.explanation || "";
  game.reasonZh = st.explanation_zh || "";
  readActions(game, st);
  if (st.wtime !== undefined) {
    // wtime/btime are the first and second player's (Red's and Black's in Xiangqi).
    const running = game.status === "started" ? (game.toMove === first ? "white" : "black") : null;
    // With a per-move limit, what is left of it for the move being thought over.
    const moveLeft = st.moveLeft ?? null;
    game.clock = { white: st.wtime, black: st.btime, at: performance.now(), running, moveLeft };
  }
}

// The square of the king (general) of the side to move, from the FEN.
function kingSquare() {
  const first = game.toMove === (game.sides || ["white"])[0];
  const pieces = parseFen(game.kind, game.fen);
  return Object.keys(pieces).find((sq) => pieces[sq] === (first ? "K" : "k")) || null;
}

const board = new Board(
  document.createElement("div"),
  (move) => {
    if (control) control.move(move);
    else sendMove(move);
  },
  (move) => {
    game.premove = move;
    draw();
  },
);

function flipped() {
  return game.flipped ?? game.mySide === "black";
}

function draw() {
  if (!game.fen) return;
  const host = $("board");
  if (board.host !== host) board.host = host;
  const live = game.status === "started" || game.status === "created";
  const [first] = game.sides || ["white"];
  const xq = game.kind === "xiangqi";
  $("title").textContent = [t(xq ? "xiangqiTitle" : "chessTitle"), game.ruleset, game.rules].filter(Boolean).join(" · ");
  document.title = `arbiter · ${t(xq ? "xiangqiTitle" : "chessTitle")}`;
  board.render({
    kind: game.kind,
    fen: game.fen,
    flipped: flipped(),
    lastMove: game.moves.length ? game.moves[game.moves.length - 1] : null,
    check: game.check,
    // Without a list of legal moves from the server, any move is sent and the referee rules.
    legal: live ? game.legal : [],
    first,
    letters: $("letters").checked,
    mySide: game.mySide,
    canMove: Boolean(game.token) && live,
    toMove: game.toMove,
    premoving: premoving(game, live),
    premove: game.premove || null,
    boardLabel: t("boardOf", { game: t(xq ? "xiangqiTitle" : "chessTitle") }),
    pointLabel: (sq, p) => `${sq} ${p ? strings().pieceNames[game.kind][p] : t("emptyPoint")}`,
    pickedLabel: t("pickedUp"),
    legalLabel: t("canMoveHere"),
  });
  drawMoves(game);
  const over = !live;
  if (game.mode === "seat" || game.mode === "watch") rematch(game.id, over);
  const outcome = game.winner ? t("wins", { side: sideName(game.winner) }) : game.status === "aborted" ? t("aborted") : t("draw");
  const status = $("status");
  if (over) {
    // An abort says no more; a game the arbiter called off says who.
    status.textContent = game.status === "aborted" && game.endReason !== "called_off" ? outcome : t("verdict", { outcome, reason: reasonName(game.endReason || game.status, game.kind) });
  } else {
    status.textContent = `${t("toMove", { side: sideName(game.toMove) })}${game.check ? ` — ${t("check")}` : ""}`;
  }
  status.dataset.status = game.status;
  status.classList.toggle("over", over);
  $("explanation").hidden = !(over && game.reason);
  const ending = { winner: game.winner, turn: game.toMove, sides: game.sides || ["white", "black"] };
  $("explanation").textContent = over && game.reason ? endExplanation(game.endReason, game.reason, game.reasonZh, ending) : "";
  // Spectators see no buttons, players only those that mean something now. The console and
  // the device have their own.
  drawActions(game, over);
  drawPremove(game);
  $("pgn").href = `/api/game/${game.id}/pgn`;
  $("seat").textContent =
    game.mode === "arbiter" ? t("youArbiter") : game.mode === "device" ? t("youDevice") : game.token ? t("youPlay", { side: sideName(game.mySide) || "?" }) : t("spectating");
  $("seat").classList.toggle("spectator", !game.token);
  $("play").classList.toggle("spectating", !game.token);
  $("promotion-box").hidden = xq;
  $("pieces-box").hidden = !xq;
  // The clock of the side at the bottom of the board goes below it, the other above.
  const [top, bottom] = flipped() ? ["clock-white", "clock-black"] : ["clock-black", "clock-white"];
  $(top).classList.add("top");
  $(top).classList.remove("bottom");
  $(bottom).classList.add("bottom");
  $(bottom).classList.remove("top");
  $("board").dataset.kind = game.kind;
  drawBack();
  if (control) control.draw();
}

// The way back to the game's event: a player's own event page (their seat token is their
// event token), else the event's public page.
function drawBack() {
  $("back").hidden = !game.event;
  if (!game.event) return;
  const link = $("event-link");
  const own = game.mode === "seat" && game.token;
  link.href = own ? `/event/${game.event}#player=${game.token}` : `/event/${game.event}`;
  link.textContent = t(own ? "backToYourEvent" : "backToEvent");
}

function tickClocks() {
  const c = game.clock;
  const now = performance.now();
  const [first, second] = game.sides || ["white", "black"];
  for (const [side, name] of [["white", first], ["black", second]]) {
    let ms = c[side] || 0;
    if (c.running === side) ms = Math.max(0, ms - (now - c.at));
    const s = Math.ceil(ms / 1000);
    const text = `${sideName(name)} ${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
    const e = $(`clock-${side}`);
    if (!e.firstElementChild) e.innerHTML = '<span class="who"></span><span class="time"></span><span class="move"></span>';
    const [whoBox, timeBox, moveBox] = e.children;
    const who = playerName((game.players || [])[side === "white" ? 0 : 1]);
    if (whoBox.textContent !== who) whoBox.textContent = who;
    if (timeBox.textContent !== text) timeBox.textContent = text;
    const left = c.running === side && c.moveLeft !== null && c.moveLeft !== undefined ? Math.max(0, c.moveLeft - (now - c.at)) : null;
    const move = left === null ? "" : t("moveLeft", { s: Math.ceil(left / 1000) });
    if (moveBox.textContent !== move) moveBox.textContent = move;
    if (left !== null) ms = Math.min(ms, left);
    e.classList.toggle("running", c.running === side);
    e.classList.toggle("low", ms < 10000);
  }
  requestAnimationFrame(tickClocks);
}

// A seat's player as the stream names them: their name, the computer's level, or nothing for
// an anonymous player (the side's name beside the time says enough).
function playerName(p) {
  if (!p) return "";
  if (p.aiLevel) return t("computerLevel", { level: p.aiLevel });
  return p.name || "";
}

// The socket (or after it failed to open twice, the stream), resumed after a drop from the
// last version seen.
async function follow() {
  let failures = 0;
  for (;;) {
    try {
      if (failures < 2 && "WebSocket" in window) {
        await followSocket().catch((e) => {
          failures += 1;
          throw e;
        });
      } else {
        await followStream();
      }
    } catch (e) {
      $("connection").textContent = t("reconnecting", { error: await errorText(e) });
    }
    if (game.status !== "started" && game.status !== "created") return;
    await new Promise((r) => setTimeout(r, 1000));
  }
}

// Until the socket closes: rejects if it does not open.
async function followSocket() {
  const since = game.connected && game.version >= 0 ? game.version : null;
  const token = game.mode === "seat" ? game.token : null;
  let closed;
  const done = new Promise((r) => (closed = r));
  socket = await GameSocket.open(game.id, token, since, onEvent, () => {
    socket = null;
    closed();
  });
  game.connected = true;
  $("connection").textContent = "";
  $("connection").dataset.via = "socket";
  await done;
}

async function followStream() {
  // The first connection starts with `gameFull`; a reconnection asks only for what it missed.
  // (A game with no event yet is at version -1: it is asked for whole again.)
  const since = game.connected && game.version >= 0 ? `?since=${game.version}` : "";
  const res = await fetch(`/api/board/game/stream/${game.id}${since}`, {
    headers: game.token ? { Authorization: `Bearer ${game.token}` } : {},
  });
  if (!res.ok) throw new Error(`${res.status}`);
  game.connected = true;
  $("connection").dataset.via = "stream";
  // Back: the stream answers again.
  $("connection").textContent = "";
  await readLines(res, (line) => {
    onEvent(line);
  });
}

async function play(id) {
  game.id = id;
  const fragment = location.hash;
  // The token leaves the address bar (and the history) at once, before anything is awaited.
  if (/(seat|arbiter|device|challenge)=/.test(fragment)) history.replaceState(null, "", location.pathname);
  await takeChallenge(fragment);
  game.token = await seatFromUrl(fragment);
  if (game.mode === "arbiter") control = new Console(game, noticeText);
  if (game.mode === "device") control = new Device(game);
  // A seat link opened where this game already shows changes only the fragment, which loads
  // nothing: load the page again to take the seat (or to watch).
  addEventListener("hashchange", () => {
    if (/(^#|&)(seat=|arbiter=|device=|watch)/.test(location.hash)) location.reload();
  });
  $("play").hidden = false;
  setupActions(game, act, draw);
  $("claim").addEventListener("click", () => act({ t: "claim-draw" }));
  $("resign").addEventListener("click", () => act({ t: "resign" }));
  $("abort").addEventListener("click", () => act({ t: "abort" }));
  $("flip").addEventListener("click", () => {
    game.flipped = !flipped();
    draw();
  });
  $("letters").addEventListener("change", draw);
  $("pieces").value = pieceScript();
  $("pieces").addEventListener("change", () => {
    setPieceScript($("pieces").value);
    draw();
  });
  $("sound").checked = soundOn();
  $("sound").addEventListener("change", () => setSound($("sound").checked));
  unlockSound();
  $("notation").addEventListener("change", () => {
    localStorage.setItem(`notation:${game.kind}`, $("notation").value);
    drawMoves(game);
  });
  requestAnimationFrame(tickClocks);
  follow();
}

const m = /^\/game\/([A-Za-z0-9_-]+)/.exec(location.pathname);
if (m) {
  game.id = m[1];
  setupLanguage(() => {
    $("notation").dataset.kind = "";
    draw();
  });
  play(m[1]);
} else {
  setupLanguage(lobbyLabels);
  lobby();
}

