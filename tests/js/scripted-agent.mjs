// The scripted agent the AgentApp tests serve (Node, Deno, workerd and the reference checks): a
// tool call whose arguments stream in two pieces, its result, then the answer in two deltas.
// No imports: workerd loads it as it is.

/** `get_weather` called with `{"city":"Hangzhou"}`, answered "Sunny", then "Sunny in Hangzhou". */
export async function weatherAgent(request, rb) {
  const call = rb.toolCall({ type: "function", callId: "call_1", name: "get_weather" });
  call.arguments('{"city":');
  call.arguments('"Hangzhou"}');
  call.complete();
  rb.toolOutput({ type: "function", callId: "call_1", name: "get_weather", output: "Sunny" });
  const text = rb.message().content("text");
  text.delta("Sunny in ");
  text.delta("Hangzhou");
}

/**
 * The chaos runs' agent: a tool call with its output, then `words` words (non-ASCII), each after
 * `pause` ms; stops when its signal aborts.
 */
export function chaosAgent(words = 30, pause = 1) {
  return async (request, rb, { signal }) => {
    const call = rb.toolCall({ type: "function", callId: "call_1", name: "lookup" });
    call.arguments('{"q":"é✓"}');
    call.complete();
    rb.toolOutput({ type: "function", callId: "call_1", name: "lookup", output: "42" });
    const text = rb.message().content("text");
    for (let i = 0; i < words && !signal.aborted; i++) {
      text.delta(`w${i}—é `);
      if (pause) await new Promise((resolve) => setTimeout(resolve, pause));
    }
  };
}

/** A scripted agent that takes its time: a tool call, then 40 words, each after `pause` ms. */
export function slowAgent(pause = 2) {
  return async (request, rb, { signal }) => {
    const call = rb.toolCall({ type: "function", callId: "call_1", name: "get_weather" });
    call.arguments('{"city":');
    call.arguments('"杭州"}');
    call.complete();
    rb.toolOutput({ type: "function", callId: "call_1", name: "get_weather", output: "Sunny" });
    const text = rb.message().content("text");
    for (let i = 0; i < 40; i++) {
      if (signal.aborted) return;
      text.delta(`w${i}é `);
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  };
}
