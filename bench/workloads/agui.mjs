// 100,000 AG-UI text and tool-call events assembled by StreamAssembler (SSE bytes in 16 KiB
// chunks → messages) against @ag-ui/client 1.0.0's own pipeline in the same process (an
// AbstractAgent replaying the same events, JSON-parsed from the same frames: enforcement →
// chunk expansion → verification → apply). Both end with the same messages.
import assert from "node:assert/strict";
import { AbstractAgent } from "@ag-ui/client";
import { from } from "rxjs";

// The client's reducer clones its whole message list on every event, so its time grows with the
// square of the stream: 100k events take it minutes (one round, no warm-up; AGUI_BENCH_EVENTS
// shrinks the stream for a quick look).
const EVENTS = Number(process.env.AGUI_BENCH_EVENTS ?? 100_000);

function events() {
  const out = [{ type: "RUN_STARTED", threadId: "t", runId: "r" }];
  let n = 0;
  while (out.length < EVENTS - 1) {
    const m = `m${n}`, c = `c${n}`;
    n++;
    out.push({ type: "TEXT_MESSAGE_START", messageId: m, role: "assistant" });
    for (let i = 0; i < 40; i++) out.push({ type: "TEXT_MESSAGE_CONTENT", messageId: m, delta: `tok${i} ` });
    out.push({ type: "TEXT_MESSAGE_END", messageId: m });
    out.push({ type: "TOOL_CALL_START", toolCallId: c, toolCallName: "search", parentMessageId: m });
    for (let i = 0; i < 20; i++) out.push({ type: "TOOL_CALL_ARGS", toolCallId: c, delta: i === 0 ? '{"q":"' : `w${i} ` });
    out.push({ type: "TOOL_CALL_ARGS", toolCallId: c, delta: '"}' });
    out.push({ type: "TOOL_CALL_END", toolCallId: c });
  }
  out.length = Math.min(out.length, EVENTS - 1);
  // Close whatever the cut left open, then finish the run.
  const last = out.at(-1);
  if (last.type === "TEXT_MESSAGE_CONTENT") out.push({ type: "TEXT_MESSAGE_END", messageId: last.messageId });
  if (last.type === "TOOL_CALL_ARGS") out.push({ type: "TOOL_CALL_END", toolCallId: last.toolCallId });
  out.push({ type: "RUN_FINISHED", threadId: "t", runId: "r" });
  return out;
}

class Replay extends AbstractAgent {
  constructor(frames) { super({}); this.frames = frames; }
  run() { return from(this.frames.map((f) => JSON.parse(f))); }
}

export default {
  name: "AG-UI ×100k text + tool-call events",
  baselineName: "@ag-ui/client 1.0 runAgent",
  unit: "events",
  baselineRounds: 1,
  setup() {
    const list = events();
    const frames = list.map((e) => JSON.stringify(e));
    const bytes = new TextEncoder().encode(frames.map((f) => `data: ${f}\n\n`).join(""));
    return { frames, bytes, units: list.length };
  },
  get units() { return EVENTS; },
  agentwire({ StreamAssembler }, { bytes }) {
    const asm = new StreamAssembler({ protocol: "ag-ui" });
    for (let i = 0; i < bytes.length; i += 16384) asm.push(bytes.subarray(i, i + 16384));
    asm.finish();
    const messages = asm.snapshot().messages;
    asm.free();
    return messages;
  },
  async baseline({ frames }) {
    const agent = new Replay(frames);
    await agent.runAgent();
    return agent.messages;
  },
  verify: (ours, theirs) => assert.deepStrictEqual(ours, JSON.parse(JSON.stringify(theirs))),
};
