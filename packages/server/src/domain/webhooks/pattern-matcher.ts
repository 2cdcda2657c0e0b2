/**
 * Routing-key patterns compiled into a trie (spec "Events"): a literal part matches itself, `*` matches
 * exactly one part, `#` matches any number of parts (zero included, as in AMQP topic exchanges), so `#`
 * alone matches every key. Matching walks only the branches the key can take: its cost depends on the
 * key's length and the number of wildcards on its path, not on how many patterns were compiled. No
 * regular expression runs per event.
 */
interface Node {
  readonly literal: Map<string, Node>;
  star: Node | null;
  hash: Node | null;
  /** Subscribers whose pattern ends here. */
  targets: string[] | null;
}

const node = (): Node => ({ literal: new Map(), star: null, hash: null, targets: null });

/** At most this many distinct keys are remembered per matcher (routing keys are a small, fixed set). */
const MEMO_LIMIT = 512;

export class PatternMatcher {
  readonly #root = node();
  readonly #memo = new Map<string, readonly string[]>();
  #size = 0;

  /** Number of patterns compiled in. */
  get size(): number {
    return this.#size;
  }

  /** Subscribes `target` (a webhook id) to `pattern`; malformed patterns are ignored. */
  add(pattern: string, target: string): void {
    const parts = pattern.split('.');
    if (parts.some((p) => p === '')) return;
    let at = this.#root;
    for (const part of parts) {
      if (part === '*') {
        at.star ??= node();
        at = at.star;
      } else if (part === '#') {
        at.hash ??= node();
        at = at.hash;
      } else {
        let next = at.literal.get(part);
        if (!next) {
          next = node();
          at.literal.set(part, next);
        }
        at = next;
      }
    }
    at.targets ??= [];
    at.targets.push(target);
    this.#size++;
    this.#memo.clear();
  }

  /** The distinct targets subscribed to `key`, in no particular order. */
  match(key: string): readonly string[] {
    const cached = this.#memo.get(key);
    if (cached) return cached;
    const found = new Set<string>();
    walk(this.#root, key.split('.'), 0, found);
    const result = [...found];
    if (this.#memo.size >= MEMO_LIMIT) this.#memo.clear();
    this.#memo.set(key, result);
    return result;
  }
}

function walk(at: Node, parts: string[], i: number, found: Set<string>): void {
  if (at.hash) {
    // `#` swallows parts i..j-1 for every j, zero parts included.
    for (let j = i; j <= parts.length; j++) walk(at.hash, parts, j, found);
  }
  if (i === parts.length) {
    if (at.targets) for (const t of at.targets) found.add(t);
    return;
  }
  const part = parts[i] as string;
  const next = at.literal.get(part);
  if (next) walk(next, parts, i + 1, found);
  if (at.star) walk(at.star, parts, i + 1, found);
}

/** Compiles every pattern of every subscriber. */
export function compilePatterns(subscribers: Iterable<{ id: string; events: readonly string[] }>) {
  const matcher = new PatternMatcher();
  for (const s of subscribers) for (const p of s.events) matcher.add(p, s.id);
  return matcher;
}
