import { signIn } from '../auth/session.js';

/** Sign-in that did not finish (or a sign-out), and the way back in. */
export function SignInProblem({ code, message }: { code: string; message: string }) {
  const signedOut = code === 'signed_out';
  return (
    <main class="centered">
      <div class="card">
        <h1>{signedOut ? 'Signed out' : 'Sign-in did not finish'}</h1>
        <p role={signedOut ? 'status' : 'alert'}>{message}</p>
        <button type="button" onClick={() => void signIn('/console/')}>
          Sign in again
        </button>
      </div>
    </main>
  );
}
