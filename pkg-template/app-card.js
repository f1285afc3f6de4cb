// What AgentApp says about itself: the A2A agent card (written by the core, in the versions
// `cardVersion` names), cacheable (`Cache-Control`, a strong `ETag`, `Last-Modified`; 304 for
// `If-None-Match`, or `If-Modified-Since` without it),
// and the service description at its root path.
import { a2aAgentCard } from "./a2a.js";
import { jsonText } from "./app-http.js";

/** How long a client may keep the agent card, in seconds. */
const CARD_MAX_AGE_S = 300;

/** When this module was loaded, to the second: the card's `Last-Modified` (it is made from options fixed at startup). */
const LOADED = new Date(Math.floor(Date.now() / 1000) * 1000);

/** Whether `If-Modified-Since` (an HTTP date) is at or after `since`; false for a date that does not parse. */
function notModifiedSince(header, since) {
  if (header === null) return false;
  const at = Date.parse(header);
  return Number.isFinite(at) && at >= since.getTime();
}

/** A strong ETag of a text: the first 128 bits of its SHA-256, quoted. */
async function etagOf(text) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return `"${Array.from(digest.subarray(0, 16), (b) => b.toString(16).padStart(2, "0")).join("")}"`;
}

/** Whether an `If-None-Match` value (a list of ETags, weak or strong, or `*`) matches `etag`. */
function matchesEtag(header, etag) {
  if (header === null) return false;
  return header.split(",").some((tag) => {
    const t = tag.trim();
    return t === "*" || t === etag || t === `W/${etag}`;
  });
}

/**
 * The answer to `GET` of the agent card: `o` the app's options (app-options.js), `url` the
 * request's (the card's URL defaults to its origin and the A2A path).
 */
export async function cardAnswer(o, request, url) {
  const { name, description, version, card, cardVersion } = o;
  const described = { name, description, version, url: card.url ?? `${url.origin}${o.paths.a2a}` };
  for (const key of ["skills", "provider", "documentationUrl", "iconUrl"]) {
    if (card[key] !== undefined) described[key] = card[key];
  }
  const text = JSON.stringify(a2aAgentCard(described, { version: cardVersion }));
  // A card behind `authorize` is the caller's: shared caches keep none.
  const headers = { "cache-control": `${o.authorize ? "private" : "public"}, max-age=${CARD_MAX_AGE_S}`, etag: await etagOf(text), "last-modified": LOADED.toUTCString() };
  // If-None-Match wins over If-Modified-Since when both are sent (RFC 9110 §13.2.2).
  const ifNoneMatch = request.headers.get("if-none-match");
  const fresh = ifNoneMatch !== null ? matchesEtag(ifNoneMatch, headers.etag) : notModifiedSince(request.headers.get("if-modified-since"), LOADED);
  if (fresh) return new Response(null, { status: 304, headers });
  return jsonText(text, headers);
}

/** The service description at the root path: the app's name and the routes it serves. */
export function serviceInfo({ name, paths, protocols }) {
  const endpoints = { health: paths.health };
  if (protocols.process) endpoints.process = paths.process;
  if (protocols.responses) endpoints.responses = paths.responses;
  if (protocols.agUi) endpoints.ag_ui = paths.agUi;
  if (protocols.a2a) {
    endpoints.a2a = paths.a2a;
    endpoints.agent_card = paths.agentCard;
  }
  return { service: name, mode: "fetch", endpoints };
}
