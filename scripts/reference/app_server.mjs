// agentwire's AgentApp on node:http (127.0.0.1, a free port, printed on stdout as `listening
// <port>`) with a scripted agent, for the Python checks (scripts/reference/app_clients.py).
// `text`: the reference's captured text agent ("Hi", "! My name is Friday", "."); `tools`
// (default): a tool call with streamed arguments, its result, then the answer; `slow`: 40 words,
// 20 ms apart, stopping when the run is canceled.
// Usage: node scripts/reference/app_server.mjs PKG_DIR [text|tools|slow]
import { createServer } from "node:http";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { weatherAgent } from "../../tests/js/scripted-agent.mjs";

const [pkg, script = "tools"] = process.argv.slice(2);
const { AgentApp } = await import(pathToFileURL(resolve(pkg, "node.js")).href);

const agents = {
  async text(request, rb) {
    const text = rb.message().content("text");
    for (const piece of ["Hi", "! My name is Friday", "."]) text.delta(piece);
  },
  async slow(request, rb, { signal }) {
    const text = rb.message().content("text");
    for (let i = 0; i < 40 && !signal.aborted; i++) {
      text.delta(`w${i} `);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  },
  tools: weatherAgent,
};

const app = new AgentApp({ name: "Friday", description: "A scripted agent", version: "1.0.0", agent: agents[script] });
const server = createServer(app.nodeListener);
server.listen(0, "127.0.0.1", () => console.log(`listening ${server.address().port}`));
process.stdin.on("end", () => server.close(() => process.exit(0)));
process.stdin.resume();
