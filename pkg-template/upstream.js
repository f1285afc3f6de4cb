// upstream(): an AgentApp agent that is another agent, reached over HTTP in its own protocol.
// Each run's request is written in the upstream's protocol by the core (requestFor), POSTed
// with the run's signal, and the answer is piped into the run (rb.pipe), so the app serves it in
// whatever protocol its client spoke. Upstream faults end the run failed with a coded error.
import { call } from "./instance.js";
import { StreamAssembler } from "./assembler.js";
import { errorText } from "./connect.js";
import { agentwireError, messageOf, objectText, optionsText } from "./values.js";

const PROTOCOLS = ["agent-api", "ag-ui", "openai-responses", "a2a", "a2a-0.3"];
/** Default wait for the upstream's answer, and for each of its chunks (ms). */
export const DEFAULT_UPSTREAM_TIMEOUT_MS = 300_000;
/** How much of an upstream's error answer is read into the error (bytes). */
const ERROR_BODY_BYTES = 2048;
/** How far into an A2A stream its task id is looked for (bytes). */
const SNIFF_BYTES = 64 * 1024;
const STREAM_TYPES = ["text/event-stream", "application/x-ndjson", "application/jsonl"];

/** requestFor(): see index.d.ts. */
export function requestFor(protocol, request, options) {
  const text = typeof request === "string" || request instanceof Uint8Array ? request : objectText(request, "requestFor");
  return call("requestFor", protocol, text, optionsText(options, "requestFor"));
}

// Reads upstream()'s options (unknown keys throw INVALID_OPTION naming the key).
function upstreamOptions(url, options) {
  let parsed;
  try {
    parsed = new URL(typeof url === "object" && url !== null && typeof url.href === "string" ? url.href : url);
  } catch (error) {
    throw agentwireError("INVALID_OPTION", "upstream(): url must be an absolute http(s) URL", "url", error);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw agentwireError("INVALID_OPTION", "upstream(): url must be an absolute http(s) URL", "url");
  }
  if (options === undefined || options === null) options = {};
  if (typeof options !== "object") throw agentwireError("INVALID_OPTION", "upstream() options must be an object");
  let protocol, headers, fetchFn, model, timeoutMs, rest;
  try {
    ({ protocol = "agent-api", headers, fetch: fetchFn, model, timeoutMs = DEFAULT_UPSTREAM_TIMEOUT_MS, ...rest } = options);
  } catch (error) {
    throw agentwireError("INVALID_OPTION", "upstream(): reading the options threw", undefined, error);
  }
  const unknown = Object.keys(rest)[0];
  if (unknown !== undefined) throw agentwireError("INVALID_OPTION", `upstream(): unknown option "${unknown}"`, unknown);
  if (!PROTOCOLS.includes(protocol)) {
    throw agentwireError("INVALID_OPTION", `upstream(): protocol must be one of ${PROTOCOLS.join(", ")}`, "protocol");
  }
  if (headers !== undefined && headers !== null && typeof headers !== "object" && typeof headers !== "function") {
    throw agentwireError("INVALID_OPTION", "upstream(): headers must be headers (an object, a Headers) or a function of the request returning them", "headers");
  }
  if (fetchFn !== undefined && typeof fetchFn !== "function") throw agentwireError("INVALID_OPTION", "upstream(): fetch must be a function", "fetch");
  if (model !== undefined && typeof model !== "string") throw agentwireError("INVALID_OPTION", "upstream(): model must be a string", "model");
  if (!Number.isSafeInteger(timeoutMs) || timeoutMs < 1) {
    throw agentwireError("INVALID_OPTION", "upstream(): timeoutMs must be a whole number of milliseconds >= 1", "timeoutMs");
  }
  // Errors name the upstream without its query or credentials.
  const where = `${parsed.origin}${parsed.pathname}`;
  return { url: parsed.href, where, protocol, headers, fetchFn, model, timeoutMs };
}

/**
 * An AgentApp agent serving the agent at `url`, which speaks `options.protocol` (see
 * upstream.d.ts).
 */
export function upstream(url, options) {
  const o = upstreamOptions(url, options);
  return async function upstreamAgent(request, rb, context) {
    const signal = context?.signal;
    const { body, headers: needed } = requestFor(o.protocol, request, o.model === undefined ? undefined : { model: o.model });
    const headers = await headersFor(o.headers, request);
    headers.set("content-type", "application/json");
    for (const [name, value] of Object.entries(needed)) if (!headers.has(name)) headers.set(name, value);
    const a2a = o.protocol === "a2a" || o.protocol === "a2a-0.3" ? { send: call("a2aStreamingSend", body), taskId: null } : null;
    const controller = new AbortController();
    let timedOut = null;
    let timer = null;
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        timedOut = agentwireError("UPSTREAM_TIMEOUT", `upstream(): ${o.where} sent nothing for ${o.timeoutMs} ms`, "timeoutMs");
        controller.abort(timedOut);
      }, o.timeoutMs);
    };
    const disarm = () => clearTimeout(timer);
    const onAbort = () => controller.abort(signal.reason);
    if (signal?.aborted) return;
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      arm();
      let res;
      try {
        res = await (o.fetchFn ?? fetch)(o.url, { method: "POST", headers, body, signal: controller.signal });
      } catch (error) {
        throw agentwireError("UPSTREAM_FAILED", `upstream(): POST ${o.where} failed: ${messageOf(error, "the request threw")}`, undefined, error);
      }
      disarm();
      if (a2a) a2a.taskId = res.headers.get("x-agentwire-run-id");
      const type = (res.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
      if (!res.ok || !STREAM_TYPES.includes(type) || res.body === null) {
        const text = (await errorText(res, ERROR_BODY_BYTES)).trim();
        const what = res.ok ? `answered ${res.status} with ${type === "" ? "no content type" : JSON.stringify(type)}, not a stream` : `answered ${res.status}`;
        throw Object.assign(agentwireError("UPSTREAM_FAILED", `upstream(): POST ${o.where} ${what}${text === "" ? "" : `: ${text}`}`),
          { status: res.status, body: text });
      }
      const stream = watched(res.body, { arm, disarm, a2a });
      await rb.pipe(stream, { protocol: o.protocol, signal: controller.signal });
    } catch (thrown) {
      // The run was stopped (its signal): the app ends it; the upstream request is aborted.
      if (signal?.aborted) return;
      const error = timedOut ?? thrown;
      if (!rb.finished && typeof error?.code === "string" && error.code.startsWith("UPSTREAM_")) {
        rb.failed({ code: error.code, message: error.message });
      }
      throw error;
    } finally {
      disarm();
      signal?.removeEventListener("abort", onAbort);
      if (!controller.signal.aborted) controller.abort();
      if (a2a && (signal?.aborted || timedOut) && a2a.send !== null && a2a.taskId !== null) {
        cancelTask(o, headers, a2a);
      }
    }
  };
}

/** The headers of a request: the caller's (or those its function gives for `request`). */
async function headersFor(option, request) {
  let given = option;
  try {
    if (typeof option === "function") given = await option(request);
    return new Headers(given ?? undefined);
  } catch (error) {
    throw agentwireError("INVALID_OPTION", `upstream(): the headers could not be read: ${messageOf(error, "they threw")}`, "headers", error);
  }
}


/**
 * `body` read one chunk at a time (no read ahead: the run's reader paces the upstream), each
 * read within the timeout; for A2A, the task id is taken from the first events.
 */
function watched(body, { arm, disarm, a2a }) {
  const reader = body.getReader();
  let sniff = a2a !== null && a2a.taskId === null ? new StreamAssembler({ protocol: "auto" }) : null;
  let seen = 0;
  const stopSniffing = () => {
    sniff?.free();
    sniff = null;
  };
  return new ReadableStream({
    async pull(controller) {
      arm();
      let step;
      try {
        step = await reader.read();
      } catch (error) {
        stopSniffing();
        controller.error(error);
        return;
      } finally {
        disarm();
      }
      if (step.done) {
        stopSniffing();
        controller.close();
        return;
      }
      if (sniff !== null) {
        try {
          // The task id comes with a `response` update: no snapshot per chunk (a stream of
          // 1-byte chunks made that quadratic in the bytes sniffed).
          for (const u of sniff.push(step.value)) {
            if (u.type === "response" && typeof u.id === "string" && u.id !== "") a2a.taskId = u.id;
          }
        } catch {
          // Not readable: the pipe reports it.
        }
        seen += step.value.byteLength;
        if (a2a.taskId !== null || seen > SNIFF_BYTES) stopSniffing();
      }
      controller.enqueue(step.value);
    },
    cancel(reason) {
      stopSniffing();
      return reader.cancel(reason);
    },
  }, { highWaterMark: 0 });
}

/** A2A: asks the upstream to cancel the task the run had started (best effort, not awaited). */
function cancelTask(o, headers, a2a) {
  try {
    const body = call("a2aTaskRequest", a2a.send.id, a2a.send.cancel, a2a.taskId);
    const fetchFn = o.fetchFn ?? fetch;
    Promise.resolve(fetchFn(o.url, { method: "POST", headers, body, signal: AbortSignal.timeout(10_000) }))
      .then((res) => res.body?.cancel().catch(() => {}), () => {});
  } catch {
    // Best effort: the upstream's own abandonment ends the task.
  }
}
