// A minimal resolver for a package's `exports`: `name` is a package name or a subpath of it
// ("agentwire/lite"); the first key, in the package's own order, that is one of `conditions` wins
// (Node's algorithm, without subpath patterns).
import { readFileSync } from "node:fs";
import { join } from "node:path";

/** Absolute path of the file `name` resolves to from `projectDir` under `conditions`. */
export function resolveEntry(projectDir, name, conditions) {
  const [scopeOrName, ...rest] = name.split("/");
  const pkgName = scopeOrName.startsWith("@") ? `${scopeOrName}/${rest.shift()}` : scopeOrName;
  const subpath = rest.length ? `./${rest.join("/")}` : ".";
  const dir = join(projectDir, "node_modules", pkgName);
  const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  let target = subpath === "." ? (pkg.exports?.["."] ?? pkg.exports) : pkg.exports?.[subpath];
  while (target && typeof target === "object") {
    const key = Object.keys(target).find((k) => conditions.includes(k));
    if (key === undefined) throw new Error(`${name}: no export matches ${conditions.join(", ")}`);
    target = target[key];
  }
  if (typeof target !== "string") throw new Error(`${name}: no "${subpath}" export`);
  return join(dir, target);
}
