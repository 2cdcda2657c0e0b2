import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';

/**
 * WebAuthn ceremonies through @simplewebauthn/server: the options a browser passes to
 * `navigator.credentials.create()`/`.get()`, and the checks of what it answers (challenge, origin,
 * RP id, user presence and verification, signature, counter). What is decided here is fixed for
 * every org: discoverable credentials (resident keys) and user verification required, so a passkey
 * alone is two factors; no attestation is asked for (the AAGUID is still recorded).
 */

export type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
};

/** How long the browser lets the person answer (the challenge itself lives longer, see the domain). */
const CEREMONY_TIMEOUT_MS = 2 * 60 * 1000;

/** Where a ceremony happens: the relying party id (a host name) and the page's origin. */
export interface RelyingParty {
  id: string;
  name: string;
  origin: string;
}

export interface NewCredential {
  credentialId: string;
  /** The COSE public key, base64url. */
  publicKey: string;
  counter: number;
  transports: string[];
  aaguid: string;
  deviceType: 'singleDevice' | 'multiDevice';
  backedUp: boolean;
}

export interface StoredCredential {
  credentialId: string;
  publicKey: string;
  counter: number;
  transports: string[];
}

export const registrationOptions = (
  rp: RelyingParty,
  user: { handle: string; name: string; displayName: string },
  exclude: { credentialId: string; transports: string[] }[],
): Promise<PublicKeyCredentialCreationOptionsJSON> =>
  generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userID: new Uint8Array(Buffer.from(user.handle, 'utf8')),
    userName: user.name,
    userDisplayName: user.displayName,
    timeout: CEREMONY_TIMEOUT_MS,
    attestationType: 'none',
    excludeCredentials: exclude.map((c) => ({ id: c.credentialId, transports: c.transports })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
  });

export const authenticationOptions = (rp: RelyingParty): Promise<PublicKeyCredentialRequestOptionsJSON> =>
  generateAuthenticationOptions({ rpID: rp.id, userVerification: 'required', timeout: CEREMONY_TIMEOUT_MS });

/** The challenge a response answers (from its client data), or null when it names none. */
export function challengeOf(clientDataJSON: string): string | null {
  try {
    const data = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8')) as unknown;
    const challenge = (data as { challenge?: unknown } | null)?.challenge;
    return typeof challenge === 'string' && challenge !== '' ? challenge : null;
  } catch {
    return null;
  }
}

/** The user handle (the bytes given as `user.id` at registration) as text, or null. */
export function userHandleOf(response: AuthenticationResponseJSON): string | null {
  const handle = response.response.userHandle;
  return handle ? Buffer.from(handle, 'base64url').toString('utf8') : null;
}

/** What every ceremony's response is checked against: this challenge, this site, a verified user. */
function expected(rp: RelyingParty, challenge: string) {
  return {
    expectedChallenge: challenge,
    expectedOrigin: rp.origin,
    expectedRPID: rp.id,
    requireUserVerification: true,
  };
}

/** A registration's credential when every check passes, else null. */
export async function checkRegistration(
  rp: RelyingParty,
  challenge: string,
  response: RegistrationResponseJSON,
): Promise<NewCredential | null> {
  try {
    const result = await verifyRegistrationResponse({ response, ...expected(rp, challenge) });
    if (!result.verified) return null;
    const info = result.registrationInfo;
    return {
      credentialId: info.credential.id,
      publicKey: Buffer.from(info.credential.publicKey).toString('base64url'),
      counter: info.credential.counter,
      transports: info.credential.transports ?? response.response.transports ?? [],
      aaguid: info.aaguid,
      deviceType: info.credentialDeviceType,
      backedUp: info.credentialBackedUp,
    };
  } catch {
    return null;
  }
}

/** An assertion's new counter and backup state when every check passes, else null. */
export async function checkAuthentication(
  rp: RelyingParty,
  challenge: string,
  response: AuthenticationResponseJSON,
  stored: StoredCredential,
): Promise<{ counter: number; backedUp: boolean } | null> {
  try {
    const result = await verifyAuthenticationResponse({
      response,
      ...expected(rp, challenge),
      credential: {
        id: stored.credentialId,
        publicKey: new Uint8Array(Buffer.from(stored.publicKey, 'base64url')),
        counter: stored.counter,
        transports: stored.transports,
      },
    });
    if (!result.verified || !result.authenticationInfo.userVerified) return null;
    return {
      counter: result.authenticationInfo.newCounter,
      backedUp: result.authenticationInfo.credentialBackedUp,
    };
  } catch {
    return null;
  }
}
