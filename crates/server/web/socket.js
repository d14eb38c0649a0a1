// The game's socket (`/api/socket/game/ID`): the same event lines as the NDJSON stream come in,
// commands go out and each gets an answer. The server pings it and credits our moves the lag
// its pings measure, so moves carry no `lag` of ours. The page falls back to the HTTP stream
// and POSTs when the socket cannot open (app.js).

export class GameSocket {
  // Opens; resolves once open (hello sent with the seat's token and where to resume), rejects
  // if it never opens. `onEvent` gets each event line, `onClose` is called once it closes.
  static open(id, token, since, onEvent, onClose) {
    return new Promise((resolve, reject) => {
      const scheme = location.protocol === "https:" ? "wss" : "ws";
      const ws = new WebSocket(`${scheme}://${location.host}/api/socket/game/${id}`);
      const s = new GameSocket(ws);
      ws.onopen = () => {
        const hello = { t: "hello" };
        if (token) hello.token = token;
        if (since !== null) hello.since = since;
        ws.send(JSON.stringify(hello));
        s.open = true;
        resolve(s);
      };
      // Event lines have a `type`, answers a `t`; an error answering no command (a refused
      // hello) goes to `onEvent` as it is.
      ws.onmessage = (m) => {
        const v = JSON.parse(m.data);
        if (!v.t || !s.answer(v)) onEvent(v);
      };
      ws.onclose = () => {
        for (const { fail } of s.waiting.values()) fail(new Error("the connection closed"));
        s.waiting.clear();
        if (s.open) onClose();
        else reject(new Error("no socket"));
        s.open = false;
      };
    });
  }

  constructor(ws) {
    this.ws = ws;
    this.open = false;
    this.next = 1;
    this.waiting = new Map();
  }

  // Sends a command (`{t: "move", move: "e2e4"}`, `{t: "resign"}`, …); resolves with its ack,
  // rejects with its error.
  send(message) {
    const id = this.next++;
    return new Promise((done, fail) => {
      this.waiting.set(id, { done, fail });
      this.ws.send(JSON.stringify({ ...message, id }));
    });
  }

  // Settles the command `v` answers; false for an error that answers none.
  answer(v) {
    const w = this.waiting.get(v.id);
    if (!w) return v.t !== "error";
    this.waiting.delete(v.id);
    if (v.t === "error") w.fail(Object.assign(new Error(v.error), { status: v.code, why: v.why, args: v.args }));
    else w.done(v);
    return true;
  }
}
