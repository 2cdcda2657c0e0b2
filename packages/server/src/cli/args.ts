import { parseArgs } from 'node:util';

export class UsageError extends Error {
  override name = 'UsageError';
}

type Spec = Record<string, { type: 'string' | 'boolean'; multiple?: boolean }>;
/** What parseArgs infers for `spec`, spelled out so the compiled declarations can name it. */
type Values<S extends Spec> = ReturnType<
  typeof parseArgs<{ args: string[]; options: S; strict: true; allowPositionals: true }>
>['values'];

/** Strict flag parsing: unknown flags and stray words are usage errors. */
export function flags<S extends Spec>(argv: string[], spec: S): Values<S> {
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      options: spec,
      strict: true,
      allowPositionals: true,
    });
    if (positionals.length > 0) throw new UsageError(`unexpected argument: ${positionals[0]}`);
    return values;
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError((error as Error).message.split('\n')[0] ?? 'bad arguments');
  }
}

export function required(value: string | undefined, flag: string): string {
  if (value === undefined || value === '') throw new UsageError(`--${flag} is required`);
  return value;
}
