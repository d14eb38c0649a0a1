// The server's HTTP API as the page calls it, and the network delay its calls measure.

import { failure } from "./errors.js";

// Half the shortest recent round trip of an action: the network delay the server may credit to
// our clock when we move (`?lag=`, within its quota). The shortest, as the server's own work and
// queueing are not network.
const roundTrips = [];
export function lagEstimate() {
  return roundTrips.length ? Math.round(Math.min(...roundTrips) / 2) : 0;
}

export async function api(method, path, body, token) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  const sent = performance.now();
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  if (token) {
    roundTrips.push(performance.now() - sent);
    if (roundTrips.length > 8) roundTrips.shift();
  }
  const text = await res.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = { error: text };
  }
  // With the error's code and its sentence's values, for the page to say it in its language.
  if (!res.ok) throw failure(res, data);
  return data;
}

// Each NDJSON line of a streamed response, parsed, to `onLine` until the stream ends or
// `onLine` returns true (then the rest is cancelled).
export async function readLines(res, onLine) {
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buf = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buf += decoder.decode(value, { stream: true });
    let nl;
    while ((nl = buf.indexOf("\n")) >= 0) {
      const line = buf.slice(0, nl).trim();
      buf = buf.slice(nl + 1);
      if (line && onLine(JSON.parse(line))) {
        reader.cancel().catch(() => {});
        return;
      }
    }
  }
}
