// What the referee's events and endings say, as sentences in the page's language.

import { explanationOf, language, sideName, strings, t } from "./i18n.js";

// The referee's words on a decision of the arbiter's, before the arbiter's own: the status line
// already names the decision, so the explanation gives only the arbiter's reason.
const ARBITER_ENDS = { arbiter: "the arbiter's decision: ", called_off: "the arbiter called the game off: " };

// Why the game ended, and who says so: the arbiter for their decisions (an organiser's result
// for a game in play, a game the event no longer needs called off), the judge for the rules'
// (in the page's language where the judge decided: `reasonZh` is its Chinese).
export function endExplanation(endReason, reason, reasonZh) {
  const prefix = ARBITER_ENDS[endReason];
  if (prefix === undefined) return t("judge", { text: explanationOf({ en: reason, zh: reasonZh }, "en", "zh") });
  const text = reason.startsWith(prefix) ? reason.slice(prefix.length) : reason;
  return t("arbiterSays", { text });
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
  const fill = (s, params) => s.replace(/\{(\w+)\}/g, (_, k) => params[k] ?? "");
  switch (kind) {
    case "MoveRejected":
      return fill(n.moveRejected, { side, text: body.text, reason: body.reason });
    case "Refused":
      return fill(n.refused, { side, reason: body.reason });
    case "OfferRefused":
      return fill(n.offerRefused, { side, reason: body.reason });
    case "ClaimRejected":
      return fill(n.claimRejected, { side, reason: body.reason });
    case "Foul":
      return fill(n.foul, { side, count: body.count, limit: body.limit ? fill(n.foulLimit, { limit: body.limit }) : "", what: body.what });
    case "Warning":
      return fill(n.warning, { side, what: body.what });
    case "MustVary":
      // The Chinese ruling already says who must vary (红方必须变着 …).
      if (language() === "zh" && body.explanation_zh) return body.explanation_zh;
      return fill(n.mustVary, { side, explanation: body.explanation });
    case "Obligation":
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
