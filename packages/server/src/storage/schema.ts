/** Times are epoch milliseconds; JSON columns are text; booleans are 0/1. Same on SQLite and PostgreSQL. */
export interface OrganizationsTable {
  id: string;
  slug: string;
  name: string;
  is_console: number;
  allow_signup: number;
  created_at: number;
  updated_at: number;
}

export interface MembershipsTable {
  org_id: string;
  /** A user of the console org. */
  user_id: string;
  role: 'owner' | 'member';
  created_at: number;
}

export interface TenantsTable {
  id: string;
  org_id: string;
  name: string;
  logo: string | null;
  created_at: number;
  updated_at: number;
}

export interface UsersTable {
  id: string;
  org_id: string;
  email: string;
  email_key: string;
  password_hash: string | null;
  first_name: string | null;
  last_name: string | null;
  picture: string | null;
  provider: string;
  created_at: number;
  updated_at: number;
}

export interface TenantMembersTable {
  tenant_id: string;
  user_id: string;
  role: 'owner' | 'member';
  created_at: number;
}

export interface ClientsTable {
  id: string;
  org_id: string;
  name: string;
  kind: 'public' | 'confidential';
  secret_hash: string | null;
  redirect_uris: string;
  grant_types: string;
  first_party: number;
  created_at: number;
  updated_at: number;
}

export interface SigningKeysTable {
  kid: string;
  org_id: string;
  /** `next`: published, not yet signing; `active`: signs; `retired`: published until `expires_at`. */
  status: 'next' | 'active' | 'retired';
  public_jwk: string;
  private_key: string;
  created_at: number;
  expires_at: number | null;
}

export interface AuditEventsTable {
  id: string;
  org_id: string;
  key: string;
  entity: string;
  verb: string;
  at: number;
  actor_kind: 'user' | 'client' | 'system';
  actor_id: string | null;
  data: string;
  previous: string | null;
  changes: string | null;
}

export interface Database {
  organizations: OrganizationsTable;
  memberships: MembershipsTable;
  tenants: TenantsTable;
  users: UsersTable;
  tenant_members: TenantMembersTable;
  clients: ClientsTable;
  signing_keys: SigningKeysTable;
  audit_events: AuditEventsTable;
}
