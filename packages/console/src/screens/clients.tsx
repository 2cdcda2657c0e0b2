import type { OrgScreenProps } from '../org-context.js';
export function Clients(_: OrgScreenProps) {
  return <h1>Clients</h1>;
}
export function ClientDetail(_: OrgScreenProps) {
  return <h1>ClientDetail</h1>;
}
