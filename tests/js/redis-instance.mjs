// An AgentApp instance in its own process, its runs in Redis (argv: redis url, lease ms), for the
// instance-loss test: it prints its port, then serves an agent that writes a little and waits
// until stopped, until the test kills the process.
import { createServer } from "node:http";
import { createRequire } from "node:module";
import { AgentApp, RedisRunStore } from "agentwire";

const { createClient } = createRequire(`${process.env.AGENTWIRE_ROOT}/package.json`)("redis");
const client = createClient({ url: process.argv[2] });
await client.connect();
const app = new AgentApp({
  agent: async (request, rb, { signal }) => {
    rb.message().content("text").delta("working on it");
    await new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));
  },
  runs: { store: new RedisRunStore(client, { leaseMs: Number(process.argv[3]) }) },
});
const server = createServer(app.nodeListener);
server.listen(0, "127.0.0.1", () => process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`));
