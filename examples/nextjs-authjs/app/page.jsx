// The home page, rendered on the server: who is signed in (from Auth.js's session), with a button to sign
// in at Tessera or out.
import { auth, signIn, signOut } from '../auth.js';

export default async function Home() {
  const session = await auth();
  if (!session?.user) {
    return (
      <main>
        <h1>Not signed in</h1>
        <form
          action={async () => {
            'use server';
            await signIn('tessera', { redirectTo: '/' });
          }}
        >
          <button type="submit">Sign in</button>
        </form>
      </main>
    );
  }
  return (
    <main>
      <h1>Signed in as {session.user.name}</h1>
      <p id="email">{session.user.email}</p>
      <form
        action={async () => {
          'use server';
          await signOut({ redirectTo: '/' });
        }}
      >
        <button type="submit">Sign out</button>
      </form>
    </main>
  );
}
