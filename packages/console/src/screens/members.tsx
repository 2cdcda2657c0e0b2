import type { OrgScreenProps } from '../org-context.js';
export function Members(_: OrgScreenProps) {
  return <h1>Members</h1>;
}
