// A non-streamed answer (a Responses `stream: false` request, an A2A `SendMessage`) waits for
// its run's end before it has anything to say. If the run ends within `runs.keepaliveMs`, the
// answer is sent as it is. If not, the answer starts: status 200, JSON,
// one space of JSON whitespace every `keepaliveMs` until the run's end, then the answer's own
// bytes (JSON allows whitespace before a value; every JSON reader skips it). So a proxy that
// gives up on a silent connection keeps it, and a runtime that learns that a client left only
// when a write fails (workerd) learns it: the write fails, the body is canceled, the request
// stops waiting, and the run, read by nobody, is abandoned. Where a client that leaves before
// the answer started is never noticed at all (workerd: the answer is dropped unread, the request
// goes on), the answer starts at once (`startAfterMs` 0), its spaces every `keepaliveMs`.
import { keepalive } from "./app-http.js";

/** The JSON whitespace a waiting answer carries while its run goes on. */
const SPACE = 0x20;
/**
 * The headers of an answer that started before its run's end. Not compressed on the way: a
 * compressor (an edge's, a proxy's) holds single spaces back, and they would neither keep the
 * connection nor find out that the client left. `no-transform` is what Cloudflare's edge and
 * proxies honour; `identity` what the others (miniflare, nginx) look at.
 */
const PADDED_HEADERS = { "content-type": "application/json", "cache-control": "no-cache, no-transform", "content-encoding": "identity" };
/** What the race of the run's end and the first `keepaliveMs` gives when the time ran out first. */
const STILL_WAITING = Symbol("still waiting");

/**
 * The answer to `request` once `wait(signal)` resolved (the run's end; `signal` aborts when the
 * client left), as `answer()` makes it. `failure(e)` is the answer to what `answer()` threw. An
 * answer that started (after `startAfterMs`, `keepaliveMs` by default; never when `keepaliveMs`
 * is 0) is a 200 whatever `answer()` gives: its body follows the whitespace already sent.
 * @param {Request} request
 * @param {{ keepaliveMs: number, startAfterMs?: number }} timing
 * @param {(signal: AbortSignal) => Promise<unknown>} wait
 * @param {() => Promise<Response>} answer
 * @param {(e: unknown) => Response} failure
 * @returns {Promise<Response>}
 */
export async function afterRunEnd(request, { keepaliveMs, startAfterMs = keepaliveMs }, wait, answer, failure) {
  const gone = new AbortController();
  const leave = () => gone.abort();
  request.signal?.addEventListener("abort", leave, { once: true });
  const ended = wait(gone.signal);
  if (!(keepaliveMs > 0)) {
    await ended;
    request.signal?.removeEventListener("abort", leave);
    return answer();
  }
  if (startAfterMs > 0) {
    let timer;
    const first = await Promise.race([ended, new Promise((resolve) => {
      timer = setTimeout(() => resolve(STILL_WAITING), startAfterMs);
    })]);
    clearTimeout(timer);
    if (first !== STILL_WAITING) {
      request.signal?.removeEventListener("abort", leave);
      return answer();
    }
  }
  return new Response(paddedBody(ended, gone, keepaliveMs, startAfterMs > 0, answer, failure), { headers: PADDED_HEADERS });
}

/**
 * Whitespace (now if `spaceFirst`) and every `keepaliveMs`, then, once `ended` resolved, the
 * bytes of `answer()`.
 */
function paddedBody(ended, gone, keepaliveMs, spaceFirst, answer, failure) {
  let alive = null;
  const space = () => new Uint8Array([SPACE]);
  return new ReadableStream({
    start(c) {
      if (spaceFirst) c.enqueue(space());
      alive = keepalive(keepaliveMs, () => {
        if (!gone.signal.aborted && c.desiredSize > 0) c.enqueue(space());
      });
      ended.then(async () => {
        alive.stop();
        if (gone.signal.aborted) return;
        let response;
        try {
          response = await answer();
        } catch (e) {
          response = failure(e);
        }
        const bytes = new Uint8Array(await response.arrayBuffer());
        if (gone.signal.aborted) return;
        c.enqueue(bytes);
        c.close();
      }).catch((e) => {
        if (!gone.signal.aborted) c.error(e);
      });
    },
    cancel() {
      alive?.stop();
      gone.abort();
    },
  });
}
