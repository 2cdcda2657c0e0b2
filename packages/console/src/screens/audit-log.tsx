import type { OrgScreenProps } from '../org-context.js';
export function AuditLog(_: OrgScreenProps) {
  return <h1>AuditLog</h1>;
}
