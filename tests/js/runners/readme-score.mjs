// Writes a conformance suite's score into the README's conformance table: the row whose last
// cell is `<!-- score:<key> -->` gets `cells` (the protocol, the suite, its version, the score).
// The suites' runners call it after each run, so the table shows the last run's scores.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** Replaces the row of `key` in `<root>/README.md` (`root`: the repository); false when there is none. */
export function writeScore(root, key, cells) {
  const path = join(root, "README.md");
  if (!existsSync(path)) return false;
  const marker = `<!-- score:${key} -->`;
  const lines = readFileSync(path, "utf8").split("\n");
  const at = lines.findIndex((l) => l.startsWith("|") && l.includes(marker));
  if (at === -1) return false;
  lines[at] = `| ${cells.join(" | ")} | ${marker} |`;
  writeFileSync(path, lines.join("\n"));
  return true;
}
