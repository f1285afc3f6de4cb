// A run's log in Redis (RedisRunStore, redis.js): the list `log:<id>` holds segments, one per
// append, each as two entries: a header `<first>:<start>:<end>,<end>,…` (the id of its first
// event, where that event starts, the end offset of each event) and its events' bytes, one
// after the other. An append is then two list entries however many events it carries, and a
// reader still resumes after any event: the segment holding it is found by its ids (a binary
// search bounded by the ids: every segment holds at least one event) and cut at that event.
//
// The bytes never pass through Lua on their way in (Redis hashes every string a script sees,
// byte by byte): the store sends `RPUSH log:<id> header bytes` and right after it, on the same
// connection, the script that commits the segment when the caller holds the run (and the
// header is the first one not committed yet), or removes what is not committed. The run's hash
// counts the segments committed (`segs`): readers see those only.
//
// The caps (`maxEvents`, `maxBytes`) count events and their bytes, not segments: the oldest
// events are dropped one at a time (the first segment's header then starts later; its bytes go
// once all of its events are dropped, as MemoryRunStore's). The first segment starts at the
// run's `first` event; `next` is the id the next event takes.
//
// The scripts that write and read the log; the others are in store-redis-scripts.js.

import { AGE, DENY_OOM, HOLDS_FN as HOLDS, RO } from "./store-redis-scripts.js";

// Headers: the first id; the first id, start and end offsets (numbers); where the k-th event
// kept starts; a header of events from \`first\`, starting at \`start\`, ending at ends[i..].
const SEGMENT = `
local function first_of(header)
  return tonumber(string.match(header, '^(%d+):'))
end
local function parse(header)
  local first, start, rest = string.match(header, '^(%d+):(%d+):(.*)$')
  local ends = {}
  for e in string.gmatch(rest, '%d+') do ends[#ends + 1] = tonumber(e) end
  return tonumber(first), tonumber(start), ends
end
local function start_of(header, k)
  if k <= 0 then return tonumber(string.match(header, '^%d+:(%d+):')) end
  local _, _, ends = parse(header)
  return ends[math.min(k, #ends)]
end
local function header(first, start, ends, i)
  return string.format('%d:%d:', first, start) .. table.concat(ends, ',', i)
end
`;

// Right after \`RPUSH log header bytes\`. ARGV: prefix, id, owner, leaseMs, maxEvents, maxBytes,
// keepMs, header (as pushed: "<first>:0:<ends>"), count, size (bytes).
const APPEND = `${DENY_OOM}${HOLDS}${SEGMENT}
local p, id = ARGV[1], ARGV[2]
local run, log = p .. 'run:' .. id, p .. 'log:' .. id
local h = redis.call('HMGET', run, 'first', 'next', 'bytes', 'segs')
local segs = tonumber(h[4]) or 0
-- Refused: what is not committed goes (a log with no expiry holds nothing committed).
local function refuse(answer)
  if segs == 0 or redis.call('PTTL', log) == -1 then redis.call('DEL', log) else redis.call('LTRIM', log, 0, 2 * segs - 1) end
  return answer
end
local held = holds(p, id, ARGV[3], ARGV[4])
if held ~= 'held' then return refuse(held) end
-- The segment pushed is the first not committed, unless its push or an append before it failed.
if redis.call('LINDEX', log, 2 * segs) ~= ARGV[8] then return refuse('gap') end
local first, next, bytes = tonumber(h[1]), tonumber(h[2]), tonumber(h[3])
local from, n, size = first_of(ARGV[8]), tonumber(ARGV[9]), tonumber(ARGV[10])
if next == first then
  first = math.max(from, next) -- the log starts with this segment
elseif from > next then
  return refuse('gap') -- ids are consecutive: an append after one refused is refused too
elseif from < next then
  -- Events logged already (an append retried after its answer was lost) are skipped.
  local skip = next - from
  if skip >= n then
    redis.call('LSET', log, 2 * segs, '')
    redis.call('LSET', log, 2 * segs + 1, '')
    redis.call('LREM', log, -2, '')
    return 'held'
  end
  local _, _, ends = parse(ARGV[8])
  redis.call('LSET', log, 2 * segs, header(next, ends[skip], ends, skip + 1))
  from, n, size = next, n - skip, size - ends[skip]
end
segs = segs + 1
bytes = bytes + size
next = from + n
-- Over the caps: the oldest events are dropped, one at a time (a segment once all of its are).
local maxEvents, maxBytes = tonumber(ARGV[5]), tonumber(ARGV[6])
local function over() return next - first > 1 and (next - first > maxEvents or bytes > maxBytes) end
while over() do
  local _, start, ends = parse(redis.call('LINDEX', log, 0))
  local k, cut = 0, start
  while k < #ends and over() do
    k = k + 1
    bytes = bytes - (ends[k] - cut)
    cut = ends[k]
    first = first + 1
  end
  if k == #ends then
    redis.call('LPOP', log)
    redis.call('LPOP', log)
    segs = segs - 1
  else
    redis.call('LSET', log, 0, header(first, cut, ends, k + 1))
  end
end
redis.call('HSET', run, 'bytes', bytes, 'first', first, 'next', next, 'segs', segs)
redis.call('PEXPIRE', p .. 'lease:' .. id, ARGV[4])
redis.call('PEXPIRE', log, ARGV[7])
redis.call('PUBLISH', p .. 'wake:' .. id, 'e')
return 'held'
`;

// The committed segments' bytes from segment \`lo\` on, the first from its event \`from\` on.
const PIECES = `
local function pieces(out, log, lo, segs, from)
  local entries = redis.call('LRANGE', log, 2 * lo, 2 * segs - 1)
  for i = 1, #entries, 2 do
    local k = i == 1 and from - first_of(entries[1]) or 0
    local start = start_of(entries[i], k)
    out[#out + 1] = start == 0 and entries[i + 1] or string.sub(entries[i + 1], start + 1)
  end
  return out
end
`;

// Reads only. ARGV: prefix, id, after, now, retention. → {status, first, next, bytes…} (the
// events after \`after\`, in pieces) ('lapsed': running with no lease) or {'NOT_FOUND'} or
// {'GONE', first (-1: the whole log)}.
const READ = `${RO}${AGE}${SEGMENT}${PIECES}
local p, id = ARGV[1], ARGV[2]
local run, log = p .. 'run:' .. id, p .. 'log:' .. id
local h = redis.call('HMGET', run, 'status', 'first', 'next', 'endedAt', 'segs')
if not h[1] then return {'NOT_FOUND'} end
local age = past(h[1], h[4], ARGV[4], ARGV[5])
if age == 2 then return {'NOT_FOUND'} end
local status, first, next, segs = h[1], tonumber(h[2]), tonumber(h[3]), tonumber(h[5]) or 0
if status == 'running' and redis.call('EXISTS', p .. 'lease:' .. id) == 0 then status = 'lapsed' end
if age == 1 or (status ~= 'running' and status ~= 'lapsed' and next > 0 and redis.call('EXISTS', log) == 0) then return {'GONE', '-1'} end
local from = tonumber(ARGV[3]) + 1
if from < first then return {'GONE', string.format('%d', first)} end
local out = {status, string.format('%d', first), string.format('%d', next)}
if from >= next or segs == 0 then return out end
-- The segment holding event \`from\`: the last whose first id is at most \`from\`. The segments
-- after it hold at least one event each, those before it too: its index is within [lo, hi].
local lo, hi = math.max(0, segs - (next - from)), math.min(segs - 1, from - first)
while lo < hi do
  local mid = math.floor((lo + hi + 1) / 2)
  if first_of(redis.call('LINDEX', log, 2 * mid)) <= from then lo = mid else hi = mid - 1 end
end
return pieces(out, log, lo, segs, from)
`;

// Reads only. ARGV: prefix, id, now, retention. → the events kept, in pieces (none once past retention).
const LOG = `${RO}${AGE}${SEGMENT}${PIECES}
local p, id = ARGV[1], ARGV[2]
local h = redis.call('HMGET', p .. 'run:' .. id, 'status', 'endedAt', 'first', 'segs')
if not h[1] or past(h[1], h[2], ARGV[3], ARGV[4]) > 0 or not h[4] then return {} end
return pieces({}, p .. 'log:' .. id, 0, tonumber(h[4]), tonumber(h[3]))
`;

/** The scripts of the log, by name (the store runs them as it runs those of store-redis-scripts.js). */
export const LOG_SCRIPTS = { APPEND_SEGMENT: APPEND, READ_SEGMENTS: READ, LOG_SEGMENTS: LOG };

const strict = new TextDecoder("utf-8", { fatal: true });
const lenient = new TextDecoder();
const utf8 = new TextEncoder();

/**
 * Segments (`{first, bytes, ends}`: consecutive events, the end offset of each in `bytes`) that
 * follow one another as one: its header, event count and size, and its bytes, as one Buffer
 * where the runtime has Buffer (node-redis writes it as it is: no text to encode), else as
 * their text.
 */
export function appendArgs(segments) {
  const ends = [];
  let base = 0;
  for (const { ends: own } of segments) {
    for (let i = 0; i < own.length; i++) ends.push(base + own[i]);
    base += own.length ? own[own.length - 1] : 0;
  }
  const bytes = bytesArg(segments, ends);
  return { header: `${segments[0].first}:0:${ends.join(",")}`, count: ends.length, size: ends[ends.length - 1], bytes };
}

/** The segments' bytes as one argument: a Buffer, or their text (`ends` then made the text's own, should they be no UTF-8). */
function bytesArg(segments, ends) {
  const B = globalThis.Buffer;
  if (B) {
    const views = segments.map(({ bytes }) => B.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    return views.length === 1 ? views[0] : B.concat(views);
  }
  const texts = segments.map(({ bytes }) => fatal(bytes));
  if (!texts.includes(null)) return texts.join("");
  // No UTF-8 (never the core's): each event's decoded text, with its own offsets.
  const pieces = segments.flatMap(({ bytes, ends: own }) => Array.from(own, (end, i) => lenient.decode(bytes.subarray(i ? own[i - 1] : 0, end))));
  let at = 0;
  pieces.forEach((piece, i) => (ends[i] = at += utf8.encode(piece).byteLength));
  return pieces.join("");
}

/** `bytes` as text, or `null` when they are no UTF-8. */
function fatal(bytes) {
  try {
    return strict.decode(bytes);
  } catch {
    return null;
  }
}

/** Events (`{id, bytes}`, ids consecutive) as one segment `{first, bytes, ends}`. */
export function segmentOf(events) {
  const ends = new Uint32Array(events.length);
  let size = 0;
  events.forEach((e, i) => (ends[i] = size += e.bytes.byteLength));
  const { buffer, byteOffset } = events[0].bytes;
  let at = byteOffset;
  // A view when they lie one after the other in one buffer; else a copy.
  const joined = events.every((e) => e.bytes.buffer === buffer && e.bytes.byteOffset === at && ((at += e.bytes.byteLength), true));
  if (joined) return { first: events[0].id, bytes: new Uint8Array(buffer, byteOffset, size), ends };
  const bytes = new Uint8Array(size);
  events.forEach((e, i) => bytes.set(e.bytes, i ? ends[i - 1] : 0));
  return { first: events[0].id, bytes, ends };
}

/** While appends are in flight, what waits goes as soon as it is this large (events, bytes). */
const BATCH_EVENTS = 256;
const BATCH_BYTES = 64 * 1024;

/**
 * A run's segments sent to the store as appends without waiting for each answer: one append at
 * once when none is in flight (a slow producer's events go as they come), else batches of
 * BATCH_EVENTS or BATCH_BYTES, each at most `batchBytes` (a larger event alone). The store
 * applies them in order (one connection to one Redis) and refuses any after a refused one (its
 * events would not follow the log): `failure` is the first refusal, after which nothing more is
 * sent. `push` returns a promise to wait for when more than `maxEvents` events or `maxBytes`
 * bytes wait (queued or in flight): the producer then waits for the store.
 */
export class AppendPipe {
  #send;
  #limits;
  #queued = [];
  #queuedEvents = 0;
  #queuedBytes = 0;
  /** Appends in flight, oldest first: `{done, events, bytes}`. */
  #flying = [];
  #waitingEvents = 0;
  #waitingBytes = 0;
  /** The first append that failed, or `null`. */
  failure = null;

  /** `send(segments)` appends segments that follow one another; limits: `{maxEvents, maxBytes, batchBytes}`. */
  constructor(send, limits) {
    this.#send = send;
    this.#limits = limits;
  }

  /** Queues a segment, sends what is due; a promise when the producer should wait. */
  push(segment) {
    if (this.failure) return undefined;
    const bytes = segment.bytes.byteLength;
    this.#queued.push(segment);
    this.#queuedEvents += segment.ends.length;
    this.#queuedBytes += bytes;
    this.#waitingEvents += segment.ends.length;
    this.#waitingBytes += bytes;
    this.#pump(false);
    return this.#full() ? this.#room() : undefined;
  }

  /** Sends everything and waits for every answer: the first failure, or `null`. */
  async flush() {
    while (this.failure === null && (this.#queued.length || this.#flying.length)) {
      this.#pump(true);
      await Promise.all(this.#flying.map((f) => f.done));
    }
    await Promise.all(this.#flying.map((f) => f.done));
    return this.failure;
  }

  #full() {
    return this.#waitingEvents > this.#limits.maxEvents || this.#waitingBytes > this.#limits.maxBytes;
  }

  async #room() {
    while (this.#full() && this.failure === null && this.#flying.length) await this.#flying[0].done;
  }

  /** Sends what is queued: all of it, or while due (nothing in flight, or a batch's worth). */
  #pump(all) {
    while (this.failure === null && this.#queued.length > 0
      && (all || this.#flying.length === 0 || this.#queuedEvents >= BATCH_EVENTS || this.#queuedBytes >= BATCH_BYTES)) {
      const batch = this.#take();
      const flight = { events: 0, bytes: 0 };
      for (const s of batch) {
        flight.events += s.ends.length;
        flight.bytes += s.bytes.byteLength;
      }
      this.#queuedEvents -= flight.events;
      this.#queuedBytes -= flight.bytes;
      flight.done = this.#send(batch).catch((e) => {
        this.failure ??= e;
      }).finally(() => {
        this.#flying.splice(this.#flying.indexOf(flight), 1);
        this.#waitingEvents -= flight.events;
        this.#waitingBytes -= flight.bytes;
        this.#pump(false);
      });
      this.#flying.push(flight);
    }
    if (this.failure !== null) {
      this.#queued = [];
      this.#queuedEvents = this.#queuedBytes = 0;
    }
  }

  /** The queued segments of one append: at most `batchBytes` (a larger event alone), a segment cut between events if need be. */
  #take() {
    const max = this.#limits.batchBytes;
    const batch = [];
    let size = 0;
    while (this.#queued.length > 0) {
      const s = this.#queued[0];
      if (size + s.bytes.byteLength <= max) {
        batch.push(this.#queued.shift());
        size += s.bytes.byteLength;
        continue;
      }
      // The events of `s` that fit (at least one when the batch is empty) go; the rest waits.
      let k = 0;
      while (k < s.ends.length && size + s.ends[k] <= max) k++;
      if (k === 0 && batch.length === 0) k = 1;
      if (k > 0) {
        const cut = s.ends[k - 1];
        batch.push({ first: s.first, bytes: s.bytes.subarray(0, cut), ends: s.ends.subarray(0, k) });
        this.#queued[0] = { first: s.first + k, bytes: s.bytes.subarray(cut), ends: s.ends.subarray(k).map((e) => e - cut) };
      }
      break;
    }
    return batch;
  }
}
