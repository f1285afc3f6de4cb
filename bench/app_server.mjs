// The AgentApp side of bench/app.mjs: agentwire's AgentApp on node:http (127.0.0.1, a free port
// printed as `listening <port>`), a scripted agent without delays whose answer is DELTAS text
// deltas (with the run's other events, about DELTAS + 6 events per stream). RETENTION_MS, when
// set, is how long ended runs are kept (the store's default otherwise: 10 minutes, at most
// 10,000 runs, which is most of the server's memory after a few thousand streams).
import { createServer } from "node:http";
import { AgentApp, MemoryRunStore } from "../pkg/node.js";

const deltas = Number(process.env.DELTAS ?? 194);
const app = new AgentApp({
  agent: async (request, rb) => {
    const text = rb.message().content("text");
    for (let i = 0; i < deltas; i++) {
      text.delta(`word${i} `);
      if (i % 16 === 15) await rb.ready();
    }
  },
  // The bench's clients are anonymous, hence one principal, and CLIENTS (100) of them run at
  // once: the default caps (32 running runs per principal, 1000 per instance) would refuse most
  // of them with 429 TOO_MANY_RUNS, and the bench would measure refusals. The caps are raised to
  // what the bench sends at most; they are not what is measured.
  runs: {
    maxRunningPerPrincipal: 10_000,
    maxRunning: 10_000,
    ...(process.env.RETENTION_MS ? { store: new MemoryRunStore({ retentionMs: Number(process.env.RETENTION_MS) }) } : {}),
  },
});
const server = createServer(app.nodeListener);
server.listen(0, "127.0.0.1", () => console.log(`listening ${server.address().port}`));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
