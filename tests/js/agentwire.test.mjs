// The JS suite of agentwire, run by `node --test` and `deno test` against the package installed
// from the packed tarball (scripts/test.sh copies this folder into a throwaway project).
import test from "node:test";
import assert from "node:assert/strict";
import * as api from "agentwire";
import { cases } from "./cases.mjs";

for (const [name, run] of Object.entries(cases)) {
  test(name, async () => await run(api, assert));
}

test("the package exports exactly the public API", () => {
  assert.deepStrictEqual(Object.keys(api).sort(), ["AgentApp", "AgentwireError", "ContentBuilder", "MemoryRunStore", "MessageBuilder", "RedisRunStore", "ResponseBuilder", "RunStoreError",
    "StreamAssembler", "ToolCallBuilder", "Translator", "a2aAgentCard", "a2aCall", "a2aError", "a2aRequest", "a2aTask", "agUiRequest", "answerInterrupts", "convertHistory", "fromAgUiMessages", "fromResponsesInput", "nextTurn",
    "parseEvent", "parseRequest", "requestFor", "responsesRequest", "toAgUiMessages", "toResponsesInput", "translate", "upstream", "wasmMemoryBytes"]);
});

test("the runtime loads its own entry (export condition)", () => {
  const entry = typeof Deno === "undefined" ? "node.js" : "deno.js";
  assert.ok(import.meta.resolve("agentwire").endsWith(`/node_modules/agentwire/${entry}`),
    import.meta.resolve("agentwire"));
});
