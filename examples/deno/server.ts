// The Agent API on Deno: POST /process streams the scripted agent's events.
//
//   deno run --allow-net --allow-read --allow-env examples/deno/server.ts
//
// "agentwire" resolves from node_modules (`npm install agentwire` next to a package.json) or
// from an import map entry `"agentwire": "npm:agentwire"`; --allow-read lets the package read
// its .wasm file. Environment: PORT (default 8787; 0 picks a free port), EXPOSE_STATS=1 serves
// GET /_stats, DELAY_MS sets the pause between streamed pieces.
//
// When the client goes away, Deno cancels the response body: the agent's AbortSignal fires and
// its next builder call throws, so it stops working.
import { handleFetch } from "../shared/handler.js";

const port = Number(Deno.env.get("PORT") ?? 8787);
const exposeStats = Deno.env.get("EXPOSE_STATS") === "1";
const delay = Deno.env.get("DELAY_MS");
const delayMs = delay ? Number(delay) : undefined;

Deno.serve(
  {
    hostname: "127.0.0.1",
    port,
    onListen: ({ hostname, port }) => console.log(`listening on http://${hostname}:${port}`),
  },
  (request: Request): Promise<Response> => handleFetch(request, { exposeStats, delayMs }),
);
