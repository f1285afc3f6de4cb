// The Lua scripts of RedisRunStore (redis.js): every step that reads and writes is one script,
// atomic on one Redis server. Keys (under the store's prefix): `run:<id>` (hash: its state,
// `segs` the log's segments committed), `log:<id>` (list: its segments, store-redis-log.js, whose
// scripts write and read it), `lease:<id>` (the instance running it), `sessionruns:<s>`
// (sorted set: its session's running runs, exclusive or not, by deadline: an exclusive start
// is refused while any of them still runs), `sessionlast:<s>` (the session's last run started),
// `principalruns:<p>` (sorted set: a principal's runs by the order they started, `seq`), `running` and `ended` (sorted sets of the runs
// kept, by deadline and by end: `maxRuns` counts them and the oldest ended run makes room).
// A run's deadline is when its keys expire unless renewed: its instance died then.
//
// Flags (Redis 7; stripped for older servers): scripts that only read are `no-writes`, so they
// run when Redis is out of memory (maxmemory + noeviction): readers of an ended run still get
// its events. Scripts that end, cancel, renew or mark a run lost write a few bytes at most and
// free more: `allow-oom`, so a full Redis still ends runs. START and APPEND grow the data and
// are refused then (the store rejects with STORE_UNAVAILABLE).

/** The flag of scripts that only read (they run when Redis is out of memory). */
export const RO = "#!lua flags=no-writes\n";
const OOM = "#!lua flags=allow-oom\n";
/** Flags, none: refused as a whole when Redis is out of memory (not halfway, after a first write). */
export const DENY_OOM = "#!lua\n";

// Marks run `id` ended with `status` at `now`: its lease freed, out of its session's running
// runs, its keys expiring.
const MARK_ENDED = `
local function mark_ended(p, id, status, now, retention)
  local run = p .. 'run:' .. id
  redis.call('HSET', run, 'status', status, 'endedAt', now)
  redis.call('DEL', p .. 'lease:' .. id)
  redis.call('PEXPIRE', p .. 'log:' .. id, retention)
  redis.call('PEXPIRE', run, 2 * retention)
  local session = redis.call('HGET', run, 'session')
  if session then
    redis.call('ZREM', p .. 'sessionruns:' .. session, id)
    -- The session's last run stays known as long as the run.
    if redis.call('GET', p .. 'sessionlast:' .. session) == id then redis.call('PEXPIRE', p .. 'sessionlast:' .. session, 2 * retention) end
  end
  redis.call('ZREM', p .. 'running', id)
  redis.call('ZADD', p .. 'ended', now, id)
  redis.call('PUBLISH', p .. 'wake:' .. id, status)
end
`;

// Marks run `id` lost when it is running and its lease lapsed; returns its status then.
const LOST_IF_LAPSED = `${MARK_ENDED}
local function lost_if_lapsed(p, id, status, now, retention)
  if status == 'running' and redis.call('EXISTS', p .. 'lease:' .. id) == 0 then
    mark_ended(p, id, 'lost', now, retention)
    return 'lost'
  end
  return status
end
`;

// ARGV: prefix, id, protocol, session, principal, meta, exclusive, owner, leaseMs, now,
// retention, hasSession, hasPrincipal, keepMs, maxRuns.
const START = `${DENY_OOM}${LOST_IF_LAPSED}
local p, id = ARGV[1], ARGV[2]
local now, retention = tonumber(ARGV[10]), tonumber(ARGV[11])
local run = p .. 'run:' .. id
-- The index forgets the runs whose keys expired (each once: O(log n) per run).
redis.call('ZREMRANGEBYSCORE', p .. 'ended', '-inf', now - 2 * retention)
redis.call('ZREMRANGEBYSCORE', p .. 'running', '-inf', now)
if redis.call('EXISTS', run) == 1 then return 'EXISTS' end
local sessionKey = p .. 'sessionruns:' .. ARGV[4]
if ARGV[12] == '1' then
  -- The session forgets its runs whose keys expired (their instance died).
  redis.call('ZREMRANGEBYSCORE', sessionKey, '-inf', now)
  if ARGV[7] == '1' then
    -- Exclusive: refused while any run of the session still runs (a lapsed lease is lost).
    for _, other in ipairs(redis.call('ZRANGE', sessionKey, 0, -1)) do
      local status = redis.call('HGET', p .. 'run:' .. other, 'status')
      if lost_if_lapsed(p, other, status, now, retention) == 'running' then return 'BUSY' end
      redis.call('ZREM', sessionKey, other)
    end
  end
end
if redis.call('ZCARD', p .. 'ended') + redis.call('ZCARD', p .. 'running') >= tonumber(ARGV[15]) then
  -- Full: the run renewed longest ago may be a dead instance's (lost: ended), then the oldest
  -- ended run is forgotten.
  local stale = redis.call('ZRANGE', p .. 'running', 0, 0)[1]
  if stale then
    local status = redis.call('HGET', p .. 'run:' .. stale, 'status')
    if not status then redis.call('ZREM', p .. 'running', stale) else lost_if_lapsed(p, stale, status, now, retention) end
  end
  local oldest = redis.call('ZRANGE', p .. 'ended', 0, 0)[1]
  if not oldest then return 'FULL' end
  redis.call('DEL', p .. 'run:' .. oldest, p .. 'log:' .. oldest, p .. 'lease:' .. oldest)
  redis.call('ZREM', p .. 'ended', oldest)
end
redis.call('HSET', run, 'protocol', ARGV[3], 'meta', ARGV[6], 'status', 'running', 'first', 0, 'next', 0,
  'bytes', 0, 'lastRead', ARGV[10], 'endedAt', 0)
if ARGV[12] == '1' then
  redis.call('HSET', run, 'session', ARGV[4])
  redis.call('ZADD', sessionKey, now + tonumber(ARGV[14]), id)
  redis.call('PEXPIRE', sessionKey, ARGV[14])
  redis.call('SET', p .. 'sessionlast:' .. ARGV[4], id, 'PX', tonumber(ARGV[14]) + 2 * retention)
end
if ARGV[13] == '1' then redis.call('HSET', run, 'principal', ARGV[5]) end
-- The principal's runs by start, newest kept (at most maxRuns), for list(); "" for anonymous ones.
local mine = p .. 'principalruns:' .. ARGV[5]
redis.call('ZADD', mine, redis.call('INCR', p .. 'seq'), id)
if redis.call('ZCARD', mine) > tonumber(ARGV[15]) then redis.call('ZREMRANGEBYRANK', mine, 0, -tonumber(ARGV[15]) - 1) end
redis.call('PEXPIRE', mine, tonumber(ARGV[14]) + 2 * retention)
redis.call('PEXPIRE', run, ARGV[14])
redis.call('SET', p .. 'lease:' .. id, ARGV[8], 'PX', ARGV[9])
redis.call('ZADD', p .. 'running', now + tonumber(ARGV[14]), id)
return 'OK'
`;

/** Whether the caller (ARGV owner) holds run id's lease; takes it back when it lapsed unnoticed. */
export const HOLDS_FN = `
local function holds(p, id, owner, leaseMs)
  local status = redis.call('HGET', p .. 'run:' .. id, 'status')
  if status ~= 'running' then return status or 'unknown' end
  local lease = redis.call('GET', p .. 'lease:' .. id)
  if lease == owner then return 'held' end
  if lease then return 'lost' end
  redis.call('SET', p .. 'lease:' .. id, owner, 'PX', leaseMs)
  return 'held'
end
`;

const HOLDS = `${LOST_IF_LAPSED}${HOLDS_FN}`;

// ARGV: prefix, id, owner, status, now, retention.
const END = `${OOM}${HOLDS}
local p, id = ARGV[1], ARGV[2]
local held = holds(p, id, ARGV[3], 1000)
if held ~= 'held' then return held end
mark_ended(p, id, ARGV[4], tonumber(ARGV[5]), tonumber(ARGV[6]))
return 'ended'
`;

// ARGV: prefix, id, owner, leaseMs, now, keepMs.
const RENEW = `${OOM}${HOLDS}
local p, id = ARGV[1], ARGV[2]
local held = holds(p, id, ARGV[3], ARGV[4])
if held ~= 'held' then return held end
if redis.call('HGET', p .. 'run:' .. id, 'cancel') == '1' then held = 'cancel' end
redis.call('PEXPIRE', p .. 'lease:' .. id, ARGV[4])
redis.call('PEXPIRE', p .. 'run:' .. id, ARGV[6])
redis.call('PEXPIRE', p .. 'log:' .. id, ARGV[6])
local session = redis.call('HGET', p .. 'run:' .. id, 'session')
local deadline = tonumber(ARGV[5]) + tonumber(ARGV[6])
if session then
  redis.call('ZADD', p .. 'sessionruns:' .. session, deadline, id)
  redis.call('PEXPIRE', p .. 'sessionruns:' .. session, ARGV[6])
end
redis.call('ZADD', p .. 'running', 'XX', deadline, id)
return held
`;

// ARGV: prefix, id, now, retention. → the run's status, after marking it lost if its lease lapsed.
const LOST = `${OOM}${LOST_IF_LAPSED}
local p, id = ARGV[1], ARGV[2]
local status = redis.call('HGET', p .. 'run:' .. id, 'status')
if not status then return 'unknown' end
return lost_if_lapsed(p, id, status, tonumber(ARGV[3]), tonumber(ARGV[4]))
`;

// ARGV: prefix, id, now. Notes that a reader read a running run (for abandonment).
const TOUCH = `${OOM}
local run = ARGV[1] .. 'run:' .. ARGV[2]
if redis.call('HGET', run, 'status') == 'running' then redis.call('HSET', run, 'lastRead', ARGV[3]) end
return 1
`;

/**
 * Reads only: the age of an ended run by the store's clock (`now`, ms), against retention (its
 * keys expire by Redis's clock as well, which frees them).
 */
export const AGE = `
local function past(h_status, h_endedAt, now, retention)
  if h_status == 'running' then return 0 end
  local age = tonumber(now) - tonumber(h_endedAt or 0)
  if age > 2 * tonumber(retention) then return 2 end
  if age > tonumber(retention) then return 1 end
  return 0
end
`;

// Reads only. ARGV: prefix, id, now, retention. → {field, value, …, 'gone', 0|1, 'lapsed', 0|1} or {}.
const GET = `${RO}${AGE}
local p, id = ARGV[1], ARGV[2]
local run = p .. 'run:' .. id
local h = redis.call('HMGET', run, 'status', 'endedAt', 'next')
if not h[1] then return {} end
local age = past(h[1], h[2], ARGV[3], ARGV[4])
if age == 2 then return {} end
local out = redis.call('HGETALL', run)
local gone, lapsed = 0, 0
if h[1] == 'running' and redis.call('EXISTS', p .. 'lease:' .. id) == 0 then lapsed = 1 end
if age == 1 or (h[1] ~= 'running' and tonumber(h[3]) > 0 and redis.call('EXISTS', p .. 'log:' .. id) == 0) then gone = 1 end
table.insert(out, 'gone')
table.insert(out, gone)
table.insert(out, 'lapsed')
table.insert(out, lapsed)
return out
`;

// ARGV: prefix, id, now, retention. → 1 when a cancel was sent to the instance running it
// (published, and flagged for its next renewal, should the message be missed).
const CANCEL = `${OOM}${LOST_IF_LAPSED}
local p, id = ARGV[1], ARGV[2]
local status = redis.call('HGET', p .. 'run:' .. id, 'status')
if lost_if_lapsed(p, id, status, tonumber(ARGV[3]), tonumber(ARGV[4])) ~= 'running' then return 0 end
redis.call('HSET', p .. 'run:' .. id, 'cancel', '1')
redis.call('PUBLISH', p .. 'cancel', id)
return 1
`;

/** The scripts by name; a first line `#!lua flags=…` is dropped for servers before Redis 7. */
export const SCRIPTS = { START, END, RENEW, LOST, TOUCH, GET, CANCEL };
