import { useId, useState } from 'preact/hooks';

/**
 * A value to copy elsewhere (a URL to give an identity provider): shown in full, with a copy
 * button named after it. Where the clipboard is refused the text is selected instead.
 */
export function CopyValue({ label, value, hint }: { label: string; value: string; hint?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'select'>('idle');
  const id = useId();
  return (
    <div class="copy-value">
      <p class="copy-label">{label}</p>
      <div class="copy-row">
        <code id={id} class="copy-text" data-testid="copy-value">
          {value}
        </code>
        <button
          type="button"
          class="secondary"
          aria-label={`Copy ${label}`}
          onClick={async () => {
            try {
              await navigator.clipboard.writeText(value);
              setState('copied');
            } catch {
              const code = document.getElementById(id);
              if (code) getSelection()?.selectAllChildren(code);
              setState('select');
            }
          }}
        >
          {state === 'copied' ? 'Copied' : 'Copy'}
        </button>
      </div>
      {hint ? <p class="hint">{hint}</p> : null}
      <p class="visually-hidden" aria-live="polite">
        {state === 'copied'
          ? `${label} copied.`
          : state === 'select'
            ? `${label} selected: copy it with your keyboard.`
            : ''}
      </p>
    </div>
  );
}
