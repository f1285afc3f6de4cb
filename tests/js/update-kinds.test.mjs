// The same run in every protocol gives a renderer the same answer. The renderer below handles the
// update kinds the README's browser example handles (`message`, `text`, `arguments`) and, as the
// demo page does, `content` for media and data parts; it is written from the README, not from
// agentwire's code. One run (reasoning, a tool call with streamed arguments and its result, an
// answer in many deltas, a data part built from deltas, an image, a file) is written by
// ResponseBuilder in each protocol, then read whole, in random chunks and in 200-byte chunks: the
// texts, the tool calls and the media parts it shows must be those of the Agent API rendering.
import test from "node:test";
import assert from "node:assert/strict";
import { ResponseBuilder, StreamAssembler } from "agentwire";
import { randomCuts } from "./reference-streams.mjs";

const PROTOCOLS = ["agent-api", "openai-responses", "a2a", "a2a-0.3", "ag-ui"];
/** The protocols that carry media and data parts of a message (Responses has no such output). */
const MEDIA = new Set(["agent-api", "a2a", "a2a-0.3", "ag-ui"]);

const ANSWER = "You asked: “What is the weather in Hangzhou?” Right now it is sunny in Hangzhou, 24 °C at the warmest. The forecast table and a chart follow.";

async function demoRun(rb) {
  const thinking = rb.message({ type: "reasoning" });
  const thought = thinking.content("text");
  for (const t of ["The user asks ", "about the weather ", "in Hangzhou."]) thought.delta(t);
  thought.complete();
  thinking.complete();
  const call = rb.toolCall({ name: "get_weather", callId: "call_weather_1" });
  for (const piece of ['{"city": "', "Hangzhou", '", "days": ', "3", "}"]) call.arguments(piece);
  call.complete();
  rb.toolOutput({ callId: "call_weather_1", name: "get_weather", output: { city: "Hangzhou", days: [{ sky: "sunny" }] } });
  const answer = rb.message();
  const text = answer.content("text");
  for (const word of ANSWER.split(/(?<= )/)) text.delta(word);
  text.complete();
  const table = answer.content("data");
  table.delta({ city: "Hangzhou", days: [] });
  for (const day of ["sunny", "cloudy", "rain"]) table.delta({ days: [{ sky: day }] });
  table.complete();
  const image = answer.content("image");
  image.set("https://example.com/chart.png");
  image.complete();
  const file = answer.content("file");
  file.set({ file_url: "https://example.com/forecast.csv", filename: "forecast.csv" });
  file.complete();
  answer.complete();
}

async function runIn(protocol) {
  const stream = ResponseBuilder.stream(demoRun, { protocol, sessionId: "s1", threadId: "t1", runId: "r1" });
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** What a README-style renderer shows after applying every batch. */
function render(protocol, bytes, cuts) {
  const messages = new Map(); // id → {role, messageType}
  const texts = new Map(); // `${id}#${index}` → text
  const calls = new Map(); // `${id}#${index}` → {name, arguments}
  const media = []; // parts of content updates of answer messages, their last value per key
  const mediaAt = new Map();
  let responses = 0;
  const asm = new StreamAssembler({ protocol });
  const apply = (batch) => {
    for (const u of batch) {
      switch (u.type) {
        case "response":
          if (u.outcome !== "pending") responses += 1;
          break;
        case "message":
          if (u.created || !messages.has(u.id)) messages.set(u.id, { role: u.role, messageType: u.messageType });
          break;
        case "text": {
          const key = `${u.messageId}#${u.index}`;
          texts.set(key, (u.replace ? "" : texts.get(key) ?? "") + u.delta);
          break;
        }
        case "arguments": {
          const key = `${u.messageId}#${u.index}`;
          const was = calls.get(key) ?? { name: null, arguments: "" };
          calls.set(key, { name: u.name ?? was.name, arguments: (u.replace ? "" : was.arguments) + u.delta });
          break;
        }
        case "content": {
          const type = messages.get(u.messageId)?.messageType ?? "message";
          if (type !== "message" || !["data", "image", "file", "audio", "video"].includes(u.part.type)) break;
          const key = `${u.messageId}#${u.index}`;
          if (!mediaAt.has(key)) mediaAt.set(key, media.push(null) - 1);
          media[mediaAt.get(key)] = u.part;
          break;
        }
        default:
          break;
      }
    }
  };
  let start = 0;
  for (const cut of [...cuts, bytes.length]) {
    apply(asm.push(bytes.subarray(start, cut)));
    start = cut;
  }
  apply(asm.finish());
  asm.free();
  const byType = (wanted) => [...texts].filter(([key]) => {
    const type = messages.get(key.split("#")[0])?.messageType;
    return wanted === "reasoning" ? type === "reasoning" : type !== "reasoning";
  }).map(([, t]) => t).filter((t) => t !== "");
  const shown = (p) => ({
    type: p.type,
    data: p.data ?? null,
    url: p.image_url ?? p.file_url ?? null,
  });
  return {
    answer: byType("answer"),
    reasoning: byType("reasoning"),
    calls: [...calls.values()].map((c) => ({ name: c.name, arguments: c.arguments })),
    media: media.map(shown),
    responses,
  };
}

const chunkings = (bytes, seed) => [
  ["whole", []],
  ["200-byte chunks", Array.from({ length: Math.ceil(bytes.length / 200) - 1 }, (_, i) => (i + 1) * 200)],
  ["random chunks", [...randomCuts(bytes.length, 48, seed)]],
  ["random chunks (2)", [...randomCuts(bytes.length, 9, seed + 1)]],
];

test("a renderer of message, text, arguments and content updates shows the same answer in every protocol", async () => {
  const expected = render("agent-api", await runIn("agent-api"), []);
  assert.deepStrictEqual(expected.answer, [ANSWER]);
  assert.deepStrictEqual(expected.reasoning, ["The user asks about the weather in Hangzhou."]);
  assert.deepStrictEqual(expected.calls, [{ name: "get_weather", arguments: '{"city": "Hangzhou", "days": 3}' }]);
  assert.deepStrictEqual(expected.media.map((m) => m.type), ["data", "image", "file"]);
  for (const [i, protocol] of PROTOCOLS.entries()) {
    const bytes = await runIn(protocol);
    for (const [how, cuts] of chunkings(bytes, 0x5eed + i)) {
      const got = render(protocol, bytes, cuts);
      const where = `${protocol}, ${how}`;
      assert.deepStrictEqual(got.answer, expected.answer, `${where}: answer`);
      assert.deepStrictEqual(got.calls, expected.calls, `${where}: tool calls`);
      if (protocol !== "a2a" && protocol !== "a2a-0.3") {
        // A2A has no reasoning: the encoder leaves it out.
        assert.deepStrictEqual(got.reasoning, expected.reasoning, `${where}: reasoning`);
      }
      if (MEDIA.has(protocol)) assert.deepStrictEqual(got.media, expected.media, `${where}: media parts`);
      assert.strictEqual(got.responses, 1, `${where}: the terminal response update comes once`);
    }
  }
});
