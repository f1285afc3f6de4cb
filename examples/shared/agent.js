// A small scripted agent, shared by the Node, Deno and Cloudflare Worker examples. It uses only
// the ResponseBuilder it is given (no import of agentwire), so it runs unchanged in all three.
//
// What it streams, with a short delay between pieces so a client sees it arrive:
//   1. a reasoning message (thinking text, streamed);
//   2. a tool call `get_weather` whose JSON arguments stream in pieces, and its output;
//   3. the answer text, streamed token by token;
//   4. the terminal `completed` response.
// A question containing "#fail" makes the "tool" throw: the stream then ends with a `failed`
// response (code AGENT_ERROR) instead of a broken connection.

/**
 * Counters of this process (or isolate), for the example servers' optional `GET /_stats`: how
 * many runs started, completed, failed and were aborted by their client, and how many builder
 * steps ran in total. Module state only: nothing random or clock-based happens at load time
 * (Workers forbid that outside a request).
 */
export const stats = { runs: 0, completed: 0, failed: 0, aborted: 0, steps: 0 };

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms, signal) {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/** The text of the last user message of an AgentRequest (as parseRequest returns it). */
export function lastUserText(request) {
  const message = [...(request?.input ?? [])].reverse().find((m) => m.role === "user");
  return (message?.content ?? [])
    .filter((part) => part.type === "text" && typeof part.text === "string")
    .map((part) => part.text)
    .join("");
}

/**
 * Runs the script on `rb` (a ResponseBuilder inside `ResponseBuilder.stream`).
 * @param {import("agentwire").ResponseBuilder} rb
 * @param {{ signal: AbortSignal, request?: object, delayMs?: number }} options
 *   `signal` aborts when the client goes away; `request` is the parsed AgentRequest;
 *   `delayMs` is the pause between streamed pieces (default 40 ms).
 */
export async function scriptedAgent(rb, { signal, request, delayMs = 40 }) {
  stats.runs++;
  signal.addEventListener("abort", () => stats.aborted++, { once: true });
  const question = lastUserText(request) || "What is the weather in Hangzhou?";
  // After each emitted piece: wait until the client wants more (backpressure), then pause
  // like a model producing tokens. Both reject once the client has gone.
  const step = async () => {
    stats.steps++;
    await rb.ready();
    await sleep(delayMs, signal);
  };
  try {
    const thinking = rb.message({ type: "reasoning" });
    const thought = thinking.content("text");
    for (const piece of ["The user asks: ", JSON.stringify(question), ". I should look up the weather."]) {
      thought.delta(piece);
      await step();
    }
    thought.complete();
    thinking.complete();

    const call = rb.toolCall({ name: "get_weather", callId: "call_1" });
    for (const piece of ['{"city": ', '"Hangzhou"', "}"]) {
      call.arguments(piece);
      await step();
    }
    call.complete();
    if (question.includes("#fail")) throw new Error("The weather service is unavailable.");
    rb.toolOutput({ callId: "call_1", name: "get_weather", output: { city: "Hangzhou", sky: "sunny", celsius: 25 } });
    await step();

    const answer = rb.message();
    const text = answer.content("text");
    for (const token of ["It is ", "sunny ", "in Hangzhou, ", "25 °C ", "☀️."]) {
      text.delta(token);
      await step();
    }
    text.complete();
    answer.complete();
    rb.completed();
    stats.completed++;
  } catch (error) {
    if (!signal.aborted) stats.failed++;
    throw error;
  }
}
