// A UI's state built from StreamAssembler update batches, written from the documented meaning of
// each update (the package README and the `Update` types in assembler.d.ts), not from
// agentwire's code; and the check that it holds what `snapshot()` holds.
//
// Agent API, OpenAI Responses and A2A: `message` adds a message (`created`) or changes its
// status; `text` appends to a part's text (`replace`: the whole text); `content` gives a part's
// whole wire value (for a text or refusal part, its text replaces what text updates built);
// `arguments` appends to a call's `data.arguments` (`replace`: the whole string). AG-UI:
// `replace` gives a message whole, `text` appends to its `content` (`replace`: the whole
// text), `arguments` to the arguments of its tool call at `index`, `order` lists every message
// id, `state` the state, `content` a media or data part beside the messages.
import assert from "node:assert/strict";

export class UpdateReducer {
  response = null;
  /** Agent API shape: id → {id, role, messageType, status, parts: []}; AG-UI: id → the message. */
  messages = new Map();
  /** AG-UI: id → {role, messageType, status} from `message` updates. */
  meta = new Map();
  order = [];
  state = undefined;
  warnings = [];
  /** AG-UI: media and data parts from `content` updates, by `messageId#index`. */
  parts = new Map();

  /** A reducer for a stream of `protocol` (AG-UI keeps whole messages). */
  constructor(protocol) {
    this.agui = protocol === "ag-ui";
  }

  apply(batch) {
    for (const u of batch) this.#step(u);
  }

  #message(id) {
    let m = this.messages.get(id);
    if (m === undefined) {
      m = { id, parts: [] };
      this.messages.set(id, m);
      this.order.push(id);
    }
    return m;
  }

  #step(u) {
    switch (u.type) {
      case "response":
        this.response = { status: u.status, id: u.id, outcome: u.outcome, error: u.error, usage: u.usage };
        break;
      case "message": {
        if (this.agui) {
          this.meta.set(u.id, { role: u.role, messageType: u.messageType, status: u.status });
          break;
        }
        const m = this.#message(u.id);
        if (u.created) Object.assign(m, { role: u.role, messageType: u.messageType });
        m.status = u.status;
        break;
      }
      case "replace": {
        this.messages.set(u.id, structuredClone(u.message));
        // An order update of the same batch may have listed it already.
        if (!this.order.includes(u.id)) this.order.push(u.id);
        break;
      }
      case "order":
        this.order = [...u.ids];
        for (const id of [...this.messages.keys()]) if (!u.ids.includes(id)) this.messages.delete(id);
        break;
      case "state":
        this.state = structuredClone(u.state);
        break;
      case "text": {
        const m = this.agui ? this.messages.get(u.messageId) : this.#message(u.messageId);
        assert.ok(m, `text for AG-UI message ${u.messageId}, which no replace update gave`);
        if (this.agui) {
          // AG-UI: the message's content string.
          m.content = (u.replace ? "" : (m.content ?? "")) + u.delta;
          break;
        }
        const part = (m.parts[u.index] ??= {});
        part.text = (u.replace ? "" : (part.text ?? "")) + u.delta;
        break;
      }
      case "content": {
        if (this.agui) {
          // AG-UI: a media or data part AG-UI messages cannot hold (agentwire's encoder sends it
          // as a CUSTOM event); kept beside the messages.
          this.parts.set(`${u.messageId}#${u.index}`, structuredClone(u.part));
          break;
        }
        const m = this.#message(u.messageId);
        const part = (m.parts[u.index] ??= {});
        part.wire = structuredClone(u.part);
        if (u.part.type === "text") part.text = u.part.text ?? "";
        else if (u.part.type === "refusal") part.text = u.part.refusal ?? "";
        // The whole part at the end of the batch: its arguments too.
        if (typeof part.wire.data?.arguments === "string") part.arguments = part.wire.data.arguments;
        break;
      }
      case "arguments": {
        const m = this.agui ? this.messages.get(u.messageId) : this.#message(u.messageId);
        assert.ok(m, `arguments for AG-UI message ${u.messageId}, which no replace update gave`);
        if (this.agui) {
          const call = m.toolCalls?.[u.index];
          assert.ok(call, `arguments for tool call ${u.index} of ${u.messageId}, which has none`);
          call.function.arguments = (u.replace ? "" : call.function.arguments) + u.delta;
          break;
        }
        const part = (m.parts[u.index] ??= {});
        const base = part.arguments ?? part.wire?.data?.arguments ?? "";
        part.arguments = (u.replace ? "" : base) + u.delta;
        if (part.wire?.data) part.wire.data.arguments = part.arguments;
        break;
      }
      case "warning":
        this.warnings.push(u.code);
        break;
      case "event":
        break;
      default:
        assert.fail(`an update of undocumented type ${u.type}`);
    }
  }
}

const texts = (parts) => parts.filter((p) => p !== undefined && p.text !== undefined).map((p) => p.text);

/** Asserts that `reduced` holds the messages, parts, texts and tool calls of `snapshot`. */
export function assertHoldsSnapshot(reduced, snapshot, protocol, where) {
  const at = (what) => `${where}: ${what}`;
  if (protocol === "ag-ui") {
    assert.deepStrictEqual(reduced.order, snapshot.messages.map((m) => m.id), at("message order"));
    for (const m of snapshot.messages) {
      assert.deepStrictEqual(reduced.messages.get(m.id), m, at(`message ${m.id}`));
    }
    // The state starts as {} (the client's initial state) until a state update says otherwise.
    assert.deepStrictEqual(reduced.state ?? {}, snapshot.state ?? {}, at("state"));
    return;
  }
  const find = (id) => {
    const m = reduced.messages.get(id);
    assert.ok(m, at(`message ${id} of the snapshot was never announced by an update`));
    return m;
  };
  // A2A is assembled into the Agent API snapshot.
  if (protocol === "agent-api" || protocol === "a2a" || protocol === "a2a-0.3") {
    for (const m of [...(snapshot.output ?? []), ...(snapshot.incompleteMessages ?? [])]) {
      const r = find(m.id);
      assert.strictEqual(r.messageType, m.type, at(`type of ${m.id}`));
      assert.strictEqual(r.status, m.status, at(`status of ${m.id}`));
      for (const [position, c] of (m.content ?? []).entries()) {
        const p = r.parts[c.index ?? position];
        assert.ok(p, at(`part ${c.index ?? position} of ${m.id} was never announced`));
        if (c.type === "text") assert.strictEqual(p.text, c.text ?? "", at(`text of ${m.id}/${c.index}`));
        else if (c.type === "refusal") assert.strictEqual(p.text, c.refusal ?? "", at(`refusal of ${m.id}/${c.index}`));
        else if (c.type === "data") assert.deepStrictEqual(p.wire?.data, c.data, at(`data of ${m.id}/${c.index}`));
      }
    }
  } else if (protocol === "openai-responses") {
    for (const item of [...(snapshot.output ?? []), ...(snapshot.incompleteMessages ?? [])]) {
      if (item.id === undefined) continue;
      const r = find(item.id);
      if (item.type === "message" || item.type === "reasoning") {
        // Texts by value (an empty part shows nothing, and Responses numbers summary and content
        // parts apart).
        const want = [...(item.content ?? []), ...(item.summary ?? [])]
          .map((c) => c.text ?? c.refusal ?? "").filter((t) => t !== "").sort();
        const got = texts(r.parts).filter((t) => t !== "").sort();
        assert.deepStrictEqual(got, want, at(`texts of ${item.type} ${item.id}`));
      } else if (item.type === "function_call") {
        const data = r.parts.find((p) => p?.wire?.data)?.wire.data;
        assert.strictEqual(data?.arguments, item.arguments, at(`arguments of ${item.id}`));
      }
    }
  }
  // No text went to a message the snapshot does not have (an answer shown in the wrong bubble).
  const listed = new Set([...(snapshot.output ?? []), ...(snapshot.incompleteMessages ?? [])].map((m) => m.id));
  for (const [id, m] of reduced.messages) {
    if (!listed.has(id) && texts(m.parts ?? []).some((t) => t !== "")) {
      assert.fail(at(`text went to message ${id}, which the snapshot does not hold`));
    }
  }
}
