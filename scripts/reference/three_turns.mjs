// Three turns of a chat against a live reference server, each request's history made by
// agentwire's nextTurn from the last request and the run's snapshot. Prints one JSON line per
// turn: {protocol, turn, answer} (the answer is what the server's agent said it received).
// Usage: node scripts/reference/three_turns.mjs <package dir> <base url>
import { pathToFileURL } from "node:url";

const [pkgDir, base] = process.argv.slice(2);
const { StreamAssembler, nextTurn } = await import(pathToFileURL(`${pkgDir}/node.js`).href);

async function post(path, body, protocol) {
  const res = await fetch(`${base}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "text/event-stream" },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path}: HTTP ${res.status} ${await res.text()}`);
  return StreamAssembler.collect(res, { protocol });
}

const USER = ["Hello", "And again", "One more"];

// Agent API (/process): input = last input + the run's output + the user's message.
let input = [{ role: "user", type: "message", content: [{ type: "text", text: USER[0] }] }];
for (let turn = 1; turn <= 3; turn++) {
  const snapshot = await post("/process", { input, session_id: "three-turns" }, "agent-api");
  const part = snapshot.output.at(-1)?.content?.[0];
  console.log(JSON.stringify({ protocol: "agent-api", turn, outcome: snapshot.outcome, answer: part?.text ?? null }));
  if (turn < 3) input = nextTurn("agent-api", { history: input, snapshot, user: USER[turn] });
}

// AG-UI (/ag-ui): messages = sent messages + the run's messages + the user's message.
let messages = [{ id: "u-1", role: "user", content: USER[0] }];
for (let turn = 1; turn <= 3; turn++) {
  const snapshot = await post("/ag-ui", { threadId: "t-three", runId: `r-${turn}`, messages }, "ag-ui");
  const answer = snapshot.messages.filter((m) => m.role === "assistant").at(-1)?.content ?? null;
  console.log(JSON.stringify({ protocol: "ag-ui", turn, outcome: snapshot.outcome, answer }));
  if (turn < 3) messages = nextTurn("ag-ui", { history: messages, snapshot, user: USER[turn] });
}
