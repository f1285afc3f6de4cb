// Differential test against the real @ag-ui/client 1.0.0 (pinned in the workspace's
// devDependencies), run in-process through an AbstractAgent subclass whose run() replays the
// events (reference/ag-ui.md §6.3): the whole pipeline (compatibility boundary → enforcement →
// chunk expansion → verification → apply) runs in both. Seeded random event sequences — biased
// towards valid runs, and unbiased ones full of violations — must give the same messages, the
// same state, and the same accept/reject decision (and, for sequencing and chunk errors, the same
// error text). The events go to agentwire as SSE bytes split into random chunks.
import { test } from "node:test";
import assert from "node:assert/strict";
import { StreamAssembler, Translator } from "agentwire";
import { loadClient, replay } from "./agui-client.mjs";

const ROOT = process.env.AGENTWIRE_ROOT;
// Run through scripts/test.sh, which sets AGENTWIRE_ROOT; without it these tests fail (a
// skipped differential would pass unseen) unless AGENTWIRE_ALLOW_SKIP=1 asks to skip them.
const skip = !ROOT && process.env.AGENTWIRE_ALLOW_SKIP === "1" ? "AGENTWIRE_ROOT is not set" : false;

// Deterministic PRNG (mulberry32).
function rng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n) => Math.floor(next() * n);
  const pick = (xs) => xs[int(xs.length)];
  const chance = (p) => next() < p;
  return { next, int, pick, chance };
}

const TEXT = ["Hel", "lo", " wörld", "中文", "👩‍💻", "", "{\"a\":", "1}", "\n"];
const ROLES = ["assistant", "user", "system", "developer"];

function jsonValue(r, depth = 0) {
  switch (r.int(depth > 1 ? 4 : 6)) {
    case 0: return r.int(5);
    case 1: return r.pick(["x", "y", ""]);
    case 2: return r.chance(0.5);
    case 3: return null;
    case 4: return Array.from({ length: r.int(3) }, () => jsonValue(r, depth + 1));
    default: {
      const o = {};
      for (let i = r.int(3); i > 0; i--) o[r.pick(["a", "b", "c"])] = jsonValue(r, depth + 1);
      return o;
    }
  }
}

function patchOps(r) {
  const path = () => "/" + [r.pick(["a", "b", "c", "0"]), ...(r.chance(0.3) ? [r.pick(["a", "0", "1"])] : [])].join("/");
  return Array.from({ length: 1 + r.int(3) }, () => {
    const op = r.pick(["add", "add", "replace", "remove", "move", "copy", "test"]);
    if (op === "add" && r.chance(0.2)) return { op, path: `/${r.pick(["a", "b"])}/-`, value: jsonValue(r) };
    if (op === "move" || op === "copy") return { op, from: path(), path: path() };
    if (op === "remove") return { op, path: path() };
    return { op, path: path(), value: jsonValue(r) };
  });
}

function part(r) {
  return r.chance(0.5)
    ? { type: "text", text: r.pick(TEXT) }
    : { type: r.pick(["image", "audio", "document"]), source: r.chance(0.5)
      ? { type: "url", value: "https://x/y", mimeType: "image/png" }
      : { type: "data", value: "AAAA", mimeType: "audio/wav" } };
}

function message(r) {
  const id = r.pick(["m0", "m1", "m2", "c0", "t0", "a0"]);
  switch (r.int(6)) {
    case 0: return { id, role: "user", content: r.chance(0.5) ? r.pick(TEXT) : [part(r)] };
    case 1: return { id, role: "assistant", content: r.pick(TEXT), ...(r.chance(0.5) ? { toolCalls: [{ id: r.pick(["c0", "c1"]), type: "function", function: { name: "f", arguments: "{}" } }] } : {}) };
    case 2: return { id, role: "tool", content: r.pick(TEXT), toolCallId: r.pick(["c0", "c1"]) };
    case 3: return { id, role: "activity", activityType: r.pick(["plan", "search"]), content: { steps: [] } };
    case 4: return { id, role: "reasoning", content: r.pick(TEXT) };
    default: return { id, role: r.pick(["system", "developer"]), content: r.pick(TEXT) };
  }
}

/** One event, chosen with little regard for the current state (many violations). */
function anyEvent(r) {
  const mid = r.pick(["m0", "m1", "m2"]);
  const cid = r.pick(["c0", "c1", "c2"]);
  const rid = r.pick(["r0", "r1"]);
  const base = {};
  if (r.chance(0.1)) base.metadata = { k: r.int(3), [r.pick(["x", "y"])]: jsonValue(r) };
  if (r.chance(0.05)) base.subagentRunId = r.pick(["s0", "s1"]);
  if (r.chance(0.05)) base.futureField = 1;
  if (r.chance(0.05)) base.timestamp = 1700000000000 + r.int(1000);
  const kinds = [
    () => ({ type: "RUN_STARTED", threadId: "t", runId: r.pick(["r1", "r2"]), ...(r.chance(0.1) ? { input: { threadId: "t", runId: "r1", messages: [message(r)] } } : {}) }),
    () => ({ type: "RUN_FINISHED", threadId: "t", runId: "r1", ...(r.chance(0.3) ? { outcome: r.pick([{ type: "success" }, { type: "cancelled" }, { type: "interrupt", interrupts: [{ id: "i1", reason: "approval" }] }, { type: "future" }]) } : {}), ...(r.chance(0.2) ? { result: jsonValue(r) } : {}) }),
    () => ({ type: "RUN_ERROR", message: "boom", ...(r.chance(0.5) ? { code: "E" } : {}) }),
    () => ({ type: "TEXT_MESSAGE_START", messageId: mid, ...(r.chance(0.5) ? { role: r.pick(ROLES) } : {}), ...base }),
    () => ({ type: "TEXT_MESSAGE_CONTENT", messageId: mid, delta: r.pick(TEXT), ...base }),
    () => ({ type: "TEXT_MESSAGE_END", messageId: mid, ...base }),
    () => ({ type: "TEXT_MESSAGE_CHUNK", ...(r.chance(0.6) ? { messageId: mid } : {}), ...(r.chance(0.2) ? { role: r.pick(ROLES) } : {}), ...(r.chance(0.8) ? { delta: r.pick(TEXT) } : {}), ...base }),
    () => ({ type: "TOOL_CALL_START", toolCallId: cid, toolCallName: r.pick(["f", "g"]), ...(r.chance(0.6) ? { parentMessageId: r.pick(["m0", "m1", "p9", "c0"]) } : {}), ...base }),
    () => ({ type: "TOOL_CALL_ARGS", toolCallId: cid, delta: r.pick(TEXT), ...base }),
    () => ({ type: "TOOL_CALL_END", toolCallId: cid, ...base }),
    () => ({ type: "TOOL_CALL_CHUNK", ...(r.chance(0.6) ? { toolCallId: cid } : {}), ...(r.chance(0.6) ? { toolCallName: r.pick(["f", "g"]) } : {}), ...(r.chance(0.3) ? { parentMessageId: mid } : {}), ...(r.chance(0.8) ? { delta: r.pick(TEXT) } : {}), ...base }),
    () => ({ type: "TOOL_CALL_RESULT", messageId: r.pick(["t0", "t1", "m0"]), toolCallId: cid, content: r.chance(0.7) ? r.pick(TEXT) : [part(r)], ...base }),
    () => ({ type: "STATE_SNAPSHOT", snapshot: r.chance(0.8) ? { a: jsonValue(r), b: [1, 2] } : jsonValue(r), ...base }),
    () => ({ type: "STATE_DELTA", delta: patchOps(r), ...base }),
    () => ({ type: "MESSAGES_SNAPSHOT", messages: Array.from({ length: r.int(4) }, () => message(r)) }),
    () => ({ type: "ACTIVITY_SNAPSHOT", messageId: r.pick(["a0", "a1", "m0"]), activityType: r.pick(["plan", "search"]), content: { steps: [jsonValue(r)] }, ...(r.chance(0.3) ? { replace: r.chance(0.5) } : {}), ...base }),
    () => ({ type: "ACTIVITY_DELTA", messageId: r.pick(["a0", "a1", "m0"]), activityType: "plan", patch: r.chance(0.5) ? [{ op: "add", path: "/steps/-", value: r.int(9) }] : patchOps(r), ...base }),
    () => ({ type: "REASONING_START", messageId: rid, ...base }),
    () => ({ type: "REASONING_MESSAGE_START", messageId: rid, role: "reasoning", ...base }),
    () => ({ type: "REASONING_MESSAGE_CONTENT", messageId: rid, delta: r.pick(TEXT), ...base }),
    () => ({ type: "REASONING_MESSAGE_END", messageId: rid, ...base }),
    () => ({ type: "REASONING_MESSAGE_CHUNK", ...(r.chance(0.6) ? { messageId: rid } : {}), delta: r.pick(TEXT), ...base }),
    () => ({ type: "REASONING_END", messageId: rid, ...base }),
    () => ({ type: "REASONING_ENCRYPTED_VALUE", subtype: r.pick(["message", "tool-call"]), entityId: r.pick([mid, cid, rid]), encryptedValue: "enc" }),
    () => ({ type: "STEP_STARTED", stepName: r.pick(["s", "t"]), ...base }),
    () => ({ type: "STEP_FINISHED", stepName: r.pick(["s", "t"]), ...base }),
    () => ({ type: "SUBAGENT_STARTED", subagentRunId: r.pick(["s0", "s1"]), name: "sub" }),
    () => ({ type: "SUBAGENT_FINISHED", subagentRunId: r.pick(["s0", "s1"]) }),
    () => ({ type: "RAW", event: jsonValue(r), ...base }),
    () => ({ type: "CUSTOM", name: "c", value: jsonValue(r), ...base }),
    () => ({ type: "FUTURE_EVENT", x: 1 }),
    () => ({ type: "TEXT_MESSAGE_CONTENT", messageId: mid, delta: 5 }),
  ];
  return r.pick(kinds)();
}

/** A run that is mostly valid: opens what it uses, closes what it opened, then finishes. */
function validRun(r, wild) {
  const events = [{ type: "RUN_STARTED", threadId: "t", runId: "r1" }];
  const open = { text: new Set(), tool: new Set(), reasoning: new Set() };
  let n = 0;
  for (let steps = 3 + r.int(25); steps > 0; steps--) {
    const k = r.int(12);
    if (k < 3) {
      if (open.text.size && r.chance(0.6)) {
        const id = r.pick([...open.text]);
        if (r.chance(0.7)) events.push({ type: "TEXT_MESSAGE_CONTENT", messageId: id, delta: r.pick(TEXT) });
        else { events.push({ type: "TEXT_MESSAGE_END", messageId: id }); open.text.delete(id); }
      } else {
        const id = `m${n++ % 4}`;
        if (!open.text.has(id)) { events.push({ type: "TEXT_MESSAGE_START", messageId: id, ...(r.chance(0.3) ? { role: r.pick(ROLES) } : {}) }); open.text.add(id); }
      }
    } else if (k < 5) {
      if (open.tool.size && r.chance(0.6)) {
        const id = r.pick([...open.tool]);
        if (r.chance(0.7)) events.push({ type: "TOOL_CALL_ARGS", toolCallId: id, delta: r.pick(TEXT) });
        else { events.push({ type: "TOOL_CALL_END", toolCallId: id }); open.tool.delete(id); }
      } else {
        const id = `c${n++ % 4}`;
        if (!open.tool.has(id)) { events.push({ type: "TOOL_CALL_START", toolCallId: id, toolCallName: "f", ...(r.chance(0.5) ? { parentMessageId: r.pick(["m0", "m1", "p1"]) } : {}) }); open.tool.add(id); }
      }
    } else if (k < 6) {
      events.push({ type: "TOOL_CALL_RESULT", messageId: `t${n++}`, toolCallId: `c${r.int(4)}`, content: r.pick(TEXT) });
    } else if (k < 7) {
      if (open.reasoning.size && r.chance(0.6)) {
        const id = r.pick([...open.reasoning]);
        if (r.chance(0.6)) events.push({ type: "REASONING_MESSAGE_CONTENT", messageId: id, delta: r.pick(TEXT) });
        else { events.push({ type: "REASONING_MESSAGE_END", messageId: id }); open.reasoning.delete(id); }
      } else {
        const id = `r${n++ % 3}`;
        if (!open.reasoning.has(id)) { events.push({ type: "REASONING_MESSAGE_START", messageId: id, role: "reasoning" }); open.reasoning.add(id); }
      }
    } else if (k < 8) {
      events.push(r.chance(0.5) ? { type: "STATE_DELTA", delta: patchOps(r) } : { type: "STATE_SNAPSHOT", snapshot: { a: jsonValue(r), b: [1] } });
    } else if (k < 9) {
      // Chunks: a burst of one kind (they close the lane's other explicit streams' chunks only).
      const id = `k${n++}`;
      if (r.chance(0.5)) {
        events.push({ type: "TEXT_MESSAGE_CHUNK", messageId: id, delta: r.pick(TEXT) });
        for (let i = r.int(3); i > 0; i--) events.push({ type: "TEXT_MESSAGE_CHUNK", delta: r.pick(TEXT) });
      } else {
        events.push({ type: "TOOL_CALL_CHUNK", toolCallId: id, toolCallName: "g", ...(r.chance(0.5) ? { parentMessageId: "m0" } : {}), delta: "{" });
        for (let i = r.int(3); i > 0; i--) events.push({ type: "TOOL_CALL_CHUNK", delta: r.pick(TEXT) });
      }
    } else if (k < 10) {
      events.push({ type: "ACTIVITY_SNAPSHOT", messageId: `a${r.int(2)}`, activityType: "plan", content: { steps: [] } });
      if (r.chance(0.5)) events.push({ type: "ACTIVITY_DELTA", messageId: `a${r.int(2)}`, activityType: "plan", patch: [{ op: "add", path: "/steps/-", value: r.int(9) }] });
    } else if (k < 11) {
      if (r.chance(0.3)) events.push({ type: "MESSAGES_SNAPSHOT", messages: Array.from({ length: r.int(3) }, () => message(r)) });
      else events.push({ type: "CUSTOM", name: "x", value: jsonValue(r) });
    } else if (wild) {
      events.push(anyEvent(r)); // an occasional wild event
    } else {
      events.push({ type: "RAW", event: jsonValue(r) });
    }
  }
  for (const id of open.text) events.push({ type: "TEXT_MESSAGE_END", messageId: id });
  for (const id of open.tool) events.push({ type: "TOOL_CALL_END", toolCallId: id });
  for (const id of open.reasoning) events.push({ type: "REASONING_MESSAGE_END", messageId: id });
  events.push({ type: "RUN_FINISHED", threadId: "t", runId: "r1" });
  if (r.chance(0.2)) events.push(...validRun(r, wild)); // a second run on the same stream
  return events;
}

function randomRun(r) {
  const events = r.chance(0.8) ? [{ type: "RUN_STARTED", threadId: "t", runId: "r1" }] : [];
  for (let i = 2 + r.int(25); i > 0; i--) events.push(anyEvent(r));
  return events;
}

function ours(events, r) {
  const bytes = new TextEncoder().encode(events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join(""));
  const asm = new StreamAssembler({ protocol: "ag-ui" });
  for (let i = 0; i < bytes.length;) {
    const step = 1 + r.int(200);
    asm.push(bytes.subarray(i, i + step));
    i += step;
  }
  asm.finish();
  const snap = asm.snapshot();
  asm.free();
  return { messages: snap.messages, state: snap.state, error: snap.error?.source === "client" ? snap.error.message : undefined };
}

const RUNS = Number(process.env.AGUI_DIFF_RUNS ?? 600);

test("differential: agentwire ≡ @ag-ui/client 1.0.0 on seeded random event sequences", { skip }, async () => {
  const lib = await loadClient(ROOT);
  const counts = { runs: 0, events: 0, accepted: 0, rejected: 0, sameText: 0 };
  const only = process.env.AGUI_DIFF_SEED ? Number(process.env.AGUI_DIFF_SEED) : undefined;
  for (let seed = only ?? 1; seed <= (only ?? RUNS); seed++) {
    const r = rng(seed);
    // Seeds ≡ 1 (mod 4): clean runs; ≡ 3: runs with an occasional wild event; even: random.
    const events = seed % 2 ? validRun(r, seed % 4 === 3) : randomRun(r);
    const theirs = await replay(lib, events);
    const mine = ours(events, r);
    if (only !== undefined) console.log(JSON.stringify({ events, theirs, mine }, null, 1));
    const where = `seed ${seed}: ${JSON.stringify(events)}`;
    assert.strictEqual(mine.error !== undefined, theirs.error !== undefined, `accept/reject differs (ours: ${mine.error}; theirs: ${theirs.error}) — ${where}`);
    if (theirs.error !== undefined) {
      counts.rejected++;
      // zod issue lists are compared by kind only; every other rejection text must match.
      if (theirs.error.startsWith("[")) assert.ok(mine.error.startsWith("["), `${mine.error} — ${where}`);
      else { assert.strictEqual(mine.error, theirs.error, where); counts.sameText++; }
    } else {
      counts.accepted++;
    }
    assert.deepStrictEqual(mine.messages, theirs.messages, `messages differ — ${where}`);
    assert.deepStrictEqual(mine.state, theirs.state, `state differs — ${where}`);
    counts.runs++;
    counts.events += events.length;
  }
  console.log(`# ag-ui differential: ${JSON.stringify(counts)}`);
});

// translate from AG-UI reads what @ag-ui/client reads: the clean runs (one run, every message
// started once, no messages snapshot, accepted by the client) translated to the Agent API in
// random chunks hold the client's texts, reasoning, tool calls and tool results.
function translatedEssence(events, r) {
  const bytes = new TextEncoder().encode(events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join(""));
  const t = new Translator({ from: "ag-ui", to: "agent-api" });
  const out = [];
  for (let i = 0; i < bytes.length;) {
    const step = 1 + r.int(200);
    out.push(...t.push(bytes.subarray(i, i + step)));
    i += step;
  }
  out.push(...t.finish());
  t.free();
  const asm = new StreamAssembler({ protocol: "agent-api" });
  asm.push(new Uint8Array(out));
  asm.finish();
  const snap = asm.snapshot();
  const outcome = asm.outcome;
  asm.free();
  const texts = [];
  const calls = [];
  const results = [];
  for (const m of [...snap.output, ...(snap.incompleteMessages ?? [])]) {
    const data = (m.content ?? []).find((c) => c.type === "data")?.data;
    if (m.type === "function_call") calls.push(`${data.call_id}:${data.name}(${data.arguments})`);
    else if (m.type === "function_call_output") results.push(`${data.call_id}=${data.output}`);
    else {
      const text = (m.content ?? []).filter((c) => c.type === "text").map((c) => c.text).join("");
      if (text !== "") texts.push(`${m.type === "reasoning" ? "reasoning" : m.role}:${text}`);
    }
  }
  return { texts: texts.sort(), calls: calls.sort(), results: results.sort(), outcome };
}

function clientEssence(messages) {
  const texts = [];
  const calls = [];
  const results = [];
  for (const m of messages) {
    if (m.role === "tool") results.push(`${m.toolCallId}=${typeof m.content === "string" ? m.content : JSON.stringify(m.content)}`);
    for (const c of m.toolCalls ?? []) calls.push(`${c.id}:${c.function.name}(${c.function.arguments})`);
    if (typeof m.content === "string" && m.content !== "" && m.role !== "tool" && m.role !== "activity") {
      texts.push(`${m.role === "developer" ? "system" : m.role}:${m.content}`);
    }
  }
  return { texts: texts.sort(), calls: calls.sort(), results: results.sort() };
}

test("differential: translate from AG-UI holds what @ag-ui/client holds", { skip }, async () => {
  const lib = await loadClient(ROOT);
  let compared = 0;
  for (let seed = 1; seed <= RUNS; seed += 4) {
    const r = rng(seed);
    const events = validRun(r, false);
    const starts = events.filter((e) => /_START$/.test(e.type) && e.type !== "RUN_STARTED" && e.type !== "REASONING_START" && e.type !== "STEP_STARTED")
      .map((e) => e.messageId ?? e.toolCallId);
    if (events.filter((e) => e.type === "RUN_STARTED").length > 1 || events.some((e) => e.type === "MESSAGES_SNAPSHOT")
      || new Set(starts).size !== starts.length) continue;
    const theirs = await replay(lib, events);
    if (theirs.error !== undefined) continue;
    const where = `seed ${seed}: ${JSON.stringify(events)}`;
    const mine = translatedEssence(events, rng(seed + 1));
    assert.strictEqual(mine.outcome, "completed", where);
    const expected = clientEssence(theirs.messages);
    assert.deepStrictEqual({ texts: mine.texts, calls: mine.calls, results: mine.results }, expected, where);
    compared += 1;
  }
  assert.ok(compared >= 40, `only ${compared} runs compared`);
  console.log(`# translate from ag-ui ≡ @ag-ui/client: ${compared} runs`);
});
