import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { useAction } from '../use-action.js';
import { Done, ErrorNotice } from './notices.js';

/**
 * The "Sending" panel of something that sends (a webhook, a log stream): Pause or Resume, each sent by
 * `setActive`, with what the current state means (`active`, `paused` and their hints) and, while the
 * thing is in the state the last change asked for, what that change did.
 */
export function SendingPanel({
  id,
  active,
  setActive,
  onChanged,
  resumed,
  activeText,
  activeHint,
  pausedText,
  pausedHint,
}: {
  id: string;
  active: boolean;
  setActive: (active: boolean) => Promise<unknown>;
  onChanged: () => void;
  /** What a resume did. */
  resumed: string;
  activeText: ComponentChildren;
  activeHint: ComponentChildren;
  pausedText: ComponentChildren;
  pausedHint?: ComponentChildren;
}) {
  const { error, busy, run } = useAction();
  /** The state the last change asked for: its note shows while the thing is in that state. */
  const [done, setDone] = useState<boolean | null>(null);
  const set = (to: boolean) => {
    setDone(null);
    return run(async () => {
      await setActive(to);
      setDone(to);
      onChanged();
    });
  };
  return (
    <section class="panel" aria-labelledby={id}>
      <h2 id={id}>Sending</h2>
      <ErrorNotice error={error} />
      {done === active ? (
        <Done>{done ? resumed : 'Paused: nothing is sent until you resume it.'}</Done>
      ) : null}
      {active ? (
        <>
          <p>{activeText}</p>
          <button type="button" class="secondary" disabled={busy} onClick={() => set(false)}>
            Pause
          </button>
          <p class="hint">{activeHint}</p>
        </>
      ) : (
        <>
          <p>{pausedText}</p>
          <button type="button" disabled={busy} onClick={() => set(true)}>
            Resume
          </button>
          {pausedHint ? <p class="hint">{pausedHint}</p> : null}
        </>
      )}
    </section>
  );
}
