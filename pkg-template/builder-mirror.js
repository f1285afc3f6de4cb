// What pipe() (builder-pipe.js) has made of an upstream so far: the assembler's updates turned
// into a builder's public calls (messages, parts, tool calls, tool outputs), each once, in the
// order the upstream made them; and the upstream's usage as Agent API usage.

const CALL_TYPES = { function_call: "function", plugin_call: "plugin", mcp_call: "mcp", function: "function" };
const OUTPUT_TYPES = { function_call_output: "function", plugin_call_output: "plugin", mcp_call_output: "mcp" };
const CONTENT_TYPES = new Set(["data", "image", "audio", "file", "video"]);
const ENVELOPE = new Set(["sequence_number", "object", "status", "error", "type", "index", "delta", "msg_id"]);
const MAX_WARNINGS = 100;

// The upstream's state as the builder's calls made so far: upstream message id → its builder
// message and parts; "messageId#index" → its tool call. Ids are the builder's own (a run calls
// models several times; their ids may repeat); call ids are the upstream's.
export class Mirror {
  constructor(rb) {
    this.rb = rb;
    this.messages = new Map();
    this.calls = new Map();
    this.byCallId = new Map(); // the upstream's call id → its call (the first with that id)
    this.callList = null; // the assembler's last toolCalls() array
    this.callScan = 0; // toolCalls() before this position are completed and done
    this.usage = null;
    this.error = null;
    this.warnings = [];
  }

  // One batch of updates: each message's updates together, messages in order of first mention.
  apply(updates, asm) {
    const groups = new Map();
    for (const u of updates) {
      const id = u.type === "message" || u.type === "replace" ? u.id : u.messageId;
      if (u.type === "response") {
        if (u.usage !== null && u.usage !== undefined) this.usage = usageOf(u.usage);
        if (u.error !== null && u.error !== undefined) this.error = u.error;
      } else if (u.type === "warning") {
        if (this.warnings.length < MAX_WARNINGS) this.warnings.push(u);
      } else if (typeof id === "string") {
        const group = groups.get(id);
        if (group === undefined) groups.set(id, [u]);
        else group.push(u);
      }
    }
    for (const [id, group] of groups) this.#message(id, group);
    this.#scanCalls(asm.toolCalls());
  }

  #message(id, group) {
    let m = this.messages.get(id);
    if (m === undefined) {
      m = { id, type: "message", role: "assistant", builder: null, parts: new Map(), calls: [], output: false, done: false };
      this.messages.set(id, m);
    }
    for (const u of group) {
      if (u.type === "message") {
        m.type = u.messageType;
        m.role = u.role;
        m.status = u.status;
      } else if (u.type === "arguments") {
        const call = this.#call(m, `${id}#${u.index}`, u.callId, u.name);
        if (u.replace) this.#arguments(call, u.delta, true);
        else this.#arguments(call, call.text + u.delta, false, u.delta);
      } else if (m.done || !carried(m)) {
        // Not the run's (user, system, activity messages), or a late update of a finished one.
      } else if (u.type === "text") {
        if (m.type in CALL_TYPES || m.type in OUTPUT_TYPES || m.role === "tool") continue;
        const part = this.#part(m, u.index, group);
        if (u.replace) this.#text(part, u.delta);
        else this.#text(part, part.text + u.delta, u.delta);
      } else if (u.type === "content") {
        this.#content(m, u);
      } else if (u.type === "replace") {
        this.#replace(m, u.message);
      }
    }
    if (!m.done && m.status !== undefined && m.status !== "in_progress" && m.status !== "created") this.#finish(m);
  }

  #part(m, index, group) {
    let part = m.parts.get(index);
    if (part === undefined) {
      const content = group?.find((u) => u.type === "content" && u.index === index);
      const type = content?.part?.type === "refusal" ? "refusal" : "text";
      m.builder ??= this.rb.message({ type: m.role === "reasoning" ? "reasoning" : m.type, role: roleOf(m) });
      part = { builder: m.builder.content(type), type, text: "", done: false };
      m.parts.set(index, part);
    }
    return part;
  }

  // The part's text is now `whole` (`piece`: what was appended, when that is all that changed).
  #text(part, whole, piece) {
    if (part.done) return;
    if (piece !== undefined) {
      if (piece !== "") part.builder.delta(piece);
    } else if (whole.startsWith(part.text)) {
      if (whole.length > part.text.length) part.builder.delta(whole.slice(part.text.length));
    } else {
      part.builder.set(whole); // replaced upstream: the run's protocol says so if it can
    }
    part.text = whole;
  }

  #content(m, u) {
    const value = u.part;
    if (value === null || typeof value !== "object") return;
    const completed = value.status === "completed";
    if (m.type in OUTPUT_TYPES) {
      const data = value.data;
      if (completed && !m.output && data !== null && typeof data === "object" && typeof data.call_id === "string") {
        m.output = true;
        this.#output({
          callId: data.call_id, output: data.output ?? null, type: OUTPUT_TYPES[m.type],
          ...(typeof data.name === "string" ? { name: data.name } : {}),
        });
      }
      return;
    }
    if (m.type in CALL_TYPES) return; // arguments and completion come with the call
    if (value.type === "text" || value.type === "refusal") {
      const part = this.#part(m, u.index);
      const whole = value.type === "text" ? value.text : value.refusal;
      if (typeof whole === "string") this.#text(part, whole);
      if (completed && !part.done) {
        part.done = true;
        part.builder.complete();
      }
    } else if (CONTENT_TYPES.has(value.type) && completed && !m.parts.has(u.index)) {
      // Other parts arrive whole, once completed: re-sending a growing value each chunk is quadratic.
      m.builder ??= this.rb.message({ type: m.type, role: roleOf(m) });
      const part = { builder: m.builder.content(value.type), type: value.type, text: "", done: true };
      m.parts.set(u.index, part);
      const fields = {};
      for (const key of Object.keys(value)) if (!ENVELOPE.has(key)) fields[key] = value[key];
      part.builder.set(value.type === "data" && value.data !== null && typeof value.data === "object" ? value.data : fields);
      part.builder.complete();
    }
  }

  // AG-UI: a message's whole value (first sight, snapshots); tool results are tool outputs.
  #replace(m, message) {
    if (message === null || typeof message !== "object") return;
    if (message.role === "tool") {
      if (!m.output && typeof message.toolCallId === "string") {
        m.output = true;
        this.#output({ callId: message.toolCallId, output: message.content ?? null });
      }
      return;
    }
    if (typeof message.content === "string" && message.content !== "") this.#text(this.#part(m, 0), message.content);
    if (Array.isArray(message.toolCalls)) {
      message.toolCalls.forEach((tc, i) => {
        const fn = tc?.function;
        const call = this.#call(m, `${m.id}#${i}`, typeof tc?.id === "string" ? tc.id : null, typeof fn?.name === "string" ? fn.name : null);
        if (typeof fn?.arguments === "string") this.#arguments(call, fn.arguments, true);
      });
    }
  }

  // A tool output; the call it answers, if still open here, completes first.
  #output(options) {
    const call = this.byCallId.get(options.callId);
    if (call !== undefined) this.#completeCall(call);
    this.rb.toolOutput(options);
  }

  #call(m, key, callId, name) {
    let call = this.calls.get(key);
    if (call === undefined) {
      call = { key, builder: null, message: null, data: null, type: CALL_TYPES[m.type] ?? "function", callId: null, name: null, text: "", sent: 0, done: false };
      this.calls.set(key, call);
      m.calls.push(call);
    }
    if (call.callId === null && callId !== null) {
      call.callId = callId;
      if (!this.byCallId.has(callId)) this.byCallId.set(callId, call);
    }
    call.name ??= name;
    if (call.builder === null && call.callId !== null && call.name !== null) this.#startCall(call);
    return call;
  }

  // A call is a `*_call` message with one data part `{call_id, name, arguments}` (what
  // rb.toolCall() makes), written through the part so that replaced arguments can be set whole.
  #startCall(call) {
    const data = { call_id: call.callId ?? call.key, name: call.name ?? "", arguments: "" };
    call.message = this.rb.message({ type: `${call.type}_call` });
    call.builder = call.message.content("data");
    call.builder.delta(data);
    call.data = data;
  }

  // The call's arguments are now `whole`: appended `piece`, or sent whole (`replace`), which is
  // passed on whole, as a set, for the run's protocol to send what it can of it.
  #arguments(call, whole, replace, piece) {
    if (call.done || (replace && whole === call.text && call.sent === whole.length)) return;
    call.text = whole;
    if (call.builder === null) return; // sent once its id and name are known
    if (replace || piece === undefined || call.sent + piece.length !== whole.length) {
      call.builder.set({ ...call.data, arguments: whole });
    } else if (piece !== "") {
      call.builder.delta({ arguments: piece });
    }
    call.sent = whole.length;
  }

  #completeCall(call) {
    if (call.done) return;
    if (call.builder === null) this.#startCall(call);
    this.#arguments(call, call.text, true);
    call.done = true;
    call.builder.complete();
    call.message.complete();
  }

  // The tool calls the assembler marks completed (AG-UI's TOOL_CALL_END), from the first open one.
  #scanCalls(list) {
    if (list === this.callList) return;
    this.callList = list;
    for (let i = this.callScan; i < list.length; i++) {
      const record = list[i];
      const call = this.calls.get(`${record.messageId}#${record.index}`);
      if (call === undefined || !record.completed) continue;
      this.#arguments(call, record.arguments, true);
      this.#completeCall(call);
    }
    while (this.callScan < list.length && list[this.callScan].completed) this.callScan++;
  }

  #finish(m) {
    m.done = true;
    for (const part of m.parts.values()) {
      if (!part.done) {
        part.done = true;
        part.builder.complete();
      }
    }
    m.builder?.complete();
    if (m.type in CALL_TYPES) for (const call of m.calls) this.#completeCall(call);
  }

  /** Completes everything still open, in creation order. */
  close() {
    for (const m of this.messages.values()) if (!m.done) this.#finish(m);
    for (const call of this.calls.values()) this.#completeCall(call);
  }
}

// Whether a message is the run's to carry: the model's (assistant, reasoning) and tool outputs.
function carried(m) {
  return m.type in OUTPUT_TYPES || m.role === "tool" || m.role === "assistant" || m.role === "reasoning" || m.role === null;
}

function roleOf(m) {
  return m.role === "reasoning" || m.role === null ? "assistant" : m.role;
}

/** @type {Array<[string, string[]]>} */
const COUNTS = [
  ["input_tokens", ["input_tokens", "prompt_tokens", "inputTokens"]],
  ["output_tokens", ["output_tokens", "completion_tokens", "outputTokens"]],
  ["total_tokens", ["total_tokens", "totalTokens"]],
];

// An upstream's usage as Agent API usage: the Agent API / Responses object, or AG-UI's
// TokenUsage[] summed; only the counts the run's protocols name, as non-negative integers.
function usageOf(value) {
  const list = Array.isArray(value) ? value.slice(0, 64) : [value];
  let usage = null;
  for (const item of list) {
    if (item === null || typeof item !== "object") continue;
    const one = {};
    for (const [key, names] of COUNTS) {
      const n = names.map((k) => item[k]).find(isCount);
      if (n !== undefined) one[key] = n;
    }
    const cached = [item.input_tokens_details?.cached_tokens, item.cachedInputTokens].find(isCount);
    const reasoning = [item.output_tokens_details?.reasoning_tokens, item.reasoningTokens].find(isCount);
    if (cached !== undefined) one.input_tokens_details = { cached_tokens: cached };
    if (reasoning !== undefined) one.output_tokens_details = { reasoning_tokens: reasoning };
    usage = addUsage(usage, one);
  }
  return usage !== null && Object.keys(usage).length > 0 ? usage : null;
}

function isCount(n) {
  return Number.isSafeInteger(n) && n >= 0;
}

// The sum of two usages (null: none).
export function addUsage(a, b) {
  if (b === null || b === undefined) return a ?? null;
  if (a === null || a === undefined) return structuredClone(b);
  const sum = { ...a };
  for (const [key] of COUNTS) if (b[key] !== undefined) sum[key] = Math.min((a[key] ?? 0) + b[key], Number.MAX_SAFE_INTEGER);
  for (const [key, inner] of [["input_tokens_details", "cached_tokens"], ["output_tokens_details", "reasoning_tokens"]]) {
    const n = b[key]?.[inner];
    if (n !== undefined) sum[key] = { [inner]: Math.min((a[key]?.[inner] ?? 0) + n, Number.MAX_SAFE_INTEGER) };
  }
  return sum;
}
