// Writes the measured gzip sizes into the package README's `<!-- size -->…<!-- /size -->` span.
// Usage: node scripts/readme-size.mjs <pkg/README.md> <full bytes> <lite bytes>
// (each: gzip -9 of the wasm module plus its JS glue).
import { readFileSync, writeFileSync } from "node:fs";

const [file, full, lite] = process.argv.slice(2);
const kb = (n) => `${(Number(n) / 1024).toFixed(1)} KiB`;
const text = readFileSync(file, "utf8");
const span = /<!-- size -->[\s\S]*?<!-- \/size -->/;
if (!span.test(text)) {
  console.error(`[build] ${file}: no <!-- size --> span`);
  process.exit(1);
}
const line = `<!-- size -->\`agentwire\` ${kb(full)}, \`agentwire/lite\` ${kb(lite)} (the wasm module plus its JS glue)<!-- /size -->`;
const next = text.replace(span, line);
if (next !== text) writeFileSync(file, next);
