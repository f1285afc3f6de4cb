// The Responses WebSocket mode checked the same way on every runtime that serves it from its
// fetch handler (Deno.serve, workerd through miniflare): a turn's events up to response.completed,
// a store: false response continued on its socket and unknown on another, a message that is not
// a create answered with an error event on a socket that stays usable. `WebSocketImpl` is the
// standard WebSocket class of the runner (Deno's global, `ws` in Node); the app's agent answers
// anything with some output.

/** A socket to `url` with a `turn(event)` that resolves with the messages up to the turn's end. */
async function open(WebSocketImpl, url) {
  const ws = new WebSocketImpl(url);
  await new Promise((resolve, reject) => {
    ws.addEventListener("open", resolve, { once: true });
    ws.addEventListener("error", () => reject(new Error(`no WebSocket at ${url}`)), { once: true });
  });
  const queue = [];
  let wake = null;
  ws.addEventListener("message", (event) => {
    queue.push(JSON.parse(typeof event.data === "string" ? event.data : new TextDecoder().decode(event.data)));
    wake?.();
  });
  const turn = async (event) => {
    ws.send(typeof event === "string" ? event : JSON.stringify(event));
    const messages = [];
    for (;;) {
      while (queue.length === 0) await new Promise((resolve) => (wake = resolve));
      const message = queue.shift();
      messages.push(message);
      if (message.type === "error" || /^response\.(completed|failed|incomplete)$/.test(message.type)) return messages;
    }
  };
  return { ws, turn };
}

/** Runs the checks against the Responses route at `url` (ws:// or wss://). */
export async function socketChecks({ url, WebSocketImpl, assert }) {
  const a = await open(WebSocketImpl, url);
  const first = await a.turn({ type: "response.create", model: "m", store: false, input: "remember cobalt" });
  assert.equal(first[0].type, "response.created", JSON.stringify(first[0]));
  assert.deepEqual(first.map((m) => m.sequence_number), first.map((_, i) => i));
  const completed = first.at(-1);
  assert.equal(completed.type, "response.completed");
  assert.ok(completed.response.output.length > 0, "the response has output");
  const next = (await a.turn({ type: "response.create", model: "m", store: false, previous_response_id: completed.response.id, input: "the word?" })).at(-1);
  assert.equal(next.type, "response.completed");
  const bad = await a.turn("{not json");
  assert.equal(bad[0].type, "error");
  assert.equal(bad[0].error.code, "invalid_json");
  const b = await open(WebSocketImpl, url);
  const missing = (await b.turn({ type: "response.create", model: "m", store: false, previous_response_id: next.response.id, input: "again" })).at(-1);
  assert.equal(missing.type, "error");
  assert.equal(missing.error.code, "previous_response_not_found");
  assert.equal((await a.turn({ type: "response.create", model: "m", input: "still here" })).at(-1).type, "response.completed");
  a.ws.close();
  b.ws.close();
}
