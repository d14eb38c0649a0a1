// The server's errors in the page's language. Every error the API answers carries its English
// `error`, a code `why` and the values its sentence takes (`args`); api.js and socket.js copy
// them onto the Error. The sentences of every code, in both languages, are errors.json, fetched
// the first time an error is shown (a page that meets none never loads them).

import { language, sideName, strings } from "./i18n.js";

let table = null;
function sentences() {
  table ??= fetch("/static/errors.json")
    .then((r) => (r.ok ? r.json() : {}))
    .catch(() => {
      table = null;
      return {};
    });
  return table;
}

// The Error of a failed response `res` whose body was `data` (parsed, or `{error: text}`): the
// server's English as its message, its status, code and the sentence's values.
export function failure(res, data) {
  const error = new Error((data && (data.error || data.message)) || `${res.status} ${res.statusText}`);
  error.status = res.status;
  if (data && data.why) error.why = data.why;
  if (data && data.args) error.args = data.args;
  return error;
}

// The arguments that name a side (`red`, `white` …), written as the page names sides.
const SIDES = new Set(["side", "first", "second"]);

// The sentence `s` with `args` in its {placeholders}; null if one is missing.
function filled(s, args) {
  let whole = true;
  const text = s.replace(/\{(\w+)\}/g, (_, k) => {
    if (args[k] === undefined || args[k] === null) whole = false;
    return SIDES.has(k) ? sideName(String(args[k])) : String(args[k]);
  });
  return whole ? text : null;
}

// Error `e` as a sentence in the page's language: from its code where the page knows it (the
// server's problems, the referee's refusals), else the server's English.
export async function errorText(e) {
  if (!e) return "";
  const said = e.why ? (await sentences())[e.why] : null;
  const s = said && said[language()];
  const referee = e.why && strings().why[e.why];
  const args = { text: "", ...(e.args || {}) };
  return (s && filled(s, args)) || (referee && filled(referee, args)) || e.message;
}

// Shows error `e` in element `el` (nothing for no error); a later call wins over an earlier
// one still waiting for the sentences.
const shown = new WeakMap();
export function showError(el, e) {
  shown.set(el, e);
  if (!e) {
    el.textContent = "";
    return Promise.resolve();
  }
  return errorText(e).then((text) => {
    if (shown.get(el) === e) el.textContent = text;
  });
}
