// The demo's scripted agent: no model, no keys, no network. It extends the examples' agent
// (examples/shared/agent.js) with everything the demo page renders, paced like a model:
//   1. a reasoning message, streamed, that quotes the question;
//   2. a tool call `get_weather` whose JSON arguments stream in pieces, then its output;
//   3. the answer: text streamed word by word (it quotes the question too, so markup typed into
//      the page comes back as agent text), a data part whose forecast rows stream as data
//      deltas, an image part (an SVG chart as a `data:image/svg+xml` URL) and a file part;
//   4. `completed`, with usage.
// Scenarios (`scenario` option): "weather" (the above), "fail" (the agent throws half-way
// through the answer: ResponseBuilder.stream ends the stream with a `failed` event, code
// AGENT_ERROR), "unsafe" (the image and file parts carry `javascript:`/`data:text/html` URLs,
// which the page must show as inert text).
import { lastUserText, sleep } from "../examples/shared/agent.js";

/** The scenarios the page offers. */
export const SCENARIOS = ["weather", "fail", "unsafe"];

const SKIES = ["sunny", "partly cloudy", "cloudy", "light rain", "showers", "clear"];

/** A small deterministic hash, so the same city always gets the same weather. */
function hash(text) {
  let h = 2166136261;
  for (const ch of text) h = Math.imul(h ^ ch.codePointAt(0), 16777619) >>> 0;
  return h;
}

/** The city the question names ("… in Paris?"), else Hangzhou. */
export function cityOf(question) {
  const m = /\bin ([A-Z][\p{L}-]+(?: [A-Z][\p{L}-]+)?)/u.exec(question);
  return m ? m[1] : "Hangzhou";
}

/** Three days of made-up weather for `city`. */
export function forecastFor(city) {
  const h = hash(city);
  return ["Today", "Tomorrow", "Day after"].map((day, i) => {
    const high = 14 + ((h >>> (i * 5)) % 16);
    return { day, sky: SKIES[(h >>> (i * 3 + 1)) % SKIES.length], high, low: high - 6 - ((h >>> i) % 4) };
  });
}

/** A bar chart of the highs, as an SVG `data:` URL (an image part needs no network). */
function chartUrl(city, days) {
  const bars = days.map((d, i) => {
    const h = d.high * 3;
    return `<rect x="${20 + i * 70}" y="${110 - h}" width="44" height="${h}" rx="4" fill="#4f7cff"/>`
      + `<text x="${42 + i * 70}" y="${104 - h}" font-size="12" text-anchor="middle">${d.high}°</text>`
      + `<text x="${42 + i * 70}" y="128" font-size="11" text-anchor="middle">${d.day}</text>`;
  }).join("");
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="240" height="140" font-family="sans-serif">`
    + `<rect width="240" height="140" fill="#f4f6fb"/>`
    + `<text x="10" y="16" font-size="12" fill="#333">Highs in ${city.replace(/[<&>"]/g, "")}</text>${bars}</svg>`;
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}

/** Splits text into word-sized tokens (each keeps its trailing space), as a model streams them. */
function tokens(text) {
  return text.match(/\S+\s*|\s+/g) ?? [];
}

/**
 * Runs the script on `rb` (a ResponseBuilder inside `ResponseBuilder.stream`).
 * @param {import("agentwire").ResponseBuilder} rb
 * @param {{ signal: AbortSignal, request?: object, scenario?: string, delayMs?: number }} options
 *   `delayMs` scales the pauses (default 45 ms per word; 0 streams as fast as the reader reads).
 */
export async function demoAgent(rb, { signal, request, scenario = "weather", delayMs = 45 }) {
  const question = lastUserText(request) || "What is the weather in Hangzhou?";
  const city = cityOf(question);
  // Longer words take a little longer, as with a real model; ready() is the backpressure.
  const pause = async (token = "") => {
    await rb.ready();
    await sleep(Math.round(delayMs * (0.6 + Math.min(token.length, 12) / 15)), signal);
  };

  const thinking = rb.message({ type: "reasoning" });
  const thought = thinking.content("text");
  for (const t of tokens(`The user asks: “${question}”. I should look up the weather in ${city}, then summarise it with a short forecast.`)) {
    thought.delta(t);
    await pause(t);
  }
  thought.complete();
  thinking.complete();

  const call = rb.toolCall({ name: "get_weather", callId: "call_weather_1" });
  for (const piece of ['{"city": "', city, '", "days": ', "3", ', "unit": "celsius"}']) {
    call.arguments(piece);
    await pause(piece);
  }
  call.complete();
  await sleep(delayMs * 4, signal); // the "tool" works
  const days = forecastFor(city);
  rb.toolOutput({ callId: "call_weather_1", name: "get_weather", output: { city, unit: "celsius", days } });
  await pause();

  const answer = rb.message();
  const text = answer.content("text");
  const [today, tomorrow] = days;
  const words = tokens(`You asked: “${question}” Right now it is ${today.sky} in ${city}, `
    + `${today.high} °C at the warmest and ${today.low} °C tonight. Tomorrow looks ${tomorrow.sky}, `
    + `between ${tomorrow.low} and ${tomorrow.high} °C. The forecast table and a chart follow.`);
  for (const [i, t] of words.entries()) {
    if (scenario === "fail" && i === 12) {
      throw new Error("The model stream broke off (simulated failure).");
    }
    text.delta(t);
    await pause(t);
  }
  text.complete();

  const table = answer.content("data");
  table.delta({ city, unit: "celsius", days: [] });
  for (const day of days) {
    table.delta({ days: [day] }); // data deltas deep-merge: lists are concatenated
    await pause("row");
  }
  table.complete();

  const unsafe = scenario === "unsafe";
  const image = answer.content("image");
  image.set(unsafe ? "javascript:alert('image')" : chartUrl(city, days));
  image.complete();
  await pause();
  const file = answer.content("file");
  file.set({
    file_url: unsafe ? "javascript:alert('file')" : `https://example.com/forecast/${encodeURIComponent(city)}.csv`,
    filename: `${city}-forecast.csv`,
  });
  file.complete();
  answer.complete();
  const output = words.length + 40;
  rb.completed({ usage: { input_tokens: tokens(question).length, output_tokens: output, total_tokens: tokens(question).length + output } });
}
