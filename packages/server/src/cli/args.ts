import { parseArgs } from 'node:util';

/** A mistake in how a command was called: its usage is shown and the process exits 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

export interface FlagSpec {
  readonly type: 'string' | 'boolean';
  readonly multiple?: boolean;
}
export type Spec = { readonly [flag: string]: FlagSpec };

type Value<F extends FlagSpec> = F['type'] extends 'boolean'
  ? boolean
  : F['multiple'] extends true
    ? string[]
    : string;
/** The flags given, typed from their spec (absent flags are undefined). */
export type Values<S extends Spec> = { -readonly [K in keyof S]?: Value<S[K]> };

/**
 * The fields of `fields` that were given, in their order: one left undefined (its flag absent) is
 * left out altogether, so a change names only what the command was told to change.
 */
export function givenOnly<T extends object>(fields: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as {
    [K in keyof T]?: Exclude<T[K], undefined>;
  };
}

/** Whether `--help` or `-h` is among the arguments (before a `--`). */
export function wantsHelp(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).some((a) => a === '--help' || a === '-h');
}

/**
 * Strict flag parsing with messages of our own: an unknown flag, a flag without its value, a value
 * given to a switch, a flag given twice (unless it repeats by design), a stray word.
 * A value that starts with `-` is written `--flag=-value`.
 */
export function parseFlags<S extends Spec>(argv: readonly string[], spec: S): Values<S> {
  const { tokens } = parseArgs({
    args: [...argv],
    options: spec as Record<string, FlagSpec>,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const values: Record<string, string | string[] | boolean> = {};
  for (const token of tokens) {
    if (token.kind === 'option-terminator') continue;
    if (token.kind === 'positional') throw new UsageError(`unexpected argument: ${token.value}`);
    const flag = Object.hasOwn(spec, token.name) ? spec[token.name] : undefined;
    if (flag === undefined || token.rawName.length === 2)
      throw new UsageError(`unknown flag ${token.rawName}`);
    if (flag.type === 'boolean') {
      if (token.value !== undefined) throw new UsageError(`${token.rawName} takes no value`);
      if (values[token.name] !== undefined) throw new UsageError(`${token.rawName} is given twice`);
      values[token.name] = true;
      continue;
    }
    if (token.value === undefined || (!token.inlineValue && token.value.startsWith('-'))) {
      throw new UsageError(`${token.rawName} needs a value`);
    }
    const before = values[token.name];
    if (flag.multiple) values[token.name] = [...((before as string[] | undefined) ?? []), token.value];
    else if (before !== undefined) throw new UsageError(`${token.rawName} is given twice`);
    else values[token.name] = token.value;
  }
  return values as Values<S>;
}

/** A flag's value as a whole number from `min` to `max`. */
export function wholeNumber(value: string, flag: string, min: number, max: number): number {
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new UsageError(`--${flag} must be a whole number from ${min} to ${max}`);
  }
  return Number(value);
}

export function required(value: string | undefined, flag: string): string {
  if (value === undefined || value === '') throw new UsageError(`--${flag} is required`);
  return value;
}
