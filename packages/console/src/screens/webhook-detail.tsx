import { useState } from 'preact/hooks';
import { api, ok } from '../api/client.js';
import { oneIn } from '../api/params.js';
import type { Webhook } from '../api/types.js';
import { DeletePanel } from '../components/confirm-panel.js';
import { Fact } from '../components/fact.js';
import { Form, TextField } from '../components/fields.js';
import { Link } from '../components/link.js';
import { Done, ErrorNotice, Loading } from '../components/notices.js';
import { SendingPanel } from '../components/sending-panel.js';
import { when } from '../format.js';
import { canWrite, type OrgScreenProps } from '../org-context.js';
import { orgHref } from '../router.js';
import { useAction } from '../use-action.js';
import { useLoad } from '../use-load.js';
import { ActiveBadge, loadWebhook, OwnersOnly, URL_HINT } from './webhook-bits.js';
import { DeliveryLog } from './webhook-deliveries.js';
import { PatternEditor, PatternList, usePatterns } from './webhook-patterns.js';

/** One webhook (owners only): its facts, pause/resume, its delivery log, changes, delete. */
export function WebhookDetail({ org, id }: OrgScreenProps) {
  return (
    <>
      <p class="back">
        <Link href={orgHref(org.slug, 'webhooks')}>← All webhooks</Link>
      </p>
      <h1>Webhook</h1>
      {canWrite(org) ? <OwnerView org={org} id={id ?? ''} /> : <OwnersOnly />}
    </>
  );
}

function OwnerView({ org, id }: OrgScreenProps & { id: string }) {
  const loaded = useLoad(() => loadWebhook(org.slug, id), [org.slug, id]);
  if (loaded.state === 'loading') return <Loading what="the webhook" />;
  if (loaded.state === 'error') return <ErrorNotice error={loaded.error} />;
  const webhook = loaded.data;
  return (
    <>
      <Facts webhook={webhook} />
      <PauseResume org={org} webhook={webhook} onChanged={loaded.reload} />
      <DeliveryLog org={org} webhook={webhook} onRefresh={loaded.reload} />
      <EditWebhook org={org} webhook={webhook} onSaved={loaded.reload} />
      <DeletePanel
        id="webhook-delete-title"
        title="Delete"
        button="Delete webhook"
        question="Delete this webhook and its delivery log?"
        remove={() => api.DELETE('/organizations/{org}/webhooks/{id}', oneIn(org.slug, webhook.id))}
        href={orgHref(org.slug, 'webhooks')}
      >
        <p>Deleting stops every delivery at once and drops the delivery log. It cannot be undone.</p>
      </DeletePanel>
    </>
  );
}

function Facts({ webhook }: { webhook: Webhook }) {
  return (
    <dl class="facts panel wh-facts">
      <Fact term="Id" code={webhook.id} />
      <Fact term="URL" code={webhook.url} />
      <Fact term="Events">
        <PatternList patterns={webhook.events} />
      </Fact>
      <Fact term="Status">
        <ActiveBadge active={webhook.active} />
      </Fact>
      <Fact term="Created">{when(webhook.created_at)}</Fact>
    </dl>
  );
}

/** PATCH active: false pauses; true resumes, also a webhook that failing deliveries turned off. */
function PauseResume({
  org,
  webhook,
  onChanged,
}: OrgScreenProps & { webhook: Webhook; onChanged: () => void }) {
  return (
    <SendingPanel
      id="webhook-sending-title"
      active={webhook.active}
      setActive={(active) =>
        ok(
          api.PATCH('/organizations/{org}/webhooks/{id}', {
            ...oneIn(org.slug, webhook.id),
            body: { active },
          }),
        )
      }
      onChanged={onChanged}
      resumed="Resumed: matching events are sent again."
      activeText="Active: each event that matches its patterns is sent as it happens."
      activeHint="While paused nothing is sent, not even later: deliveries still waiting are skipped."
      pausedText={
        <>
          Paused: nothing is sent. An owner paused it, or Tessera turned it off after a delivery failed for
          good (its receiver answered 410 Gone, or every retry failed).
        </>
      }
      pausedHint={
        <>
          Resuming also turns back on a webhook that failing deliveries turned off. Events from then on are
          sent; use Retry in the log for the ones it missed.
        </>
      }
    />
  );
}

function EditWebhook({ org, webhook, onSaved }: OrgScreenProps & { webhook: Webhook; onSaved: () => void }) {
  const [url, setUrl] = useState(webhook.url);
  const patterns = usePatterns(webhook.events);
  const { error, busy, run } = useAction();
  const [saved, setSaved] = useState(false);
  return (
    <section class="panel" aria-labelledby="webhook-edit-title">
      <h2 id="webhook-edit-title">Change URL or events</h2>
      <ErrorNotice error={error} />
      {saved ? <Done>Changes saved.</Done> : null}
      <Form
        label="Change URL or events"
        onSubmit={() => {
          setSaved(false);
          return run(async () => {
            const events = patterns.all();
            await ok(
              api.PATCH('/organizations/{org}/webhooks/{id}', {
                ...oneIn(org.slug, webhook.id),
                body: { url: url.trim(), events },
              }),
            );
            patterns.setPatterns(events);
            patterns.setDraft('');
            setSaved(true);
            onSaved();
          });
        }}
      >
        <TextField label="URL" name="url" type="url" value={url} onInput={setUrl} required hint={URL_HINT} />
        <PatternEditor state={patterns} />
        <div>
          <button type="submit" disabled={busy}>
            Save changes
          </button>
        </div>
      </Form>
    </section>
  );
}
