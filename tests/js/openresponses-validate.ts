// Run by bun from the root of a copy of the Open Responses suite (openresponses-schema.test.mjs
// copies it there): validates answers with the suite's own zod schemas and SSE parser.
// Input (argv[2], a JSON file): [{ name, kind: "json" | "sse", body }]. Output (stdout, JSON):
// [{ name, errors: string[], objects: number }], `objects` the response objects validated.
import { readFileSync } from "node:fs";
import { responseResourceSchema } from "./src/generated/kubb/zod/responseResourceSchema";
import { parseSSEStream } from "./src/lib/sse-parser";

type Answer = { name: string; kind: "json" | "sse"; body: string };

const issues = (prefix: string, result: { success: boolean; error?: { issues: { path: (string | number)[]; message: string }[] } }) =>
  result.success ? [] : (result.error?.issues ?? []).map((i) => `${prefix}${i.path.join(".") || "(root)"}: ${i.message}`);

const answers: Answer[] = JSON.parse(readFileSync(process.argv[2], "utf8"));
const out = [];
for (const { name, kind, body } of answers) {
  const errors: string[] = [];
  let objects = 0;
  if (kind === "json") {
    objects++;
    errors.push(...issues("", responseResourceSchema.safeParse(JSON.parse(body))));
  } else {
    // The whole body in one read: the suite's parser keeps no event across reads.
    const parsed = await parseSSEStream(new Response(body));
    errors.push(...parsed.errors);
    if (parsed.finalResponse === null) errors.push("no terminal response");
    for (const { event, data } of parsed.events) {
      const response = (data as { response?: unknown }).response;
      if (response === undefined) continue;
      objects++;
      errors.push(...issues(`${event}: response.`, responseResourceSchema.safeParse(response)));
    }
  }
  out.push({ name, errors, objects });
}
console.log(JSON.stringify(out));
