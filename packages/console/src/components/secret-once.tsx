import { useId, useState } from 'preact/hooks';

/**
 * A secret the API shows in one response only: shown here once, with a copy button, and gone
 * when the owner dismisses it or leaves the page.
 */
export function SecretOnce({
  label,
  value,
  onDismiss,
}: {
  label: string;
  value: string;
  onDismiss: () => void;
}) {
  const [copied, setCopied] = useState(false);
  const titleId = useId();
  return (
    <section class="secret" aria-labelledby={titleId}>
      <h2 id={titleId}>{label}</h2>
      <p>Copy it now: it is shown this once and cannot be shown again.</p>
      <div class="secret-value">
        <code data-testid="secret">{value}</code>
        <button
          type="button"
          onClick={async () => {
            await navigator.clipboard?.writeText(value).catch(() => {});
            setCopied(true);
          }}
        >
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
      <button type="button" class="secondary" onClick={onDismiss}>
        I have stored it
      </button>
    </section>
  );
}
