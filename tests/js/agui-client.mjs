// The real @ag-ui/client 1.0.0 (the workspace's pinned devDependency), run in-process: an
// AbstractAgent subclass whose run() replays events, one per macrotask as over HTTP (the
// client's apply stage is asynchronous, so a synchronous source would let a later rejection
// overtake the application of earlier events). Shared by the AG-UI differential and the
// conversation tests.
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";

/** Loads the client and rxjs from the workspace at `root` (AGENTWIRE_ROOT). */
export async function loadClient(root) {
  if (!root) throw new Error("AGENTWIRE_ROOT is not set: run through scripts/test.sh (AGENTWIRE_ALLOW_SKIP=1 skips)");
  const client = await import(pathToFileURL(`${root}/node_modules/@ag-ui/client/dist/index.mjs`).href);
  const rxjs = createRequire(`${root}/package.json`)("rxjs");
  return { client, rxjs };
}

/** The client's messages, state and rejection (its message) after `events`. */
export async function replay({ client, rxjs }, events) {
  class ReplayAgent extends client.AbstractAgent {
    run() {
      return rxjs.from(events.map((e) => structuredClone(e)))
        .pipe(rxjs.concatMap((e) => rxjs.of(e).pipe(rxjs.delay(0))));
    }
  }
  const agent = new ReplayAgent({});
  const saved = { warn: console.warn, error: console.error };
  console.warn = () => {};
  console.error = () => {};
  let error;
  try {
    await agent.runAgent();
  } catch (e) {
    error = e instanceof Error ? e.message : String(e);
  } finally {
    console.warn = saved.warn;
    console.error = saved.error;
  }
  // JSON round trip: undefined-valued keys are absent, as on the wire.
  return { messages: JSON.parse(JSON.stringify(agent.messages)), state: JSON.parse(JSON.stringify(agent.state ?? null)), error };
}
