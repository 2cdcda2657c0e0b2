import { TextField } from '../components/fields.js';
import { oneTimeNews } from '../news.js';
import { ScopesEditor, type ScopesState } from './resource-scopes.js';

/** What the resources screens share: hints, the fields of a resource, the TTL field's value, and news for the next page. */

export const IDENTIFIER_HINT =
  'The resource indicator (RFC 8707) apps ask tokens for, usually the API’s or MCP server’s URL: absolute https with no fragment, or http on localhost, *.localhost, 127.0.0.1 or [::1]. It cannot be changed later.';

export const TTL_HINT = 'How long its access tokens last: 60 to 86400 (24 hours). 900 is 15 minutes.';

/** The fields a resource's creation and its edit panel both show: name, scopes, token lifetime. */
export function ResourceFields(props: {
  name: string;
  setName: (value: string) => void;
  scopes: ScopesState;
  ttl: string;
  setTtl: (value: string) => void;
}) {
  return (
    <>
      <TextField
        label="Name"
        name="name"
        value={props.name}
        onInput={props.setName}
        required
        hint="Shown on the consent page and in this console."
      />
      <ScopesEditor state={props.scopes} />
      <TextField
        label="Access token lifetime (seconds)"
        name="access_token_ttl"
        type="number"
        value={props.ttl}
        onInput={props.setTtl}
        hint={TTL_HINT}
      />
    </>
  );
}

/** The lifetime field as the API takes it: left empty, not sent (the default, or no change). */
export const ttlValue = (text: string): { access_token_ttl?: number } =>
  text.trim() === '' ? {} : { access_token_ttl: Number(text) };

/** Resources this tab created a moment ago: their page says so once. */
export const justCreated = new Set<string>();

/** A line for the list to announce once (a resource just deleted). */
export const resourceNews = oneTimeNews();

/** API resources are the API's owner-only lists: a member sees why there is nothing here. */
export function ResourcesOwnersOnly() {
  return <p class="notice info">Only owners of this organization can see and change its API resources.</p>;
}
