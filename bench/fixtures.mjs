// Seeded input generation shared by benchmarks and tests: the same seed gives the same bytes on
// every run and every runtime (no Math.random, no clock).

/** The default seed, as in eventsource-parser's benchmark fixtures. */
export const SEED = 0xc0ffee;

/** A small, fast, seeded PRNG (mulberry32). Returns floats in [0, 1). */
export function rng(seed = SEED) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ASCII = "abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ 0123456789 .,;:!?'\"\\/-";
// Multi-byte characters (2, 3 and 4 bytes in UTF-8, one ZWJ sequence), ~10% of the text.
const MULTI = ["é", "ß", "ж", "中", "文", "✓", "€", "😀", "🚀", "👩‍💻"];

/** `n` characters of seeded text, about 10% of them multi-byte. */
export function text(random, n) {
  let s = "";
  for (let i = 0; i < n; i++) {
    s += random() < 0.1
      ? MULTI[Math.floor(random() * MULTI.length)]
      : ASCII[Math.floor(random() * ASCII.length)];
  }
  return s;
}

/** A seeded, uuid-shaped id (`xxxxxxxx-xxxx-4xxx-8xxx-xxxxxxxxxxxx`). */
export function uuid(random) {
  const hex = (k) => Array.from({ length: k }, () => Math.floor(random() * 16).toString(16)).join("");
  return `${hex(8)}-${hex(4)}-4${hex(3)}-8${hex(3)}-${hex(12)}`;
}

/**
 * `count` Agent API content-delta events as the reference's `model_dump_json()` writes them
 * (compact, nulls kept, keys in wire order, non-ASCII unescaped), each with 5–65 characters of
 * text (~10% multi-byte), spread over a few messages (~220 bytes per event). Returns the JSON texts.
 */
export function contentEvents(count, seed = SEED) {
  const random = rng(seed);
  const events = [];
  let msgId = `msg_${uuid(random)}`;
  for (let i = 0; i < count; i++) {
    if (random() < 0.01) msgId = `msg_${uuid(random)}`;
    const event = {
      sequence_number: i + 2,
      object: "content",
      status: "in_progress",
      error: null,
      type: "text",
      index: 0,
      delta: true,
      msg_id: msgId,
      text: text(random, 5 + Math.floor(random() * 60)),
    };
    events.push(JSON.stringify(event));
  }
  return events;
}

/** The events framed as the reference server sends them: `data: <json>\n\n` per event. */
export function sse(events) {
  return events.map((e) => `data: ${e}\n\n`).join("");
}
