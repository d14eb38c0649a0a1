// Move sounds, made with the Web Audio API (no sound files to fetch): a knock for a move, a
// lower and louder one for a capture, a rising pair for a check and a falling pair at the end.
// On unless the page's setting turns it off (kept in this browser). The last sound made is
// written on the page's root (`data-sound`, with a count) so that a test can see it was made.

let ctx = null;
let made = 0;

export function soundOn() {
  return localStorage.getItem("sound") !== "off";
}

export function setSound(on) {
  localStorage.setItem("sound", on ? "on" : "off");
}

// Browsers start audio only after the page has been touched: the context is made (or
// resumed) on the first pointer or key press.
export function unlockSound() {
  const start = () => {
    try {
      ctx = ctx || new AudioContext();
      if (ctx.state === "suspended") ctx.resume();
    } catch {
      ctx = null;
    }
  };
  addEventListener("pointerdown", start, { once: true, capture: true });
  addEventListener("keydown", start, { once: true, capture: true });
}

// One note: a short tone of `freq` Hz falling off over `length` seconds, `delay` seconds on.
function note(freq, length, gain, delay = 0) {
  const at = ctx.currentTime + delay;
  const osc = ctx.createOscillator();
  const amp = ctx.createGain();
  osc.type = "triangle";
  osc.frequency.setValueAtTime(freq, at);
  amp.gain.setValueAtTime(gain, at);
  amp.gain.exponentialRampToValueAtTime(0.001, at + length);
  osc.connect(amp).connect(ctx.destination);
  osc.start(at);
  osc.stop(at + length);
}

const SOUNDS = {
  move: () => note(520, 0.08, 0.35),
  capture: () => note(300, 0.14, 0.6),
  check: () => {
    note(660, 0.1, 0.35);
    note(880, 0.12, 0.35, 0.1);
  },
  end: () => {
    note(660, 0.15, 0.35);
    note(440, 0.3, 0.35, 0.15);
  },
};

export function sound(kind) {
  if (!soundOn()) return;
  made += 1;
  document.documentElement.dataset.sound = `${kind} ${made}`;
  if (!ctx || ctx.state !== "running") return;
  SOUNDS[kind]();
}
