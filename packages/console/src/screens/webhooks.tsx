import type { OrgScreenProps } from '../org-context.js';
export function Webhooks(_: OrgScreenProps) {
  return <h1>Webhooks</h1>;
}
export function WebhookDetail(_: OrgScreenProps) {
  return <h1>WebhookDetail</h1>;
}
