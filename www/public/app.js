// The demo page: POSTs a request to /process, feeds the response bytes to a StreamAssembler
// as fetch() delivers them, and renders each chunk's coalesced updates at once. Everything the
// agent sends is rendered as text (textContent, never innerHTML); URLs from the stream become
// images or links only for safe schemes, anything else is shown as inert text.
import { StreamAssembler, Translator } from "agentwire";

const $ = (selector) => document.querySelector(selector);
const transcript = $("#transcript");
const form = $("#composer");
const promptBox = $("#prompt");
const sendButton = $("#send");
const stopButton = $("#stop");
const sessionId = crypto.randomUUID();
const MAX_EVENT_ROWS = 400; // the inspector keeps the latest raw events only

/** Creates an element with a class and optional text (always as text). */
function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

// ---- Safe URLs -------------------------------------------------------------------------------

const SAFE_DATA_IMAGE = /^data:image\/(?:png|jpeg|gif|webp|avif|svg\+xml)[;,]/i;

/**
 * The URL if it is absolute and its scheme is allowed here (`https:`/`http:`, plus
 * `data:image/…` when `image` is set), else null. Relative URLs are refused too: the agent does
 * not get to point at this site's own endpoints.
 */
export function safeUrl(raw, { image = false } = {}) {
  if (typeof raw !== "string" || raw === "") return null;
  let url;
  try {
    url = new URL(raw.trim());
  } catch {
    return null;
  }
  if (url.protocol === "https:" || url.protocol === "http:") return url.href;
  if (image && url.protocol === "data:" && SAFE_DATA_IMAGE.test(url.href)) return url.href;
  return null;
}

/** An element showing a refused URL as plain text. */
function blocked(kind, raw) {
  const box = el("p", "blocked");
  box.append(el("strong", "", `Blocked ${kind} URL: `), el("code", "", String(raw).slice(0, 200)));
  return box;
}

// ---- Protocol support, detected at runtime ---------------------------------------------------

/** Whether this build of agentwire can assemble `protocol` here and translate into it. */
function packageSupports(protocol) {
  if (protocol === "agent-api") return true;
  try {
    new StreamAssembler({ protocol }).free();
    new Translator({ from: "agent-api", to: protocol }).free();
    return true;
  } catch {
    return false;
  }
}

let proxied = false;

async function setUp() {
  let info = { protocols: ["agent-api"], upstream: null };
  try {
    info = await (await fetch("/info")).json();
  } catch (error) {
    $("#source").textContent = `The worker did not answer /info: ${error.message}`;
  }
  for (const input of form.querySelectorAll('input[name="protocol"]')) {
    const ok = packageSupports(input.value) && info.protocols.includes(input.value);
    input.disabled = !ok;
    if (!ok) input.closest("label").title = "Not supported by this build of agentwire";
  }
  if ($('input[value="ag-ui"]').disabled) $("#ag-ui-note").textContent = "(not in this build)";
  proxied = Boolean(info.upstream);
  $("#source").textContent = info.upstream
    ? `Agent: proxied to ${info.upstream}`
    : "Agent: built-in scripted agent (no keys, no network)";
  if (!info.upstream) {
    try {
      const card = await (await fetch("/.well-known/agent-card.json")).json();
      $("#agent-card").textContent = JSON.stringify(card, null, 2);
    } catch (error) {
      $("#agent-card").textContent = `The worker did not answer with its agent card: ${error.message}`;
    }
  }
  // The scenarios drive the scripted agent only.
  for (const input of form.querySelectorAll('input[name="scenario"]')) input.disabled = Boolean(info.upstream);
  document.body.dataset.ready = "true";
}

// ---- Inspector ---------------------------------------------------------------------------------

const stats = {};
function setStat(name, value) {
  stats[name] = value;
  document.querySelector(`[data-stat="${name}"]`).textContent = String(value);
}
const ms = (t) => `${Math.round(t)} ms`;

function resetInspector(protocol) {
  for (const [name, value] of Object.entries({ protocol, outcome: "pending", events: 0, bytes: 0, chunks: 0, renders: 0, ttft: "–", duration: "–" })) {
    setStat(name, value);
  }
  $("#warnings").replaceChildren();
  $("#warning-count").textContent = "0";
  $("#events").replaceChildren();
  $("#snapshot").textContent = "";
}

function addWarning(text) {
  $("#warnings").append(el("li", "", text));
  $("#warning-count").textContent = String($("#warnings").children.length);
}

/** A short label for an Agent API event (`content text`, `response completed`, …). */
function agentApiLabel(data) {
  const event = tryJson(data);
  if (!event || typeof event !== "object") return "data";
  return [event.object, event.object === "response" ? event.status : event.type, event.delta ? "Δ" : ""]
    .filter(Boolean).join(" ");
}

/**
 * Splits the decoded byte stream into SSE events for display (the assembler does its own,
 * spec-complete framing; this only feeds the inspector's list).
 */
class RawEvents {
  #decoder = new TextDecoder();
  #buffer = "";
  count = 0;

  push(bytes, final = false) {
    this.#buffer += this.#decoder.decode(bytes, { stream: !final });
    const frames = this.#buffer.split(/\r?\n\r?\n/);
    this.#buffer = final ? "" : frames.pop();
    const list = $("#events");
    for (const frame of frames) {
      const lines = frame.split(/\r?\n/);
      const name = lines.find((l) => l.startsWith("event:"))?.slice(6).trim();
      const data = lines.filter((l) => l.startsWith("data:")).map((l) => l.slice(5).trimStart()).join("\n");
      if (data === "" && !name) continue;
      this.count++;
      const row = el("li");
      row.append(el("span", "event-name", name ?? agentApiLabel(data)), el("code", "", data.length > 2000 ? `${data.slice(0, 2000)}…` : data));
      row.title = data.length > 2000 ? `${data.slice(0, 2000)}…` : data;
      list.append(row);
      if (list.children.length > MAX_EVENT_ROWS) list.firstElementChild.remove();
    }
  }
}

// ---- Rendering one agent turn ------------------------------------------------------------------

/** The DOM of one assistant turn, updated batch by batch. */
class Turn {
  renders = 0;
  #messages = new Map(); // message id → { node, parts: Map(index → node) }
  #calls = new Map(); // "messageId#index" → { card, value }

  constructor() {
    this.node = el("li", "turn agent");
    this.node.dataset.state = "streaming";
    this.node.dataset.renders = "0";
    this.node.append(el("p", "who", "Agent"));
    this.body = el("div", "body");
    this.status = el("p", "status", "Waiting for the first bytes…");
    this.node.append(this.body, this.status);
    transcript.append(this.node);
  }

  #message(id, messageType, role) {
    let entry = this.#messages.get(id);
    if (entry) return entry;
    const type = messageType ?? "message";
    let node;
    if (type === "reasoning") {
      node = el("details", "msg reasoning");
      node.open = true;
      node.append(el("summary", "", "Thinking"));
    } else if (type.endsWith("_call_output")) {
      node = el("div", "msg tool-output"); // shown in the call's card once matched
    } else if (type.endsWith("_call")) {
      node = el("div", "msg tool-call");
    } else {
      node = el("div", `msg ${role === "user" ? "user-echo" : "answer"}`);
    }
    node.dataset.messageId = id;
    node.dataset.type = type;
    this.body.append(node);
    entry = { node, type, parts: new Map() };
    this.#messages.set(id, entry);
    return entry;
  }

  #part(messageId, index, className) {
    const entry = this.#message(messageId);
    let part = entry.parts.get(index);
    if (!part) {
      part = el("div", `part ${className}`);
      part.dataset.index = String(index);
      // Parts in index order, whatever order they arrive in.
      const next = [...entry.parts.entries()].filter(([i]) => i > index).sort(([a], [b]) => a - b)[0];
      entry.node.insertBefore(part, next ? next[1] : null);
      entry.parts.set(index, part);
    }
    return { entry, part };
  }

  #text(update) {
    const { part } = this.#part(update.messageId, update.index, "text");
    if (!part.firstChild) part.append(document.createTextNode(""));
    const node = part.firstChild;
    if (update.replace) node.data = update.delta;
    else node.appendData(update.delta);
  }

  #content(update) {
    const entry = this.#message(update.messageId);
    if (entry.type.endsWith("_call") || entry.type.endsWith("_call_output")) return; // tool cards
    const p = update.part;
    const { part } = this.#part(update.messageId, update.index, p.type);
    part.className = `part ${p.type}`;
    switch (p.type) {
      case "text":
      case "refusal": {
        const value = p.type === "text" ? p.text : p.refusal;
        if (typeof value === "string" && part.textContent !== value) part.textContent = value;
        break;
      }
      case "data":
        part.replaceChildren(renderData(p.data));
        break;
      case "image": {
        const url = safeUrl(p.image_url, { image: true });
        if (url) {
          const img = el("img");
          img.alt = "Image sent by the agent";
          img.src = url;
          img.referrerPolicy = "no-referrer";
          part.replaceChildren(img);
        } else if (p.image_url) {
          part.replaceChildren(blocked("image", p.image_url));
        }
        break;
      }
      default: { // file, audio, video: a link when safe
        const raw = p.file_url ?? p.video_url ?? (p.type === "audio" ? p.data : undefined);
        const url = safeUrl(raw);
        const name = p.filename ?? `${p.type} from the agent`;
        if (url) {
          const a = el("a", "", name);
          a.href = url;
          a.rel = "noopener noreferrer nofollow";
          a.target = "_blank";
          part.replaceChildren(el("span", "label", `${p.type}: `), a);
        } else if (raw) {
          part.replaceChildren(blocked(p.type, raw));
        } else {
          part.replaceChildren(el("span", "muted", name));
        }
      }
    }
  }

  /** Refreshes the tool-call cards from the assembler's tool-call mirror. */
  #toolCalls(calls) {
    let changed = false;
    for (const call of calls) {
      const key = `${call.messageId}#${call.index}`;
      let state = this.#calls.get(key);
      if (state?.value === call) continue; // unchanged calls keep their identity
      changed = true;
      if (!state) {
        // Agent API, Responses, A2A: the call is a message of its own. AG-UI: calls sit on an
        // assistant message (possibly one with text): each gets a card of its own.
        const own = call.messageType.endsWith("_call");
        const card = this.#message(own ? call.messageId : `${key}:call`, own ? call.messageType : "function_call").node;
        card.replaceChildren(el("div", "tool-head"), el("pre", "args"), el("div", "tool-result"));
        state = { card };
        this.#calls.set(key, state);
      }
      state.value = call;
      const head = state.card.querySelector(".tool-head");
      head.replaceChildren(el("span", "badge", "tool call"), el("code", "name", call.name ?? "…"),
        el("span", `tool-status ${call.completed ? "done" : ""}`, call.output !== null ? "✓ result" : call.completed ? "waiting for the result…" : "streaming arguments…"));
      state.card.querySelector(".args").textContent = call.arguments;
      const result = state.card.querySelector(".tool-result");
      if (call.output !== null) {
        const output = typeof call.output === "string" ? tryJson(call.output) : call.output;
        result.replaceChildren(el("span", "label", "Result"), el("pre", "output", JSON.stringify(output)));
      }
    }
    return changed;
  }

  /** Applies one batch of updates (one chunk's worth); returns whether anything changed. */
  apply(updates, calls) {
    let changed = false;
    for (const u of updates) {
      changed = true;
      switch (u.type) {
        case "message": {
          const entry = this.#message(u.id, u.messageType, u.role);
          entry.node.dataset.status = u.status;
          break;
        }
        case "text": this.#text(u); break;
        case "content": this.#content(u); break;
        case "response":
          this.status.textContent = `Run ${u.status}`;
          if (u.error) this.fail(`${u.error.code}: ${u.error.message}`);
          break;
        case "warning": addWarning(`${u.code}: ${u.message}`); break;
        default: break; // "arguments": the tool-call mirror below covers them
      }
    }
    if (this.#toolCalls(calls)) changed = true;
    if (changed) this.node.dataset.renders = String(++this.renders);
    return changed;
  }

  fail(message) {
    let box = this.node.querySelector(".error");
    if (!box) {
      box = el("p", "error");
      box.setAttribute("role", "alert");
      this.node.append(box);
    }
    box.textContent = message;
  }

  end(outcome) {
    this.node.dataset.state = outcome;
    this.status.textContent = outcome === "completed" ? "Done" : `Ended: ${outcome}`;
    if (outcome !== "completed" && !this.node.querySelector(".error")) {
      this.fail(outcome === "truncated" ? "The stream ended without a terminal event." : `The run ended: ${outcome}.`);
    }
    for (const r of this.node.querySelectorAll("details.reasoning")) r.open = false;
  }
}

function tryJson(text) {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** A data part: a table when it holds a list of flat rows (`days`), else its JSON. */
function renderData(data) {
  const rows = data && Array.isArray(data.days) ? data.days : null;
  if (!rows || rows.length === 0 || typeof rows[0] !== "object") {
    return el("pre", "json", JSON.stringify(data, null, 2));
  }
  const table = el("table");
  if (data.city) table.append(el("caption", "", `${data.city} forecast${data.unit ? ` (${data.unit})` : ""}`));
  const columns = Object.keys(rows[0]);
  const head = table.appendChild(el("thead")).appendChild(el("tr"));
  for (const c of columns) head.append(el("th", "", c));
  const body = table.appendChild(el("tbody"));
  for (const row of rows) {
    const tr = body.appendChild(el("tr"));
    for (const c of columns) tr.append(el("td", "", row?.[c] === undefined ? "" : String(row[c])));
  }
  return table;
}

// ---- Sending --------------------------------------------------------------------------------

let running = null;

/**
 * The route and request of each protocol for one user message (the worker's AgentApp serves all
 * four; in proxy mode only /process, translated into the protocol the page asks for).
 */
function requestFor(protocol, text) {
  const agentApi = { input: [{ role: "user", type: "message", content: [{ type: "text", text }] }], session_id: sessionId, stream: true };
  if (proxied) return { path: "/process", headers: {}, body: agentApi };
  switch (protocol) {
    case "openai-responses":
      return { path: "/compatible-mode/v1/responses", headers: {}, body: { model: "agentwire-demo", input: text, stream: true, conversation: sessionId } };
    case "ag-ui":
      return { path: "/ag-ui", headers: {}, body: { threadId: sessionId, runId: crypto.randomUUID(), messages: [{ id: crypto.randomUUID(), role: "user", content: text }], tools: [], context: [], state: {}, forwardedProps: {} } };
    case "a2a":
      return { path: "/a2a", headers: { "A2A-Version": "1.0" }, body: { jsonrpc: "2.0", id: 1, method: "SendStreamingMessage", params: { message: { messageId: crypto.randomUUID(), role: "ROLE_USER", contextId: sessionId, parts: [{ text }] } } } };
    default:
      return { path: "/process", headers: {}, body: agentApi };
  }
}

async function send(text, protocol, scenario) {
  const user = el("li", "turn user");
  user.append(el("p", "who", "You"), el("p", "text", text));
  transcript.append(user);
  const turn = new Turn();
  resetInspector(protocol);
  const raw = new RawEvents();
  const controller = new AbortController();
  running = controller;
  sendButton.disabled = true;
  stopButton.disabled = false;

  const asm = new StreamAssembler({ protocol });
  const started = performance.now();
  let firstToken = null;
  const render = (updates) => {
    if (firstToken === null && updates.some((u) => u.type === "text" || u.type === "arguments")) {
      firstToken = performance.now() - started;
      setStat("ttft", ms(firstToken));
    }
    if (turn.apply(updates, asm.toolCalls())) setStat("renders", turn.renders);
    turn.node.scrollIntoView({ block: "end" });
  };
  try {
    const { path, headers, body } = requestFor(protocol, text);
    const res = await fetch(`${path}?protocol=${encodeURIComponent(protocol)}&scenario=${encodeURIComponent(scenario)}`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "text/event-stream", ...headers },
      body: JSON.stringify(body),
      signal: controller.signal,
    });
    if (!res.ok) {
      const body = tryJson(await res.text());
      throw new Error(body?.error ? `${body.error.code}: ${body.error.message}` : `HTTP ${res.status}`);
    }
    turn.status.textContent = "Streaming…";
    const reader = res.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      setStat("chunks", stats.chunks + 1);
      setStat("bytes", stats.bytes + value.byteLength);
      raw.push(value);
      setStat("events", raw.count);
      render(asm.push(value));
    }
    raw.push(new Uint8Array(), true);
    setStat("events", raw.count);
    render(asm.finish());
    turn.end(asm.outcome);
  } catch (error) {
    if (controller.signal.aborted) {
      try { render(asm.finish()); } catch { /* the assembler already stopped */ }
      turn.end("canceled");
      turn.fail("Stopped by you.");
    } else {
      turn.fail(error?.code ? `${error.code}: ${error.message}` : String(error?.message ?? error));
      turn.end("error");
    }
  } finally {
    setStat("outcome", turn.node.dataset.state);
    setStat("duration", ms(performance.now() - started));
    try {
      setStat("protocol", asm.protocol ?? protocol);
      $("#snapshot").textContent = JSON.stringify(asm.snapshot(), null, 2);
    } catch { /* nothing to show */ }
    asm.free();
    running = null;
    sendButton.disabled = false;
    stopButton.disabled = true;
    document.body.dataset.runs = String(Number(document.body.dataset.runs ?? 0) + 1);
  }
}

form.addEventListener("submit", (event) => {
  event.preventDefault();
  const text = promptBox.value.trim();
  if (!text || running) return;
  const data = new FormData(form);
  send(text, data.get("protocol"), data.get("scenario") ?? "weather");
});
promptBox.addEventListener("keydown", (event) => {
  if (event.key === "Enter" && !event.shiftKey) {
    event.preventDefault();
    form.requestSubmit();
  }
});
stopButton.addEventListener("click", () => running?.abort());

setUp();
