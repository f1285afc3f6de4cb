// Replays the builder scenarios of examples/builder_scenarios.rs through the JS API of the built
// package, so that scripts/reference/check_builder.py can check what the JS face emits against
// the real reference, and compares each JS stream with the Rust one byte for byte (after
// replacing ids and timestamps, which are random / clock-based on both sides). Adds one
// scenario of its own: the example agent (examples/shared/agent.js) run through
// ResponseBuilder.stream().
//
// Usage: node scripts/reference/js_scenarios.mjs PKG_DIR RUST_SCENARIO_DIR OUT_DIR
import { readdirSync, readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [pkgDir, rustDir, outDir] = process.argv.slice(2).map((p) => resolve(p));
if (!outDir) throw new Error("usage: js_scenarios.mjs PKG_DIR RUST_SCENARIO_DIR OUT_DIR");
const { ResponseBuilder } = await import(pathToFileURL(join(pkgDir, "node.js")).href);
const { scriptedAgent } = await import(new URL("../../examples/shared/agent.js", import.meta.url).href);
mkdirSync(outDir, { recursive: true });

function concat(parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}

async function readAll(stream) {
  const parts = [];
  for await (const chunk of stream) parts.push(chunk);
  return concat(parts);
}

/** Runs one scenario's ops through the JS API; returns the concatenated bytes. */
async function run(options, ops) {
  const rb = new ResponseBuilder(options);
  const ms = [], cs = [], ts = [];
  const out = [];
  for (const op of ops) {
    switch (op.op) {
      case "created": out.push(rb.created()); break;
      case "in_progress": out.push(rb.inProgress()); break;
      case "message": ms.push(rb.message({ ...(op.role && { role: op.role }), ...(op.type && { type: op.type }) })); break;
      case "start": out.push(ms[op.m].start()); break;
      case "content": cs.push(ms[op.m].content(op.type)); break;
      case "delta": out.push(cs[op.c].delta(op.value)); break;
      case "set": out.push(cs[op.c].set(op.value)); break;
      case "complete_content": out.push(cs[op.c].complete()); break;
      case "complete_message": out.push(ms[op.m].complete()); break;
      case "message_usage": ms[op.m].setUsage(op.usage); break;
      case "completed":
        out.push(rb.completed({ ...(op.usage && { usage: op.usage }), closeOpen: op.close_open === true }));
        break;
      case "failed": out.push(rb.failed({ code: op.code, message: op.message })); break;
      case "canceled": out.push(rb.canceled()); break;
      case "tool_call":
        ts.push(rb.toolCall({ type: op.kind, callId: op.call_id, name: op.name, ...(op.server_label && { serverLabel: op.server_label }) }));
        break;
      case "tool_arguments": out.push(ts[op.t].arguments(op.piece)); break;
      case "complete_tool_call": out.push(ts[op.t].complete()); break;
      case "tool_output":
        out.push(rb.toolOutput({ type: op.kind, callId: op.call_id, output: op.output, ...(op.name && { name: op.name }) }));
        break;
      case "from_text": out.push(await readAll(ResponseBuilder.fromText(op.tokens, options))); break;
      default: throw new Error(`unknown op ${op.op}`);
    }
  }
  rb.free();
  return concat(out);
}

/** The text with ids (by first appearance) and timestamps replaced. */
function normalise(text) {
  const ids = new Map();
  return text
    .replace(/(response|msg)_[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/g, (id) => {
      if (!ids.has(id)) ids.set(id, `ID${ids.size}`);
      return ids.get(id);
    })
    .replace(/"(created_at|completed_at)":\d+/g, '"$1":0');
}

const dec = new TextDecoder();
let failures = 0;
let count = 0;
for (const file of readdirSync(rustDir).filter((f) => f.endsWith(".json")).sort()) {
  const manifest = JSON.parse(readFileSync(join(rustDir, file), "utf8"));
  const options = { sessionId: manifest.session_id, format: manifest.format, omitNulls: manifest.omit_nulls };
  const bytes = await run(options, manifest.ops);
  const rust = readFileSync(join(rustDir, `${manifest.name}.${manifest.format}`));
  if (normalise(dec.decode(bytes)) !== normalise(dec.decode(rust))) {
    failures++;
    console.log(`FAIL ${manifest.name}: the JS face emits other bytes than the Rust builder:\n  js:   ${dec.decode(bytes).slice(0, 400)}\n  rust: ${dec.decode(rust).slice(0, 400)}`);
  }
  const name = `js_${manifest.name}`;
  writeFileSync(join(outDir, `${name}.${manifest.format}`), bytes);
  writeFileSync(join(outDir, `${name}.json`), JSON.stringify({ ...manifest, name }, null, 2));
  count++;
}

// The example agent, streamed (no delays), with a tool call, reasoning, and usage by default.
const agentBytes = await readAll(ResponseBuilder.stream(
  (rb, { signal }) => scriptedAgent(rb, { signal, delayMs: 0 }),
  { sessionId: "session-js_scripted_agent" },
));
writeFileSync(join(outDir, "js_scripted_agent.sse"), agentBytes);
writeFileSync(join(outDir, "js_scripted_agent.json"), JSON.stringify({
  name: "js_scripted_agent", format: "sse", omit_nulls: false, parity: false,
  session_id: "session-js_scripted_agent", ops: [],
}, null, 2));
count++;
console.log(`${count} JS scenarios written to ${outDir}; ${count - 1} compared with the Rust builder's bytes, ${failures} differ`);
process.exitCode = failures === 0 ? 0 : 1;
