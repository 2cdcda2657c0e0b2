import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

/**
 * A software WebAuthn authenticator for tests without a browser: ES256 keys, `none` attestation,
 * discoverable credentials, user presence and verification always set. It answers the options the
 * server hands out with the JSON a browser would post (WebAuthn Level 3 `toJSON()`).
 */

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const sha = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

const FLAGS = { up: 0x01, uv: 0x04, attested: 0x40 };

export interface SoftCredential {
  id: string;
  rpId: string;
  userHandle: string;
  privateKey: KeyObject;
  counter: number;
}

function counterBytes(n: number) {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
}

function coseKey(publicKey: KeyObject): Uint8Array {
  const jwk = publicKey.export({ format: 'jwk' });
  return isoCBOR.encode(
    new Map<number, number | Uint8Array>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, Buffer.from(jwk.x ?? '', 'base64url')],
      [-3, Buffer.from(jwk.y ?? '', 'base64url')],
    ]),
  );
}

const clientData = (type: string, challenge: string, origin: string) =>
  Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));

interface CreationOptions {
  challenge: string;
  rp: { id?: string };
  user: { id: string };
}

interface RequestOptions {
  challenge: string;
  rpId?: string;
}

export class SoftAuthenticator {
  readonly credentials: SoftCredential[] = [];

  /** navigator.credentials.create() at `origin`: a new credential and the registration JSON. */
  create(options: CreationOptions, origin: string) {
    const rpId = options.rp.id ?? new URL(origin).hostname;
    const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const id = randomBytes(16);
    const authData = Buffer.concat([
      sha(rpId),
      Buffer.from([FLAGS.up | FLAGS.uv | FLAGS.attested]),
      counterBytes(0),
      Buffer.alloc(16),
      Buffer.from([0, id.length]),
      id,
      coseKey(publicKey),
    ]);
    const credential: SoftCredential = {
      id: b64(id),
      rpId,
      userHandle: options.user.id,
      privateKey,
      counter: 0,
    };
    this.credentials.push(credential);
    const attestationObject = isoCBOR.encode(
      new Map<string, unknown>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', new Uint8Array(authData)],
      ]) as never,
    );
    return {
      credential,
      json: {
        id: credential.id,
        rawId: credential.id,
        type: 'public-key',
        authenticatorAttachment: 'platform',
        clientExtensionResults: {},
        response: {
          clientDataJSON: b64(clientData('webauthn.create', options.challenge, origin)),
          attestationObject: b64(attestationObject),
          transports: ['internal'],
        },
      },
    };
  }

  /** navigator.credentials.get() at `origin` with `credential` (discoverable: the user handle is sent). */
  get(options: RequestOptions, origin: string, credential: SoftCredential) {
    credential.counter += 1;
    const rpId = options.rpId ?? new URL(origin).hostname;
    const authData = Buffer.concat([
      sha(rpId),
      Buffer.from([FLAGS.up | FLAGS.uv]),
      counterBytes(credential.counter),
    ]);
    const data = clientData('webauthn.get', options.challenge, origin);
    const signature = sign('sha256', Buffer.concat([authData, sha(data)]), credential.privateKey);
    return {
      id: credential.id,
      rawId: credential.id,
      type: 'public-key',
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
      response: {
        clientDataJSON: b64(data),
        authenticatorData: b64(authData),
        signature: b64(signature),
        userHandle: credential.userHandle,
      },
    };
  }
}
