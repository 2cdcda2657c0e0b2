import type { OrgScreenProps } from '../org-context.js';
export function Users(_: OrgScreenProps) {
  return <h1>Users</h1>;
}
export function UserDetail(_: OrgScreenProps) {
  return <h1>UserDetail</h1>;
}
