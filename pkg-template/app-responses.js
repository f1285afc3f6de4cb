// OpenAI Responses' routes beside a run's start, resume and cancel: a stored response's input
// items, and compaction (`POST <responses>/compact`, served when the app has a `compact` hook;
// 405 otherwise, as for any method a route does not take). A compact request is read by the core
// as an Agent API request, the conversation of its `previous_response_id` goes before its input
// (as a `create` gets it), and the messages the hook makes of it are written by the core into a
// `response.compaction` answer, whose `compaction` item a later request's input gives the agent
// back as those messages (src/responses/compact.rs).
import { call } from "./instance.js";
import { textOf } from "./values.js";
import { HttpError, badRequest, jsonText } from "./app-http.js";
import { isRunId, randomId } from "./app-protocols.js";
import { chainResponse } from "./app-conversations.js";
import { forward } from "./app-durable.js";

/**
 * `GET <responses>/<id>/input_items` of `run` (the caller's, or null): the response's input
 * items, listed by the core; 404 for none or one made with `store: false`.
 */
export function inputItemList(run, id, url) {
  if (!run || run.meta?.store === false) throw new HttpError("NOT_FOUND", "No such response.");
  const query = ["limit", "order", "after", "before"].map((k) => url.searchParams.get(k) ?? undefined);
  try {
    return jsonText(call("responsesInputList", JSON.stringify(run.meta?.input ?? []), id, ...query));
  } catch (e) {
    if (e?.code === "INVALID_REQUEST") throw new HttpError("INVALID_REQUEST", e.message, e.field);
    throw e;
  }
}

/** A compact request's body as an Agent API request (400 naming the field). */
function compactRequest(bytes) {
  try {
    return call("responsesCompactRequest", textOf(bytes, "responsesCompactRequest"));
  } catch (e) {
    throw badRequest(e);
  }
}

/**
 * `POST <responses>/compact`: `hook(request, {principal, signal})` gives the compacted
 * conversation (Agent API messages) of `request` (the body's input after the conversation of
 * its `previous_response_id`, read from `runs`); answered as `response.compaction`. `bytes`: the
 * body, read within the app's limit.
 */
export async function answerCompact(hook, runs, request, context, bytes) {
  const agentRequest = compactRequest(bytes);
  await chainResponse(runs, agentRequest, context.principal);
  const messages = await hook(agentRequest, { principal: context.principal, signal: request.signal });
  if (!Array.isArray(messages) || !messages.every((m) => typeof m?.role === "string")) {
    throw new TypeError("AgentApp: compact must return an array of Agent API messages (each with a role)");
  }
  return jsonText(call("responsesCompaction", randomId("cmp_"), Math.floor(Date.now() / 1000), JSON.stringify(messages)));
}

/**
 * With Durable Objects: a compact request that follows a response is answered by that
 * response's object (whose store holds the run); any other by `local(request)`, here.
 */
export function compactOnObject(namespace, request, principal, bytes, local) {
  let previous;
  try {
    previous = compactRequest(bytes).previous_response_id;
  } catch {
    previous = undefined; // answered here: the same 400
  }
  if (typeof previous === "string" && isRunId(previous)) return forward(namespace, request, { id: previous, principal, body: bytes });
  return local(new Request(request.url, { method: "POST", headers: request.headers, body: bytes }));
}
