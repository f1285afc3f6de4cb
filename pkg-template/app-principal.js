// Whose a run is. `authorize` names the caller by an explicit identity: a string key, or an
// object with a string `id` (what else it holds is the app's); `true` lets an anonymous caller
// through. Runs, sessions and client-chosen ids are scoped to that key, so principals never meet
// in a store: another's id or session is as unknown as one nobody used. Nothing is derived by
// serialising objects (a class with private fields, a Map, would name everyone alike).

/** The longest identity `authorize` may return (a key, not a document). */
const MAX_PRINCIPAL_LENGTH = 1024;

/** An owner a front instance passed to a run's object (already a key). */
export class OwnerKey {
  constructor(key) {
    this.key = key;
  }
}

/**
 * The key of what `authorize` returned: a string, or an object's string `id`; `null` for an
 * anonymous caller (`true`, or no `authorize`). Throws a TypeError for anything else (a server
 * fault: `authorize` must say who the caller is).
 */
export function principalKey(principal) {
  if (principal instanceof OwnerKey) return principal.key;
  if (principal === undefined || principal === null || principal === true) return null;
  let key = principal;
  if (typeof principal === "object") {
    try {
      key = principal.id;
    } catch {
      key = undefined;
    }
  }
  if (typeof key !== "string" || key === "" || key.length > MAX_PRINCIPAL_LENGTH) {
    throw new TypeError(`AgentApp: authorize must return a string, an object with a string id (1-${MAX_PRINCIPAL_LENGTH} characters), true (anonymous) or a falsy value (refused)`);
  }
  return key;
}

/**
 * The store key of run (or session) `id` as `owner` (a principal key) names it: the id itself
 * for anonymous callers, else the owner's length, the owner and the id, so no two owners' keys
 * can be the same.
 */
export function scoped(owner, id) {
  return owner === null || id === null || id === undefined ? (id ?? null) : `${owner.length}:${owner}${id}`;
}

/** The id `owner` named, of its store key `key` (what `scoped(owner, id)` made). */
export function unscoped(owner, key) {
  return owner === null ? key : key.slice(String(owner.length).length + 1 + owner.length);
}
