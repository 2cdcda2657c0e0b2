import { fail } from '../../errors.js';

/**
 * OIDC Core §3.1.2.1 `prompt`: a space-separated list of `none`, `login`, `consent` and
 * `select_account`. `none` alone means "answer without showing anything"; with another value the
 * request is `invalid_request`. An unknown value is `invalid_request` too (nothing is guessed).
 * `select_account` is treated as `login`: a browser holds one sign-in per org, so choosing an
 * account is signing in again, with the email field free to change.
 */
export const PROMPT_VALUES = ['none', 'login', 'consent', 'select_account'] as const;
export type PromptValue = (typeof PROMPT_VALUES)[number];

/** The prompt values of a request, without repeats, in the order given; [] when absent. */
export function parsePrompt(value: string | undefined): PromptValue[] {
  if (value === undefined) return [];
  const values = [...new Set(value.split(' ').filter((v) => v !== ''))];
  for (const v of values) {
    if (!(PROMPT_VALUES as readonly string[]).includes(v))
      fail('authorize.prompt.unsupported', `prompt ${v} is not supported`);
  }
  if (values.includes('none') && values.length > 1)
    fail('authorize.prompt.none_combined', 'prompt=none cannot be combined with other values');
  return values as PromptValue[];
}

/** Whether the person must sign in again, whatever session this browser has. */
export const promptsSignIn = (prompt: readonly string[]) =>
  prompt.includes('login') || prompt.includes('select_account');

/** Whether the consent page must be shown, whatever was granted before. */
export const promptsConsent = (prompt: readonly string[]) => prompt.includes('consent');

/** `prompt=none`: no page may be shown; what would need one is an error sent back to the client. */
export const promptsNothing = (prompt: readonly string[]) => prompt.includes('none');
