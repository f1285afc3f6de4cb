// The shared server guarantees (server-guarantees.mjs) on Node: `createServer(app.nodeListener)`
// on 127.0.0.1, checked over HTTP with keep-alive. The same checks run under Deno.serve
// (deno-app.mjs), workerd (runners/workerd.mjs) and Durable Objects (runners/durable.mjs).
import test from "node:test";
import assert from "node:assert/strict";
import { AgentApp } from "agentwire";
import { listen } from "./http-helpers.mjs";
import { raw } from "./raw-socket.mjs";
import { GUARANTEES, guaranteeApp } from "./server-guarantees.mjs";

const app = guaranteeApp(AgentApp);
const { server, base } = await listen(app);
const ctx = { fetch, base, assert, raw: (text) => raw(base, text), store: "memory" };
test.after(async () => {
  server.closeAllConnections?.();
  server.close();
  await app.close();
});
for (const [name, check] of Object.entries(GUARANTEES)) test(name, () => check(ctx));
