// Cutting a run's log into its events: SSE events written with ids (`id: N\n…\n\n`), as the
// builder writes them, found by their blank lines or by the builder's frames. What the stores
// and RunLog share; reading only (every byte is the core's).

/**
 * A store's writer of one run's log, for RunLog: `store[LOG_WRITER](id, {maxEvents, maxBytes,
 * batchBytes})` makes an object with `push(segment)` (a promise when the producer should wait),
 * `flush()` (the first failure, or `null`) and `failure`. A store without it gets `append`s.
 */
export const LOG_WRITER = Symbol("agentwire.logWriter");

/** The events (`{id, bytes}`, views) of segments. */
export function eventsOf(segments) {
  return segments.flatMap(({ first, bytes, ends }) =>
    Array.from(ends, (end, i) => ({ id: first + i, bytes: bytes.subarray(i ? ends[i - 1] : 0, end) })));
}

/**
 * Pushes to `ends` the end offset of each whole event (`…\n\n`) of `data` before `limit`, the
 * blank line searched from `at` on, a line at a time with a native search (`indexOf`).
 */
export function eventEnds(data, at, limit, ends) {
  for (let nl = data.indexOf(10, at); nl !== -1 && nl + 1 < limit; nl = data.indexOf(10, at)) {
    at = nl + 1;
    if (data[at] === 10) ends.push(++at);
  }
  return ends;
}

/**
 * The event ends of a builder's chunk of `frames` (builder.js `chunkFrames`: the end of each):
 * a frame is one event when the next starts with the next id; the others (the last, the emits
 * of several events) are searched.
 */
export function framedEnds(data, frames) {
  const ends = [];
  let id = idAt(data, 0); // of the frame at `start`: each frame's first id is read once
  frames.forEach((end, i) => {
    const start = i ? frames[i - 1] : 0;
    const next = i + 1 < frames.length ? idAt(data, end) : -1;
    if (next === id + 1) ends.push(end);
    else eventEnds(data, start, end, ends);
    id = next;
  });
  return ends;
}

/** The whole SSE events written with ids (`id: N\n…\n\n`) of `data`, as `{id, bytes}` views. */
export function splitEvents(data) {
  const ends = eventEnds(data, 0, data.length, []);
  return eventsOf([{ first: ends.length ? idAt(data, 0) : 0, bytes: data, ends }]);
}

/** The id of the last event of `chunk` (whole events `id: N\n…\n\n`). */
export function lastIdOf(chunk) {
  for (let at = chunk.lastIndexOf(10, chunk.length - 3); at > 0; at = chunk.lastIndexOf(10, at - 1)) {
    if (chunk[at - 1] === 10) return idAt(chunk, at + 1);
  }
  return idAt(chunk, 0);
}

/** The number after `id: ` on the first line of the event at `at`. */
export function idAt(bytes, at) {
  let n = 0;
  for (let i = at + 4; i < bytes.length && bytes[i] !== 10; i++) n = n * 10 + (bytes[i] - 48);
  return n;
}
