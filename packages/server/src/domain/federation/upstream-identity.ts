/** A person as an upstream identity provider vouched for them. */
export interface UpstreamIdentity {
  /** The upstream's stable id of the person: OIDC `sub`, SAML NameID. */
  subject: string;
  email: string | null;
  /** The upstream says the address is the person's (OIDC `email_verified`; SAML: see saml-upstream.ts). */
  emailVerified: boolean;
  firstName: string | null;
  lastName: string | null;
  /** OIDC: the ID token's `hd` (Google Workspace's hosted domain), checked by hosted-domain.ts; else null. */
  hostedDomain: string | null;
}
