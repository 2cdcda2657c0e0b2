import type { FlagSpec } from './args.js';

/**
 * A command's flags, declared once as its synopsis reads (`--org S [--name N] (--a | --b)`): the
 * usage line is rendered from it and the flags the parser accepts, with their types, are read from
 * it. A flag is a value flag (`--name N`, its placeholder naming what it takes), a repeatable one
 * (`--scope SCOPE...`) or a switch (`--gzip`); `optional`, `either` and `all` arrange them.
 */
export interface Flag extends FlagSpec {
  readonly kind: 'flag';
  readonly name: string;
  /** What the flag takes, as the synopsis shows it (`S`, `URL`, `owner|member`); none for a switch. */
  readonly value?: string;
}

interface Arrangement {
  readonly kind: 'optional' | 'either' | 'all';
  readonly of: readonly SynopsisPart[];
}

export type SynopsisPart = Flag | Arrangement;

/** `--name VALUE`: a flag that takes a value, once. */
export const value = <N extends string>(name: N, shown: string) =>
  ({ kind: 'flag', name, type: 'string', value: shown }) as const;

/** `--name VALUE...`: a flag that takes a value and may be given again. */
export const repeated = <N extends string>(name: N, shown: string) =>
  ({ kind: 'flag', name, type: 'string', multiple: true, value: shown }) as const;

/** `--name`: a switch. */
export const toggle = <N extends string>(name: N) => ({ kind: 'flag', name, type: 'boolean' }) as const;

/** `[…]`: what may be left out (`[--x V]...` for a repeatable flag alone). */
export const optional = <P extends readonly SynopsisPart[]>(...of: P) => ({ kind: 'optional', of }) as const;

/** `a | b`: one of the alternatives (in parentheses unless `optional` holds it). */
export const either = <P extends readonly SynopsisPart[]>(...of: P) => ({ kind: 'either', of }) as const;

/** `[--NAME | --no-NAME]`: a setting turned on or off, left as it is when neither is given. */
export const negatable = <N extends string>(name: N) =>
  optional(either(toggle(name), toggle(`no-${name}` as const)));

/** `a b c`: parts given together (an alternative of `either`). */
export const all = <P extends readonly SynopsisPart[]>(...of: P) => ({ kind: 'all', of }) as const;

/** The flags named anywhere in `P` (synopses nest a few levels deep; the count bounds the recursion). */
type FlagsIn<P, Depth extends readonly unknown[] = []> = Depth['length'] extends 5
  ? never
  : P extends Flag
    ? P
    : P extends { readonly of: infer Of extends readonly SynopsisPart[] }
      ? FlagsIn<Of[number], [...Depth, unknown]>
      : never;

/** The parser's spec of the flags a synopsis names, keyed by name. */
export type SpecOf<P extends readonly SynopsisPart[]> = {
  readonly [F in FlagsIn<P[number]> as F['name']]: F extends { multiple: true }
    ? { type: F['type']; multiple: true }
    : { type: F['type'] };
};

/** Every flag of `parts`, in the order they are written. */
export function flagsOf(parts: readonly SynopsisPart[]): Flag[] {
  return parts.flatMap((p) => (p.kind === 'flag' ? [p] : flagsOf(p.of)));
}

/** The parser's spec of `parts`' flags (args.ts parseFlags). */
export function specOf<P extends readonly SynopsisPart[]>(parts: P): SpecOf<P> {
  return Object.fromEntries(
    flagsOf(parts).map((f) => [f.name, f.multiple ? { type: f.type, multiple: true } : { type: f.type }]),
  ) as SpecOf<P>;
}

/** The synopsis as written after `tessera <command>`. */
export function renderSynopsis(parts: readonly SynopsisPart[]): string {
  return parts.map((p) => rendered(p, false)).join(' ');
}

function rendered(part: SynopsisPart, bracketed: boolean): string {
  switch (part.kind) {
    case 'flag':
      return `--${part.name}${part.value === undefined ? '' : ` ${part.value}`}${part.multiple && !bracketed ? '...' : ''}`;
    case 'all':
      return part.of.map((p) => rendered(p, false)).join(' ');
    case 'either': {
      const alternatives = part.of.map((p) => rendered(p, false)).join(' | ');
      return bracketed ? alternatives : `(${alternatives})`;
    }
    case 'optional': {
      const [only] = part.of;
      if (part.of.length === 1 && only !== undefined && only.kind !== 'all') {
        const repeats = only.kind === 'flag' && only.multiple === true;
        return `[${rendered(only, true)}]${repeats ? '...' : ''}`;
      }
      return `[${part.of.map((p) => rendered(p, false)).join(' ')}]`;
    }
  }
}
