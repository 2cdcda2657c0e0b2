import { allClients } from '../api/lists.js';
import type { Client, TrustedApp } from '../api/types.js';
import { ChoiceFieldset } from '../components/choice-fieldset.js';
import { DraftFields, type FieldDecl } from '../components/draft-fields.js';
import { linesOf } from '../components/fields.js';
import { Link } from '../components/link.js';
import { oneTimeNews } from '../news.js';
import { orgHref } from '../router.js';

/** What the trusted app screens share: the owners-only note, the form's values and fields, news. */

export const ID_JAG_LINE =
  'An ID-JAG lets a client someone signed in to here get a token at another authorization server (an MCP server’s, say) without a consent screen there: only for the apps listed here, and only for the clients, resources and scopes you allow.';

/** Trusted apps are the API's owner-only lists: a member sees why there is nothing here. */
export function TrustedAppsOwnersOnly() {
  return (
    <p class="notice info">
      Only owners of this organization can see and change its trusted apps: they decide which other
      authorization servers its clients may get ID-JAGs for.
    </p>
  );
}

/** A line for the list to announce once (a trusted app just deleted). */
export const trustedAppNews = oneTimeNews();

/** The org's confidential clients: the only ones a trusted app may name. */
export const confidentialClients = async (slug: string) =>
  (await allClients(slug)).filter((c) => c.type === 'confidential');

/** A trusted app form's values as typed (resources one per line, scopes space-separated). */
export interface TrustedAppDraft {
  name: string;
  audience: string;
  targetClientId: string;
  clientIds: string[];
  resources: string;
  scopes: string;
}

export const emptyTrustedApp = (): TrustedAppDraft => ({
  name: '',
  audience: 'https://',
  targetClientId: '',
  clientIds: [],
  resources: '',
  scopes: '',
});

export const draftOfTrustedApp = (a: TrustedApp): TrustedAppDraft => ({
  name: a.name,
  audience: a.audience,
  targetClientId: a.target_client_id,
  clientIds: a.client_ids,
  resources: a.resources.join('\n'),
  scopes: a.scopes.join(' '),
});

const wordsOf = (text: string) => text.split(/\s+/).filter((s) => s !== '');

/** The draft as the API takes it (create, and the fields an edit compares). */
export const trustedAppBody = (d: TrustedAppDraft) => ({
  name: d.name,
  audience: d.audience.trim(),
  target_client_id: d.targetClientId.trim(),
  client_ids: d.clientIds,
  resources: linesOf(d.resources),
  scopes: wordsOf(d.scopes),
});

type Change = (change: Partial<TrustedAppDraft>) => void;

/** What names the app and its target, before the clients. */
const TARGET: readonly FieldDecl<TrustedAppDraft>[] = [
  { key: 'name', label: 'Name', required: true, hint: 'For you and the audit log, up to 100 characters.' },
  {
    key: 'audience',
    label: 'Audience (the target’s issuer)',
    type: 'url',
    required: true,
    hint: 'The issuer URL of the authorization server that takes the ID-JAGs, exactly as its discovery says it. https only (http on localhost).',
  },
  {
    key: 'targetClientId',
    name: 'target_client_id',
    label: 'Target client id',
    required: true,
    hint: 'The client id that authorization server knows the asking clients by: the ID-JAG’s client_id.',
  },
];

/** What the clients may ask for, after them. */
const GRANTED: readonly FieldDecl<TrustedAppDraft>[] = [
  {
    kind: 'lines',
    key: 'resources',
    label: 'Resources',
    hint: 'Resource indicators (RFC 8707) they may ask for, one per line, like https://mcp.example.com/mcp. None: they may name no resource.',
  },
  {
    key: 'scopes',
    label: 'Scopes',
    hint: 'Separated by spaces. An ID-JAG asked for without a scope carries them all.',
  },
];

/** Every field of a trusted app, the same on create and edit; `clients`: the org's confidential ones. */
export function TrustedAppFields({
  slug,
  draft,
  set,
  clients,
}: {
  slug: string;
  draft: TrustedAppDraft;
  set: Change;
  clients: readonly Client[];
}) {
  // A client allowed before that is no longer a confidential client of the org keeps a box, named by its id.
  const choices = [
    ...clients.map((c) => ({ id: c.client_id, label: `${c.client_name} (${c.client_id})` })),
    ...draft.clientIds
      .filter((id) => !clients.some((c) => c.client_id === id))
      .map((id) => ({ id, label: id, hint: 'No longer a confidential client of this organization.' })),
  ];
  return (
    <>
      <DraftFields draft={draft} set={set} fields={TARGET} />
      <ChoiceFieldset
        legend="Clients that may ask"
        hint="Only confidential clients of this organization; each gets one trusted app per audience."
        name="client_ids"
        choices={choices}
        chosen={draft.clientIds}
        onChange={(clientIds) => set({ clientIds })}
        none={
          <>
            This organization has no confidential client yet:{' '}
            <Link href={orgHref(slug, 'clients')}>create one</Link> on the Clients screen.
          </>
        }
      />
      <DraftFields draft={draft} set={set} fields={GRANTED} />
    </>
  );
}
