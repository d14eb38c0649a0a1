// What the referee's events and endings say, as sentences in the page's language.

import { explanationOf, language, sideName, strings, t } from "./i18n.js";

// The referee's words on a decision of the arbiter's, before the arbiter's own: the status line
// already names the decision, so the explanation gives only the arbiter's reason.
const ARBITER_ENDS = { arbiter: "the arbiter's decision: ", called_off: "the arbiter called the game off: " };

const fill = (s, params) => s.replace(/\{(\w+)\}/g, (_, k) => params[k] ?? "");

// Why the game ended, and who says so: the arbiter for their decisions (an organiser's result
// for a game in play, a game the event no longer needs called off), the judge for the rules'
// (in the page's language where the judge decided: `reasonZh` is its Chinese). The endings the
// referee decides by itself (resignation, time, fouls, agreement …) are written from their code,
// the winner and the side to move (the one whose flag fell), not from the English `reason`.
export function endExplanation(endReason, reason, reasonZh, { winner, turn, sides } = {}) {
  const ends = strings().ends;
  if (ends[endReason] && !reasonZh && sides) {
    const other = (s) => (s === sides[0] ? sides[1] : sides[0]);
    const loser = winner ? other(winner) : turn;
    const key = endReason === "time" && !winner ? "time_draw" : endReason;
    return t("judge", { text: fill(ends[key], { loser: sideName(loser), other: sideName(other(loser)) }) });
  }
  const prefix = ARBITER_ENDS[endReason];
  if (prefix === undefined) return t("judge", { text: explanationOf({ en: reason, zh: reasonZh }, "en", "zh") });
  const text = reason.startsWith(prefix) ? reason.slice(prefix.length) : reason;
  return t("arbiterSays", { text });
}

// The referee's reason `code` in the page's language, the English `text` where it has none.
export function whyText(code, text, params) {
  const s = code && strings().why[code];
  return s ? fill(s, params) : text;
}

// A refused command's error (`why`: the referee's code) in the page's language, for `side`.
export function refusalText(error, side) {
  return whyText(error.why, error.message, { side: sideName(side), text: error.text || "" });
}

// A touch-move rule (the referee's `touch` data: code, article, squares) in the page's
// language, its article after it; `null` where the page has no words for its code.
function touchText(rule) {
  const s = strings();
  const words = rule && s.touch[rule.code];
  if (!words) return null;
  const then = rule.then ? s.touch[rule.then] || "" : "";
  const text = fill(words, { own: rule.own || "", theirs: rule.theirs || "", then });
  return rule.article ? text + fill(s.touchArticle, { article: rule.article }) : text;
}

// A notice's event as a sentence: who (of `sides`, first and second), and what the referee said.
export function notice(event, sides) {
  if (typeof event === "string") {
    const s = strings().notice[event.toLowerCase()];
    return s || "";
  }
  if (!event || typeof event !== "object") return "";
  const [kind, body] = Object.entries(event)[0] || [];
  if (!body || typeof body !== "object") return "";
  const who = body.side || body.by;
  const side = sideName(who === "second" ? sides[1] : sides[0]);
  const n = strings().notice;
  // The referee's reason in the page's language from its code; touch-move's rule and the
  // arbiter's own words (a foul they entered) are given as written.
  const touch = body.touch && touchText(body.touch);
  const why = (english) => {
    if (body.code === "touch_move") {
      if (!touch) return english;
      // A foul of touching itself, or a move breaking the rule.
      return body.touch.code.startsWith("touched_") ? touch : fill(strings().touchBroken, { rule: touch });
    }
    return body.code === "arbiter_foul" ? english : whyText(body.code, english, { side, text: body.text || "" });
  };
  const tb = strings().takebackNotice;
  switch (kind) {
    case "MoveRejected":
      return fill(n.moveRejected, { side, text: body.text, reason: body.code === "touch_move" ? touch || body.reason : why(body.reason) });
    case "Refused":
      return fill(n.refused, { side, reason: why(body.reason) });
    case "OfferRefused":
      return fill(n.offerRefused, { side, reason: why(body.reason) });
    case "ClaimRejected":
      return fill(n.claimRejected, { side, reason: why(body.reason) });
    case "Foul":
      return fill(n.foul, { side, count: body.count, limit: body.limit ? fill(n.foulLimit, { limit: body.limit }) : "", what: why(body.what) });
    case "Warning":
      return fill(n.warning, { side, what: why(body.what) });
    case "DrawDeclined":
      return fill(strings().drawDeclined, { side });
    case "TakebackProposed":
      return fill(tb.proposed, { side, plies: body.plies === 1 ? tb.plies1 : tb.plies2, back: body.back_to });
    case "TakebackDeclined":
      return fill(tb.declined, { side });
    case "TakenBack":
      return fill(tb.taken, { side, plies: body.plies === 1 ? tb.plies1 : tb.plies2 });
    case "MustVary":
      // The Chinese ruling already says who must vary (红方必须变着 …).
      if (language() === "zh" && body.explanation_zh) return body.explanation_zh;
      return fill(n.mustVary, { side, explanation: body.explanation });
    case "Obligation":
      if (touch) return `${side}${language() === "zh" ? "：" : ": "}${touch}`;
      // The rule's words may already name its article.
      if (String(body.rule).includes(`(${body.article})`)) return `${side}: ${body.rule}`;
      return fill(n.obligation, { side, rule: body.rule, article: body.article });
    case "Corrected":
      return fill(n.corrected, { article: body.article, ruling: body.ruling });
    case "TimeCorrected":
      return fill(n.timeCorrected, { side, reason: body.reason });
    default:
      return "";
  }
}
