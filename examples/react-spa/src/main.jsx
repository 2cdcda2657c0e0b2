import { useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { finishSignIn, invoicesApi, signIn, signOut, whoIs } from './auth.js';

function App({ initial, initialError }) {
  const [tokens, setTokens] = useState(initial);
  const [user, setUser] = useState(null);
  const [invoices, setInvoices] = useState(null);
  const [error, setError] = useState(initialError);

  useEffect(() => {
    if (tokens) whoIs(tokens).then(setUser, (e) => setError(e.message));
  }, [tokens]);

  async function callApi() {
    const response = await fetch(`${invoicesApi}/invoices`, {
      headers: { authorization: `Bearer ${tokens.accessToken}` },
    });
    setInvoices({ status: response.status, body: await response.json() });
  }

  async function leave() {
    await signOut(tokens);
    setTokens(null);
    setUser(null);
    setInvoices(null);
  }

  if (!tokens) {
    return (
      <main>
        <h1>Not signed in</h1>
        {error && <p role="alert">{error}</p>}
        <button type="button" onClick={() => signIn()}>
          Sign in
        </button>
      </main>
    );
  }
  return (
    <main>
      <h1>Signed in</h1>
      {error && <p role="alert">{error}</p>}
      {user && (
        <dl>
          <dt>User</dt>
          <dd id="user">{user.userId}</dd>
          <dt>Tenant</dt>
          <dd id="tenant">{user.tenantId}</dd>
          <dt>Scope</dt>
          <dd id="scope">{user.scope}</dd>
        </dl>
      )}
      <button type="button" onClick={callApi}>
        Call the invoices API
      </button>
      {invoices && <pre id="invoices">{`${invoices.status} ${JSON.stringify(invoices.body)}`}</pre>}
      <button type="button" onClick={leave}>
        Sign out
      </button>
    </main>
  );
}

// The callback is finished once, before the first render (React may run an effect twice).
let initial = null;
let initialError = null;
try {
  initial = await finishSignIn();
} catch (error) {
  initialError = error.message;
}
createRoot(document.getElementById('root')).render(<App initial={initial} initialError={initialError} />);
