// A minimal resolver for the package's `exports["."]`: the first key, in the package's own order,
// that is one of `conditions` wins (Node's algorithm, without subpath patterns).
import { readFileSync } from "node:fs";
import { join } from "node:path";

/** Absolute path of the file `name` resolves to from `projectDir` under `conditions`. */
export function resolveEntry(projectDir, name, conditions) {
  const dir = join(projectDir, "node_modules", name);
  const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  let target = pkg.exports?.["."] ?? pkg.exports;
  while (target && typeof target === "object") {
    const key = Object.keys(target).find((k) => conditions.includes(k));
    if (key === undefined) throw new Error(`${name}: no export matches ${conditions.join(", ")}`);
    target = target[key];
  }
  if (typeof target !== "string") throw new Error(`${name}: no "." export`);
  return join(dir, target);
}
