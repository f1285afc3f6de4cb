// Every protocol to every other: a run (a tool call with streamed arguments, its output, an
// answer in several deltas) is written in each source protocol, translated to each target, in
// random chunks, and assembled in the target: the answer text, the tool call with its arguments
// and the outcome survive every ordered pair, for a completed run and for a failed one. The
// README's protocol matrix is generated from this test's results (AGENTWIRE_WRITE_README=1 writes
// it; otherwise the README must already hold it).
import test from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ResponseBuilder, StreamAssembler, Translator } from "agentwire";
import { randomCuts, referenceStreams } from "./reference-streams.mjs";

const PROTOCOLS = ["agent-api", "ag-ui", "openai-responses", "a2a", "a2a-0.3"];
const ANSWER = "Sunny in Hangzhou, 24 °C — “clear” skies.";

async function source(protocol, fail) {
  const stream = ResponseBuilder.stream(async (rb) => {
    const call = rb.toolCall({ name: "get_weather", callId: "call_1" });
    call.arguments('{"city":');
    call.arguments('"Hangzhou"}');
    call.complete();
    rb.toolOutput({ callId: "call_1", name: "get_weather", output: "Sunny" });
    const text = rb.message().content("text");
    for (const word of ANSWER.split(/(?<= )/)) text.delta(word);
    if (fail) throw new Error("the model broke off");
  }, { protocol, sessionId: "s1", threadId: "t1", runId: "r1" });
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

function translate(bytes, from, to, seed) {
  const t = new Translator({ from, to });
  const parts = [];
  let start = 0;
  for (const cut of [...randomCuts(bytes.length, 40, seed), bytes.length]) {
    parts.push(t.push(bytes.subarray(start, cut)));
    start = cut;
  }
  parts.push(t.finish());
  const warnings = t.warnings;
  t.free();
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return { out, warnings };
}

function assemble(bytes, protocol) {
  const asm = new StreamAssembler({ protocol });
  asm.push(bytes);
  asm.finish();
  const snapshot = asm.snapshot();
  const calls = asm.toolCalls().map((c) => ({ name: c.name, arguments: c.arguments }));
  const outcome = asm.outcome;
  asm.free();
  let text;
  if (protocol === "ag-ui") {
    text = snapshot.messages.filter((m) => m.role === "assistant" && typeof m.content === "string").map((m) => m.content).join("");
  } else {
    const items = [...(snapshot.output ?? []), ...(snapshot.incompleteMessages ?? [])];
    text = items.filter((m) => m.type === "message").flatMap((m) => m.content ?? []).map((c) => c.text ?? "").join("");
  }
  return { text, calls, outcome };
}

const results = new Map();

for (const [i, from] of PROTOCOLS.entries()) {
  for (const [j, to] of PROTOCOLS.entries()) {
    test(`translate ${from} → ${to}: answer, tool call and outcome survive`, async () => {
      const kept = [];
      for (const fail of [false, true]) {
        const { out, warnings } = translate(await source(from, fail), from, to, 1 + i * 17 + j + (fail ? 1000 : 0));
        const got = assemble(out, to);
        const where = `${from} → ${to}${fail ? " (failed run)" : ""}`;
        assert.equal(got.outcome, fail ? "failed" : "completed", `${where}: outcome`);
        assert.equal(got.text, ANSWER, `${where}: answer`);
        assert.deepEqual(got.calls, [{ name: "get_weather", arguments: '{"city":"Hangzhou"}' }], `${where}: tool call`);
        kept.push(...warnings.map((w) => w.code));
      }
      results.set(`${from}→${to}`, kept);
    });
  }
}

// Over the reference corpus: a run reaching the target through any source protocol holds what
// it holds when translated to the target directly (texts in order, tool calls, outcome).
function essence(bytes, protocol) {
  const asm = new StreamAssembler({ protocol });
  asm.push(bytes);
  asm.finish();
  const snapshot = asm.snapshot();
  const calls = asm.toolCalls().map((c) => `${c.name}(${c.arguments})`);
  const outcome = asm.outcome;
  asm.free();
  const texts = protocol === "ag-ui"
    ? snapshot.messages.filter((m) => m.role === "assistant" && typeof m.content === "string" && m.content !== "").map((m) => m.content)
    : [...(snapshot.output ?? []), ...(snapshot.incompleteMessages ?? [])].filter((m) => m.type === "message")
      .map((m) => (m.content ?? []).map((c) => c.text ?? c.refusal ?? "").join("")).filter((t) => t !== "");
  return { texts, calls, outcome };
}

test("every pair over the reference corpus keeps what a direct translation keeps", () => {
  let compared = 0;
  for (const [k, [name, reference]] of referenceStreams().entries()) {
    for (const to of PROTOCOLS) {
      const direct = essence(translate(reference, "agent-api", to, k).out, to);
      for (const from of PROTOCOLS) {
        const viaSource = translate(reference, "agent-api", from, k + 7).out;
        const got = essence(translate(viaSource, from, to, k + 13).out, to);
        assert.deepEqual(got, direct, `${name}: agent-api → ${from} → ${to}`);
        compared += 1;
      }
    }
  }
  assert.ok(compared >= 8 * 25, `only ${compared} comparisons`);
});

test("the README's protocol matrix is the one these translations give", () => {
  const header = `| from \\ to | ${PROTOCOLS.map((p) => `\`${p}\``).join(" | ")} |`;
  const rule = `|---|${PROTOCOLS.map(() => ":-:").join("|")}|`;
  const rows = PROTOCOLS.map((from) => `| \`${from}\` | ${PROTOCOLS.map((to) => {
    const warnings = results.get(`${from}→${to}`);
    return warnings === undefined ? "✗" : "✓";
  }).join(" | ")} |`);
  const table = [header, rule, ...rows].join("\n");
  const root = process.env.AGENTWIRE_ROOT;
  if (!root) return;
  const path = join(root, "README.md");
  const readme = readFileSync(path, "utf8");
  const marked = /<!-- translate-matrix -->\n(?:[\s\S]*?\n)?<!-- \/translate-matrix -->/;
  const block = `<!-- translate-matrix -->\n${table}\n<!-- /translate-matrix -->`;
  if (process.env.AGENTWIRE_WRITE_README === "1") {
    writeFileSync(path, readme.replace(marked, block));
    return;
  }
  assert.match(readme, marked, "README.md has no translate-matrix block");
  assert.equal(readme.match(marked)[0], block, "README.md's protocol matrix differs: run this test with AGENTWIRE_WRITE_README=1");
});
