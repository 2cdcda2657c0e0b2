import { z } from 'zod';
import { PASSKEY_NAME_MAX } from '../../domain/sign-in/index.js';

/**
 * The bodies of the passkey JSON endpoints the hosted pages' script calls (POST /login/passkey/options,
 * POST /login/passkey, POST /profile/passkeys/options, POST /profile/passkeys): what the routes
 * validate with, and what the OpenAPI document names (http/openapi/schema-names.ts).
 */

const base64url = z
  .string()
  .max(16_384)
  .regex(/^[A-Za-z0-9_-]*$/, 'must be base64url');

const csrf = z.string().max(200).meta({ description: 'the CSRF token the page embeds for this ceremony' });

/** What a browser's `PublicKeyCredential` becomes as JSON (WebAuthn Level 3 `toJSON()`). */
const credentialShape = <R extends z.ZodRawShape>(response: R) =>
  z.object({
    id: base64url.min(1),
    rawId: base64url.min(1),
    type: z.literal('public-key'),
    authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
    clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
    response: z.object({ clientDataJSON: base64url.min(1), ...response }),
  });

export const AssertionCredential = credentialShape({
  authenticatorData: base64url.min(1),
  signature: base64url.min(1),
  userHandle: base64url.optional(),
});

export const AttestationCredential = credentialShape({
  attestationObject: base64url.min(1),
  authenticatorData: base64url.optional(),
  transports: z.array(z.string().max(32)).max(16).optional(),
  publicKeyAlgorithm: z.number().int().optional(),
  publicKey: base64url.optional(),
});

/** The options request of either ceremony: the page's CSRF token and nothing else. */
export const PasskeyOptionsRequest = z.object({ csrf });

/** POST /login/passkey: the browser's answer to the sign-in options. */
export const PasskeySignInRequest = z.object({ csrf, credential: AssertionCredential });

/** POST /profile/passkeys: the new passkey's name and the browser's answer to the creation options. */
export const PasskeyRegistrationRequest = z.object({
  csrf,
  name: z
    .string()
    .max(1000)
    .meta({ description: `the name the person gives the passkey (1 to ${PASSKEY_NAME_MAX} characters)` }),
  credential: AttestationCredential,
});

/**
 * The options the page hands to `navigator.credentials.get()` or `.create()`
 * (PublicKeyCredentialRequestOptionsJSON / PublicKeyCredentialCreationOptionsJSON, WebAuthn Level 3).
 */
export const PasskeyOptions = z.object({
  options: z.looseObject({ challenge: z.string() }).meta({
    description:
      'the WebAuthn options as JSON: request options to sign in, creation options to add a passkey',
  }),
});

/** Where the browser goes once the ceremony has succeeded. */
export const PasskeyNext = z.object({ redirect: z.string() });

/** A refused ceremony, in the API's body family, with words the page shows as they are. */
export const PasskeyRefusal = z.object({
  error: z.string(),
  error_detail: z.string().optional().meta({ description: 'what the page shows the person' }),
  unknown_credential: z
    .literal(true)
    .optional()
    .meta({ description: 'the passkey is not registered here (the page offers the password instead)' }),
});

/** The query of the login page's passkey endpoints. */
export const PasskeySignInQuery = z.object({
  req: z
    .string()
    .optional()
    .meta({ description: 'the authorization request the login page was opened for, if any' }),
});
