// What the Node AgentApp tests share: an app on node:http at 127.0.0.1, and a JSON POST.
import { createServer } from "node:http";

/** Serves `app` on a free port of 127.0.0.1: `{server, base}`. */
export async function listen(app) {
  const server = createServer(app.nodeListener);
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, base: `http://127.0.0.1:${server.address().port}` };
}

/** POSTs `body` (JSON, or a string as it is) to `url`. */
export function post(url, body, headers = {}) {
  return fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: typeof body === "string" ? body : JSON.stringify(body) });
}
