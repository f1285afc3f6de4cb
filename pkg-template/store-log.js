// A run's log in memory, as MemoryRunStore keeps it: segments of consecutive events.
import { concatBytes } from "./values.js";

/**
 * A run's log in memory: segments of consecutive events (one per append: their bytes in one
 * array, an end offset per event), so an event costs 4 bytes above its own. The oldest events
 * are dropped one at a time (`dropFirst`), a segment once all of its are.
 */
export class EventLog {
  #segments = []; // #segments[#head] is the oldest kept
  #head = 0;
  /** The id of the first event kept, the id the next event takes, events and bytes kept. */
  first = 0;
  next = 0;
  count = 0;
  bytes = 0;

  /** Appends a segment (segmentOf): consecutive events following the last. */
  push({ first, bytes, ends }) {
    if (this.count === 0) this.first = first;
    this.#segments.push({ first, start: 0, ends, bytes });
    this.count += ends.length;
    this.bytes += bytes.byteLength;
    this.next = first + ends.length;
  }

  /** Drops the oldest event kept. */
  dropFirst() {
    const seg = this.#segments[this.#head];
    const { start, ends } = seg;
    this.bytes -= ends[start] - (start === 0 ? 0 : ends[start - 1]);
    this.count--;
    this.first++;
    seg.start++;
    if (seg.start === ends.length) {
      this.#segments[this.#head] = undefined;
      this.#head++;
      if (this.#head * 2 >= this.#segments.length) {
        this.#segments = this.#segments.slice(this.#head);
        this.#head = 0;
      }
    }
  }

  /**
   * The bytes of the events kept from id `from` on, as one new array (empty when none): what
   * readers get is theirs. `shared`: views of the segments instead (an array, one a segment).
   */
  from(from, shared = false) {
    from = Math.max(from, this.first);
    if (from >= this.next) return shared ? [] : new Uint8Array(0);
    // The segment holding `from`: the last whose first id is at most `from`.
    let lo = this.#head;
    let hi = this.#segments.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.#segments[mid].first <= from) lo = mid;
      else hi = mid - 1;
    }
    const parts = [];
    for (let i = lo; i < this.#segments.length; i++) {
      const { first, ends, bytes } = this.#segments[i];
      const k = i === lo ? from - first : 0;
      parts.push(k === 0 ? bytes : bytes.subarray(ends[k - 1]));
    }
    return shared ? parts : parts.length === 1 ? parts[0].slice() : concatBytes(parts);
  }
}
