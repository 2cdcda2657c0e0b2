import type { OrgScreenProps } from '../org-context.js';
export function Keys(_: OrgScreenProps) {
  return <h1>Keys</h1>;
}
