// Auth.js (next-auth v5) with Tessera as a generic OpenID Connect provider: the code flow with PKCE, state
// and nonce, the ID token checked against the org's keys. See README.md.
import NextAuth from 'next-auth';

export const { handlers, auth, signIn, signOut } = NextAuth({
  providers: [
    {
      id: 'tessera',
      name: 'Tessera',
      type: 'oidc',
      // The org's issuer, trailing slash included: Auth.js reads its discovery document.
      issuer: process.env.TESSERA_ISSUER ?? 'http://localhost:4000/o/acme/',
      clientId: process.env.AUTH_TESSERA_ID,
      clientSecret: process.env.AUTH_TESSERA_SECRET,
      checks: ['pkce', 'state', 'nonce'],
      authorization: { params: { scope: 'openid profile email' } },
    },
  ],
});
