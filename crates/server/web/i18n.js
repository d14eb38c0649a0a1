// The page's two languages, English and Chinese: the browser's language at first, then the
// choice made in the header's select, remembered in localStorage and in a cookie (with which
// the server writes the lobby and game page in it: their static labels are `labels.js`, the
// table the server reads too).

import { EVENT_STRINGS } from "./eventstrings.js";
import { LABELS } from "./labels.js";
import { PLAYER_STRINGS } from "./playerstrings.js";
import { REFEREE_STRINGS } from "./refereestrings.js";
import { SEEK_STRINGS } from "./seekstrings.js";

const $ = (id) => document.getElementById(id);

const STRINGS = {
  en: {
    linkFor: "{side}",
    playHere: "Play {side} here",
    computerLevel: "The computer, level {level}",
    moveLeft: "this move {s}s",
    pairingLabel: "Pairing",
    entrantLabel: "Player or team",
    boardOf: "{game} board: arrow keys to walk the points, Enter to pick a piece up and put it down",
    pickedUp: "picked up",
    canMoveHere: "can move here",
    emptyPoint: "empty",
    moved: "{side}: {move}",
    pieceNames: {
      xiangqi: {
        K: "Red general", A: "Red advisor", B: "Red elephant", N: "Red horse", R: "Red chariot", C: "Red cannon", P: "Red soldier",
        k: "Black general", a: "Black advisor", b: "Black elephant", n: "Black horse", r: "Black chariot", c: "Black cannon", p: "Black soldier",
      },
      chess: {
        K: "White king", Q: "White queen", R: "White rook", B: "White bishop", N: "White knight", P: "White pawn",
        k: "Black king", q: "Black queen", r: "Black rook", b: "Black bishop", n: "Black knight", p: "Black pawn",
      },
    },
    chessTitle: "Chess",
    xiangqiTitle: "象棋 Xiangqi",
    side: { red: "Red", black: "Black", white: "White" },
    toMove: "{side} to move",
    check: "check",
    wins: "{side} wins",
    draw: "Draw",
    verdict: "{outcome} ({reason})",
    aborted: "Aborted",
    youPlay: "You play {side}",
    spectating: "Spectating — you hold no seat in this game",
    offers: "{side} offers a draw",
    youOffered: "You offered a draw",
    judge: "The judge: {text}",
    arbiterSays: "The arbiter: {text}",
    reconnecting: "reconnecting ({error})",
    notice: {
      moveRejected: "{side}'s move {text} was not accepted: {reason}",
      refused: "{side}: {reason}",
      offerRefused: "{side}'s draw offer was not accepted: {reason}",
      claimRejected: "{side}'s claim was rejected: {reason}",
      foul: "Foul by {side} ({count}{limit}): {what}",
      foulLimit: " of {limit}",
      warning: "Warning to {side}: {what}",
      mustVary: "{side} must vary: {explanation}",
      obligation: "{side}: {rule} ({article})",
      corrected: "Arbiter ({article}): {ruling}",
      timeCorrected: "The arbiter corrected {side}'s time: {reason}",
      adjourned: "The game is adjourned",
      resumed: "The game resumes",
    },
    notation: { chinese: "Chinese", wxf: "WXF", iccs: "ICCS", san: "SAN", uci: "UCI" },
    reasons: {
      checkmate: "checkmate",
      stalemate: "stalemate",
      self_check: "self-check",
      perpetual_check: "perpetual check",
      forbidden_repetition: "forbidden repetition",
      repetition_draw: "repetition",
      natural_move_limit: "natural move limit",
      dead_position: "dead position",
      threefold_repetition: "threefold repetition",
      fivefold_repetition: "fivefold repetition",
      fifty_move_rule: "fifty-move rule",
      seventy_five_move_rule: "seventy-five-move rule",
      rules: "the rules",
      claim: "claim",
      agreement: "agreement",
      resignation: "resignation",
      time: "time",
      lateness: "lateness",
      illegal_moves: "illegal moves",
      technical_fouls: "technical fouls",
      clock_presses: "clock presses",
      false_claims: "false claims",
      refused_rules: "refused the rules",
      aborted: "aborted",
      arbiter: "the arbiter's decision",
      called_off: "called off by the arbiter",
    },
  },
  zh: {
    linkFor: "{side}",
    playHere: "在此执{side}",
    computerLevel: "电脑，{level}级",
    moveLeft: "本步{s}秒",
    pairingLabel: "对局",
    entrantLabel: "棋手或队伍",
    boardOf: "{game}棋盘：方向键移动，回车键拿起或放下棋子",
    pickedUp: "已拿起",
    canMoveHere: "可走到这里",
    emptyPoint: "空",
    moved: "{side}：{move}",
    pieceNames: {
      xiangqi: {
        K: "红帅", A: "红仕", B: "红相", N: "红马", R: "红车", C: "红炮", P: "红兵",
        k: "黑将", a: "黑士", b: "黑象", n: "黑马", r: "黑车", c: "黑炮", p: "黑卒",
      },
      chess: {
        K: "白王", Q: "白后", R: "白车", B: "白象", N: "白马", P: "白兵",
        k: "黑王", q: "黑后", r: "黑车", b: "黑象", n: "黑马", p: "黑兵",
      },
    },
    chessTitle: "国际象棋",
    xiangqiTitle: "象棋",
    side: { red: "红方", black: "黑方", white: "白方" },
    toMove: "轮到{side}走棋",
    check: "将军",
    wins: "{side}胜",
    draw: "和棋",
    verdict: "{outcome}（{reason}）",
    aborted: "对局取消",
    youPlay: "你执{side}",
    spectating: "观战中 — 你在本局没有席位",
    offers: "{side}提和",
    youOffered: "你已提和",
    judge: "裁判：{text}",
    arbiterSays: "裁判：{text}",
    reconnecting: "正在重新连接（{error}）",
    notice: {
      moveRejected: "{side}的着法 {text} 未被接受：{reason}",
      refused: "{side}：{reason}",
      offerRefused: "{side}的提和未被接受：{reason}",
      claimRejected: "{side}的申请被驳回：{reason}",
      foul: "{side}犯规（第{count}次{limit}）：{what}",
      foulLimit: "，限{limit}次",
      warning: "警告{side}：{what}",
      mustVary: "{side}必须变着：{explanation}",
      obligation: "{side}：{rule}（{article}）",
      corrected: "裁判（{article}）：{ruling}",
      timeCorrected: "裁判更正{side}的用时：{reason}",
      adjourned: "对局暂停",
      resumed: "对局继续",
    },
    notation: { chinese: "中文", wxf: "WXF", iccs: "ICCS", san: "SAN", uci: "UCI" },
    reasons: {
      checkmate: "将死",
      stalemate: "困毙",
      self_check: "送将",
      perpetual_check: "长将",
      forbidden_repetition: "禁止循环",
      repetition_draw: "循环作和",
      natural_move_limit: "自然限着",
      dead_position: "死局",
      threefold_repetition: "三次重复",
      fivefold_repetition: "五次重复",
      fifty_move_rule: "五十回合规则",
      seventy_five_move_rule: "七十五回合规则",
      rules: "规则",
      claim: "申请",
      agreement: "双方议和",
      resignation: "认输",
      time: "超时",
      lateness: "迟到",
      illegal_moves: "违例着法",
      technical_fouls: "技术犯规",
      clock_presses: "按钟犯规",
      false_claims: "错误申请",
      refused_rules: "拒绝服从规则",
      aborted: "取消",
      arbiter: "裁判裁决",
      called_off: "裁判取消",
    },
  },
};
for (const l of Object.keys(LABELS)) Object.assign(STRINGS[l], LABELS[l]);
for (const l of Object.keys(EVENT_STRINGS)) Object.assign(STRINGS[l], EVENT_STRINGS[l]);
for (const l of Object.keys(PLAYER_STRINGS)) Object.assign(STRINGS[l], PLAYER_STRINGS[l]);
for (const l of Object.keys(SEEK_STRINGS)) Object.assign(STRINGS[l], SEEK_STRINGS[l]);
for (const l of Object.keys(REFEREE_STRINGS)) Object.assign(STRINGS[l], REFEREE_STRINGS[l]);

// The judge's words: the review's verdict lines around the explanation, which the server
// writes in both languages from the verdict's facts (`explanation`, `explanation_zh`).
const JUDGE_STRINGS = {
  en: {
    reviewNotEnded: "Not ended by the rules after {ply} plies [{ruleset}]",
    reviewWins: "{side} wins",
    reviewDraw: "Draw",
    reviewIfClaimed: ", if claimed",
    reviewResult: "{outcome} — {how}, at ply {ply} [{ruleset}]",
    reviewPending: "Pending at ply {ply}: {text}",
  },
  zh: {
    reviewNotEnded: "走了{ply}着，按规则尚未结束［{ruleset}］",
    reviewWins: "{side}胜",
    reviewDraw: "和棋",
    reviewIfClaimed: "（须经要求）",
    reviewResult: "{outcome}——{how}，第{ply}着［{ruleset}］",
    reviewPending: "第{ply}着待定：{text}",
  },
};
for (const l of Object.keys(JUDGE_STRINGS)) Object.assign(STRINGS[l], JUDGE_STRINGS[l]);

/// A page's own texts (`{en: {...}, zh: {...}}`) merged into the tables: a page that alone
/// needs them loads them, and the other pages do not carry them.
export function addStrings(table) {
  for (const l of Object.keys(table)) Object.assign(STRINGS[l], table[l]);
}

/// The judge's explanation `v` (a verdict, an ending's state, a must-vary notice) in the
/// page's language: the Chinese one where the server wrote it, else the English.
export function explanationOf(v, en = "explanation", zh = "explanation_zh") {
  if (!v) return "";
  return (language() === "zh" && v[zh]) || v[en] || "";
}

/// The page's language: `en` or `zh`.
export function language() {
  return lang;
}

// Chess's stalemate is a draw, not Xiangqi's 困毙.
const CHESS_REASONS = { zh: { stalemate: "逼和" } };

function chooseLanguage() {
  const saved = localStorage.getItem("lang");
  if (saved && STRINGS[saved]) return saved;
  // The server's choice for the page it wrote (from the browser's Accept-Language).
  const served = document.documentElement.dataset.lang;
  if (served && STRINGS[served]) return served;
  return (navigator.language || "en").toLowerCase().startsWith("zh") ? "zh" : "en";
}

// The server writes the next page in the language chosen here.
function rememberLanguage() {
  if (localStorage.getItem("lang") && document.documentElement.dataset.lang !== lang) {
    document.cookie = `arbiter_lang=${lang}; Path=/; Max-Age=31536000; SameSite=Lax`;
  }
}

let lang = chooseLanguage();

/// The current language's table (its `notice` and `notation` names).
export function strings() {
  return STRINGS[lang];
}

/// The string `key` in the current language, `{name}` filled from `params`.
export function t(key, params = {}) {
  const s = STRINGS[lang][key] ?? STRINGS.en[key] ?? key;
  return s.replace(/\{(\w+)\}/g, (_, k) => params[k] ?? "");
}

export function sideName(side) {
  return STRINGS[lang].side[side] || side;
}

/// The name of a game's ending `code` in a game of `kind`.
export function reasonName(code, kind) {
  if (kind === "chess" && CHESS_REASONS[lang]?.[code]) return CHESS_REASONS[lang][code];
  return STRINGS[lang].reasons[code] || code.replaceAll("_", " ");
}

/// Every static label (`data-i18n`, `data-i18n-placeholder`, `data-i18n-label` for a name only
/// screen readers hear), then `redraw` for whatever the
/// page drew.
function translate(redraw) {
  document.documentElement.lang = lang === "zh" ? "zh-CN" : "en";
  for (const e of document.querySelectorAll("[data-i18n]")) e.textContent = t(e.dataset.i18n);
  for (const e of document.querySelectorAll("[data-i18n-placeholder]")) e.placeholder = t(e.dataset.i18nPlaceholder);
  for (const e of document.querySelectorAll("[data-i18n-label]")) e.setAttribute("aria-label", t(e.dataset.i18nLabel));
  $("lang").value = lang;
  redraw();
}

/// The header's language select, and the page translated now and on every change.
export function setupLanguage(redraw) {
  $("lang").value = lang;
  $("lang").addEventListener("change", () => {
    lang = $("lang").value;
    localStorage.setItem("lang", lang);
    rememberLanguage();
    translate(redraw);
  });
  rememberLanguage();
  translate(redraw);
}
