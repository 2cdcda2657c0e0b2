import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import { createSdk, type Sdk, SdkError, type SdkOptions } from '@tessera/sdk';
import type { FakeApi } from './fake-api.js';

export const CLIENT_ID = 'cli_web';

/** An SDK pointed at a fake API on 127.0.0.1. */
export function sdkFor(api: FakeApi, options: Partial<SdkOptions> = {}): Sdk {
  return createSdk({ api: api.base, issuer: `${api.base}/`, clientId: CLIENT_ID, ...options });
}

/** The SdkError a call rejects with; fails the test when it resolves or rejects with anything else. */
export async function caught(call: Promise<unknown>): Promise<SdkError> {
  try {
    await call;
  } catch (err) {
    assert.ok(err instanceof SdkError, `expected an SdkError, got ${String(err)}`);
    return err;
  }
  assert.fail('expected the call to throw an SdkError');
}

/** The fields a caller branches on. */
export function fieldsOf(err: SdkError) {
  return { status: err.status, code: err.code, detail: err.detail };
}

/** Fails when any rendering of `err` (message, JSON, inspect with its cause) shows one of `secrets`. */
export function assertHides(err: unknown, secrets: string[]) {
  const text = [String(err), JSON.stringify(err), inspect(err, { depth: 10, showHidden: true })].join('\n');
  for (const secret of secrets) assert.ok(!text.includes(secret), `the error shows a secret: ${text}`);
}
