// Server-kept conversations: what a run answered, read from its log in any protocol as Agent
// API messages, the bounded history a run keeps for the next turn, and the answers to a paused
// run's interrupts (`request.resume`, AG-UI's entries) made of the next turn's input.
import { StreamAssembler } from "./assembler.js";
import { Translator } from "./translate.js";

/**
 * The most JSON text of conversation a run keeps for the next turn (the oldest messages go
 * first); it is kept with the run, within what every store keeps in one value.
 */
export const MAX_HISTORY_BYTES = 64 * 1024;

const encoder = new TextEncoder();

/** The newest of `messages` within MAX_HISTORY_BYTES of JSON text (UTF-8), in order (what a run keeps). */
export function keptHistory(messages) {
  // Most inputs are small: a UTF-16 length three times within the bound is within it in UTF-8.
  if (JSON.stringify(messages).length * 3 <= MAX_HISTORY_BYTES) return messages;
  let bytes = 0;
  let keep = messages.length;
  while (keep > 0) {
    const size = encoder.encode(JSON.stringify(messages[keep - 1])).length + 1;
    if (bytes + size > MAX_HISTORY_BYTES) break;
    bytes += size;
    keep--;
  }
  return messages.slice(keep);
}

/**
 * The input of the next turn: what the previous one was given (`kept`, as keptHistory kept
 * it) and its `output`, the newest of them within MAX_HISTORY_BYTES, then `input`, the new
 * messages (always whole).
 */
export function nextInput(kept, output, input) {
  return [...keptHistory([...(Array.isArray(kept) ? kept : []), ...output]), ...input];
}

/**
 * What a run of `protocol` answered, from its whole `log`: `{status, output, interrupts}`, the
 * Agent API status (`incomplete` for a pause), its messages as Agent API messages (without an
 * A2A pause's status message, which repeats the question) and the interrupts it waits on.
 */
export function answerOf(log, protocol) {
  let bytes = log;
  if (protocol !== "agent-api") {
    const translator = new Translator({ from: protocol, to: "agent-api" });
    try {
      const head = translator.push(log);
      const tail = translator.finish();
      bytes = new Uint8Array(head.length + tail.length);
      bytes.set(head);
      bytes.set(tail, head.length);
    } finally {
      translator.free();
    }
  }
  const asm = new StreamAssembler({ protocol: "agent-api" });
  try {
    asm.push(bytes);
    asm.finish();
    const { status, output, interrupts } = asm.snapshot();
    const waits = Array.isArray(interrupts) ? interrupts : [];
    const asked = new Set(waits.map((i) => i?.id));
    return { status, output: (output ?? []).filter((m) => !asked.has(m.id)), interrupts: waits };
  } finally {
    asm.free();
  }
}

/** The text of an Agent API message's text parts, joined. */
function textOf(message) {
  return (message?.content ?? []).filter((c) => c?.type === "text").map((c) => c.text ?? "").join("");
}

/** The data of a message's first data part, or undefined. */
function dataOf(message) {
  return (message?.content ?? []).find((c) => c?.type === "data")?.data;
}

/**
 * The answers (`request.resume`: `{interruptId, status: "resolved", payload}` each, AG-UI's
 * entries) to `interrupts` made of `input`, the next turn's new messages: a tool output or an
 * approval answers the interrupt of its call (`toolCallId`, or the interrupt's id); every other
 * interrupt gets the last message's text (or its data part's value). A `paused` run without
 * known interrupts (its protocol carries none: OpenAI Responses) gets one entry per call the
 * input answers, `interruptId` the call's id.
 */
export function resumeOf(interrupts, input, paused = false) {
  const byCall = new Map();
  for (const m of input) {
    const data = dataOf(m);
    if (!data || typeof data !== "object") continue;
    if (typeof data.approval_request_id === "string") {
      byCall.set(data.approval_request_id, { approved: data.approve === true, ...(data.reason == null ? {} : { reason: data.reason }) });
    } else if (typeof data.call_id === "string" && "output" in data) {
      byCall.set(data.call_id, data.output);
    }
  }
  if (!Array.isArray(interrupts) || interrupts.length === 0) {
    // A paused run whose protocol carries no interrupts (OpenAI Responses): the answers name
    // the calls they answer.
    if (!paused || byCall.size === 0) return undefined;
    return [...byCall].map(([id, payload]) => ({ interruptId: id, status: "resolved", payload }));
  }
  const last = input.at(-1);
  const said = textOf(last) || dataOf(last);
  return interrupts.map((i) => {
    const answer = byCall.get(i.toolCallId) ?? byCall.get(i.id) ?? said;
    return answer === undefined || answer === ""
      ? { interruptId: i.id, status: "resolved" }
      : { interruptId: i.id, status: "resolved", payload: answer };
  });
}
