// A Vite app using agentwire the way a web developer would: import it, emit a small stream with
// ResponseBuilder, assemble it with StreamAssembler (fed in 7-byte chunks, so events and
// characters are split), and render the result; then the same bytes with agentwire/lite, loaded
// on demand (its own chunk and wasm asset). tests/vite/run.mjs builds this with
// `vite build`, serves dist/ and reads the rendered values in headless Chromium.
import { ResponseBuilder, StreamAssembler, translate } from "agentwire";

const show = (id, value) => { document.getElementById(id).textContent = value; };

function concat(parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
}

try {
  // Emit: every builder call returns its SSE frame(s).
  const rb = new ResponseBuilder({ responseId: "resp_vite", sessionId: "vite" });
  const message = rb.message();
  const text = message.content("text");
  const bytes = concat([rb.created(), text.delta("Hello from "), text.delta("Vite ⚡"), text.complete(), message.complete(), rb.completed()]);
  rb.free();

  // Assemble, chunk by chunk, rendering the coalesced text updates.
  const asm = new StreamAssembler();
  let rendered = "";
  for (let i = 0; i < bytes.length; i += 7) {
    for (const u of asm.push(bytes.subarray(i, i + 7))) if (u.type === "text") rendered += u.delta;
  }
  asm.finish();
  show("text", rendered);
  show("outcome", asm.outcome);
  asm.free();

  // The async statics: fromText() → collect(), and translate() → an OpenAI Responses stream.
  const snapshot = await StreamAssembler.collect(ResponseBuilder.fromText(["stream", "ed"]));
  show("collected", snapshot.output[0].content[0].text);
  const responses = translate(ResponseBuilder.fromText(["trans", "lated"]), { from: "agent-api", to: "openai-responses" });
  const translated = await StreamAssembler.collect(responses, { protocol: "openai-responses" });
  show("translated", `${translated.outcome}: ${translated.output.at(-1).content[0].text}`);

  // agentwire/lite: the assembler alone, imported when needed.
  const lite = await import("agentwire/lite");
  const liteSnapshot = await lite.StreamAssembler.collect(new Response(bytes));
  show("lite", `${liteSnapshot.outcome}: ${liteSnapshot.output[0].content[0].text}`);
  document.body.dataset.done = "true";
} catch (error) {
  document.body.dataset.error = `${error?.code ?? ""} ${error?.stack ?? error}`;
}
