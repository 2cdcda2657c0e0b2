import { createHash } from 'node:crypto';
import type { PageScript } from './page-scripts.js';
import type { PasskeyScript } from './passkey-views.js';

/**
 * The one script of the hosted pages: /login/passkeys.js, the same for every org host. Pages that
 * offer passkeys load it (their CSP allows `script-src 'self'`; every other page runs none). It
 * reveals the passkey controls only when the browser has WebAuthn, asks the page's JSON endpoints
 * for options (CSRF token from the page), runs the ceremony, posts the answer and follows the
 * redirect it is given, or shows the refusal in words. Written for browsers as they are (no build
 * step): it converts the options itself where `PublicKeyCredential.parse…FromJSON` is missing.
 */
const SCRIPT = `(() => {
  'use strict';
  const PKC = window.PublicKeyCredential;
  if (!PKC || !navigator.credentials || typeof navigator.credentials.get !== 'function') return;
  const GENERIC = 'That did not work. Try again, or sign in another way.';
  const CANCELLED = 'The passkey request was cancelled or timed out.';

  const toBytes = (text) => {
    const base64 = text.replace(/-/g, '+').replace(/_/g, '/');
    const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
    return Uint8Array.from(binary, (c) => c.charCodeAt(0)).buffer;
  };
  const toText = (buffer) => {
    if (!buffer) return undefined;
    let binary = '';
    for (const byte of new Uint8Array(buffer)) binary += String.fromCharCode(byte);
    return btoa(binary).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
  };
  const withIds = (list) => (list || []).map((c) => Object.assign({}, c, { id: toBytes(c.id) }));

  const creationOptions = (o) =>
    typeof PKC.parseCreationOptionsFromJSON === 'function'
      ? PKC.parseCreationOptionsFromJSON(o)
      : Object.assign({}, o, {
          challenge: toBytes(o.challenge),
          user: Object.assign({}, o.user, { id: toBytes(o.user.id) }),
          excludeCredentials: withIds(o.excludeCredentials),
        });
  const requestOptions = (o) =>
    typeof PKC.parseRequestOptionsFromJSON === 'function'
      ? PKC.parseRequestOptionsFromJSON(o)
      : Object.assign({}, o, { challenge: toBytes(o.challenge), allowCredentials: withIds(o.allowCredentials) });

  const credentialJSON = (c) => {
    const r = c.response;
    const response = { clientDataJSON: toText(r.clientDataJSON) };
    if (r.attestationObject) {
      response.attestationObject = toText(r.attestationObject);
      if (typeof r.getTransports === 'function') response.transports = r.getTransports();
    } else {
      response.authenticatorData = toText(r.authenticatorData);
      response.signature = toText(r.signature);
      if (r.userHandle) response.userHandle = toText(r.userHandle);
    }
    return {
      id: c.id,
      rawId: toText(c.rawId),
      type: c.type,
      authenticatorAttachment: c.authenticatorAttachment || undefined,
      clientExtensionResults: c.getClientExtensionResults ? c.getClientExtensionResults() : {},
      response,
    };
  };

  const post = async (url, body) => {
    const res = await fetch(url, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
    });
    let data = {};
    try {
      data = await res.json();
    } catch {}
    return { ok: res.ok, data };
  };
  const ceremony = (box, button, run) => {
    const problem = box.querySelector('[data-passkey-problem]');
    // The page's language: its words for a failure, in the problem element's data attributes.
    const generic = problem.dataset.generic || GENERIC;
    const cancelled = problem.dataset.cancelled || CANCELLED;
    const wordsOf = (data) => data.error_detail || data.error_description || generic;
    const show = (words) => {
      problem.textContent = words;
      problem.hidden = false;
    };
    button.addEventListener('click', async () => {
      problem.hidden = true;
      button.disabled = true;
      try {
        const csrf = box.dataset.csrf;
        const start = await run.prepare(csrf);
        if (start === null) return;
        const options = await post(box.dataset.options, start);
        if (!options.ok) return show(wordsOf(options.data));
        const credential = await run.ceremony(options.data.options);
        const done = await post(box.dataset.verify, run.answer(csrf, credentialJSON(credential)));
        if (done.ok && done.data.redirect) {
          window.location.assign(done.data.redirect);
          return;
        }
        if (done.data.unknown_credential && typeof PKC.signalUnknownCredential === 'function') {
          PKC.signalUnknownCredential({ rpId: options.data.options.rpId, credentialId: credential.id }).catch(() => {});
        }
        show(wordsOf(done.data));
      } catch (error) {
        show(error && (error.name === 'NotAllowedError' || error.name === 'AbortError') ? cancelled : generic);
      } finally {
        button.disabled = false;
      }
    });
    box.hidden = false;
  };

  const signIn = document.getElementById('passkey-sign-in');
  if (signIn) {
    ceremony(signIn, signIn.querySelector('button'), {
      prepare: async (csrf) => ({ csrf }),
      ceremony: (options) => navigator.credentials.get({ publicKey: requestOptions(options) }),
      answer: (csrf, credential) => ({ csrf, credential }),
    });
  }

  const register = document.getElementById('passkey-register');
  if (register && typeof navigator.credentials.create === 'function') {
    const name = register.querySelector('input');
    ceremony(register, register.querySelector('button'), {
      prepare: async (csrf) => {
        if (!name.reportValidity()) return null;
        return { csrf };
      },
      ceremony: (options) => navigator.credentials.create({ publicKey: creationOptions(options) }),
      answer: (csrf, credential) => ({ csrf, name: name.value, credential }),
    });
    for (const note of document.querySelectorAll('[data-passkey-unsupported]')) note.hidden = true;
  }
})();
`;

const VERSION = createHash('sha256').update(SCRIPT).digest('hex').slice(0, 12);

/** /login/passkeys.js, the same on every host. */
export const PASSKEY_SCRIPT_FILE: PageScript = { path: '/login/passkeys.js', source: SCRIPT };

/** The page's `<script src>`: versioned, so a changed script is fetched again at once. */
export const PASSKEY_SCRIPT: PasskeyScript = { src: `${PASSKEY_SCRIPT_FILE.path}?v=${VERSION}` };
