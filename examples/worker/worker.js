// A Cloudflare Worker serving the Agent API: POST /process streams the scripted agent's events.
// Run it with `npx wrangler dev` next to wrangler.toml (after `npm install agentwire`); wrangler
// resolves "agentwire" through its `workerd` export condition and bundles the .wasm module.
//
// When the client goes away, workerd cancels the request's outstanding work: the agent's
// pending timer never fires again, so it stops where it was (tests/js/runners/handlers.mjs
// checks this under miniflare; there workerd does not call the body's cancel(), so the
// agent's AbortSignal, which Node and Deno fire, stays silent).
import { handleFetch } from "../shared/handler.js";

export default {
  /**
   * @param {Request} request
   * @param {{ EXPOSE_STATS?: string, DELAY_MS?: string }} env  `wrangler.toml` [vars]
   */
  fetch(request, env) {
    return handleFetch(request, {
      exposeStats: env.EXPOSE_STATS === "1",
      delayMs: env.DELAY_MS ? Number(env.DELAY_MS) : undefined,
    });
  },
};
