/** The management API's shapes, as packages/server/src/http/management/*-schemas.ts declare them. */

export type Role = 'owner' | 'member';

export interface OrganizationOfCaller {
  id: string;
  slug: string;
  name: string;
  role: Role;
}

export interface CreatedOrganization {
  id: string;
  slug: string;
  name: string;
  issuer: string;
}

export interface OrganizationSettings {
  id: string;
  slug: string;
  name: string;
  issuer: string;
  require_mfa: boolean;
}

export interface Member {
  user_id: string;
  email: string;
  role: Role;
}

export type GrantType = 'authorization_code' | 'refresh_token' | 'client_credentials';

export interface Client {
  client_id: string;
  client_name: string;
  type: 'public' | 'confidential';
  redirect_uris: string[];
  post_logout_redirect_uris: string[];
  grant_types: GrantType[];
  first_party: boolean;
  created_at: string;
}

export interface CreatedClient extends Client {
  client_secret?: string;
}

export interface User {
  id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  disabled: boolean;
  created_at: string;
}

export interface SigningKey {
  kid: string;
  state: 'next' | 'active' | 'retired';
  created_at: string;
}

export interface Webhook {
  id: string;
  url: string;
  events: string[];
  active: boolean;
  created_at: string;
  secret?: string;
}

export interface DeliveryAttempt {
  at: string;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
}

export interface Delivery {
  id: string;
  event_id: string;
  type: string;
  status: 'pending' | 'delivered' | 'failed' | 'skipped';
  created_at: string;
  next_attempt_at: string | null;
  attempts: DeliveryAttempt[];
}

export type Actor = { kind: 'user' | 'client'; id: string } | { kind: 'system' };

export interface AuditEvent {
  id: string;
  key: string;
  entity: string;
  verb: 'created' | 'updated' | 'deleted' | 'login';
  at: string;
  actor: Actor;
  data: Record<string, unknown>;
  previous?: Record<string, unknown>;
  changes?: Record<string, unknown>;
}

export interface Impersonation {
  id: string;
  user_id: string;
  client_id: string;
  url: string;
  expires_at: string;
}
