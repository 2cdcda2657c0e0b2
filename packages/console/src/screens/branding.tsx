import { useState } from 'preact/hooks';
import { api, body } from '../api/client.js';
import { inOrg, oneIn } from '../api/params.js';
import type { OrganizationBranding, UpdateOrganizationBrandingBody } from '../api/types.js';
import { Form, TextField } from '../components/fields.js';
import { Done, ErrorNotice, Loading } from '../components/notices.js';
import { OwnersOnly } from '../components/page-head.js';
import { canWrite, type OrgScreenProps } from '../org-context.js';
import { useLoad } from '../use-load.js';
import { useSaving } from '../use-saving.js';

/** The pages' ink and white: the text colours a brand colour may take (the server's rule). */
const INK = '#1d2330';
const WHITE = '#ffffff';
const HEX = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

const full = (hex: string) =>
  hex.length === 4 ? `#${[...hex.slice(1)].map((d) => d + d).join('')}`.toLowerCase() : hex.toLowerCase();
const luminance = (hex: string) => {
  const c = [1, 3, 5].map((i) => {
    const v = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * (c[0] ?? 0) + 0.7152 * (c[1] ?? 0) + 0.0722 * (c[2] ?? 0);
};
const ratio = (a: string, b: string) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
};

/** The text colour a colour gets and its contrast, as the server chooses it; null for no valid colour. */
export function contrastOf(value: string): { ink: string; ratio: number } | null {
  if (!HEX.test(value)) return null;
  const hex = full(value);
  const dark = ratio(hex, INK);
  const light = ratio(hex, WHITE);
  return dark >= light ? { ink: INK, ratio: dark } : { ink: WHITE, ratio: light };
}

/** What an image file is as the API takes it: its bytes as base64. */
const base64Of = (file: File): Promise<string> =>
  file.arrayBuffer().then((bytes) => {
    let text = '';
    const view = new Uint8Array(bytes);
    for (let i = 0; i < view.length; i += 0x8000)
      text += String.fromCharCode(...view.subarray(i, i + 0x8000));
    return btoa(text);
  });

/** The org's brand (owners only, like the API): fields, colour pickers with their contrast, a live preview. */
export function Branding({ org }: OrgScreenProps) {
  return (
    <OwnersOnly
      owner={canWrite(org)}
      title="Branding"
      notice={<p>The brand of the sign-in pages and mails is set by the organization’s owners.</p>}
      screen={() => <BrandingScreen slug={org.slug} orgName={org.name} clientId={null} />}
    />
  );
}

/** The brand of the org (`clientId` null) or of one of its clients, with its form and preview. */
export function BrandingScreen({
  slug,
  orgName,
  clientId,
}: {
  slug: string;
  orgName: string;
  clientId: string | null;
}) {
  const loaded = useLoad(
    () =>
      clientId === null
        ? body(api.GET('/organizations/{org}/branding', inOrg(slug)))
        : body(api.GET('/organizations/{org}/clients/{id}/branding', oneIn(slug, clientId))),
    [slug, clientId],
  );
  return (
    <>
      {clientId === null ? <h1>Branding</h1> : <h2>Branding of this client</h2>}
      {loaded.state === 'loading' ? <Loading what="branding" /> : null}
      {loaded.state === 'error' ? <ErrorNotice error={loaded.error} /> : null}
      {loaded.state === 'ok' ? (
        <BrandingForm slug={slug} orgName={orgName} clientId={clientId} brand={loaded.data} />
      ) : null}
    </>
  );
}

function ColourField({
  label,
  value,
  onInput,
}: {
  label: string;
  value: string;
  onInput: (v: string) => void;
}) {
  const result = contrastOf(value);
  return (
    <div class="field">
      <TextField
        label={label}
        value={value}
        onInput={onInput}
        placeholder="#2f5bea"
        hint={
          value === ''
            ? 'Not set: the pages’ own colour.'
            : result === null
              ? 'A hex colour such as #2f5bea.'
              : `Text on it: ${result.ink === WHITE ? 'white' : 'dark'}, contrast ${(Math.floor(result.ratio * 100) / 100).toFixed(2)}:1 — ${result.ratio >= 4.5 ? 'passes WCAG AA' : 'below WCAG AA (4.5:1), will be refused'}`
        }
      />
      <input
        type="color"
        aria-label={`${label} picker`}
        value={result === null ? '#2f5bea' : full(value)}
        onInput={(e) => onInput((e.currentTarget as HTMLInputElement).value)}
      />
    </div>
  );
}

function BrandingForm({
  slug,
  orgName,
  clientId,
  brand,
}: {
  slug: string;
  orgName: string;
  clientId: string | null;
  brand: OrganizationBranding;
}) {
  const [name, setName] = useState(brand.display_name ?? '');
  const [primary, setPrimary] = useState(brand.primary ?? '');
  const [background, setBackground] = useState(brand.background ?? '');
  const [terms, setTerms] = useState(brand.terms_url ?? '');
  const [privacy, setPrivacy] = useState(brand.privacy_url ?? '');
  const [logo, setLogo] = useState<{ file: File; preview: string } | null>(null);
  const [current, setCurrent] = useState(brand);
  const saving = useSaving();
  const primaryInk = contrastOf(primary);
  const backgroundInk = contrastOf(background);
  const [shown, setShown] = useState<string | null>(null);
  const logoSrc = logo?.preview ?? shown;
  return (
    <div class="branding">
      <div class="panel">
        <ErrorNotice error={saving.error} />
        {saving.saved ? <Done>Branding saved.</Done> : null}
        <Form
          label="Branding"
          onSubmit={() =>
            saving.save(async (done) => {
              const change: UpdateOrganizationBrandingBody = {
                display_name: name.trim() === '' ? null : name,
                primary: primary === '' ? null : primary,
                background: background === '' ? null : background,
                terms_url: terms === '' ? null : terms,
                privacy_url: privacy === '' ? null : privacy,
                ...(logo === null ? {} : { logo: await base64Of(logo.file) }),
              };
              const after =
                clientId === null
                  ? await body(
                      api.PATCH('/organizations/{org}/branding', {
                        ...inOrg(slug),
                        body: change,
                      }),
                    )
                  : await body(
                      api.PATCH('/organizations/{org}/clients/{id}/branding', {
                        ...oneIn(slug, clientId),
                        body: change,
                      }),
                    );
              setCurrent(after);
              if (logo !== null) setShown(logo.preview);
              setLogo(null);
              done();
            })
          }
        >
          <TextField label="Display name" value={name} onInput={setName} hint={`Not set: ${orgName}.`} />
          <div class="field">
            <label for="brand-logo">Logo</label>
            <input
              id="brand-logo"
              type="file"
              accept="image/png,image/jpeg,image/webp"
              aria-describedby="brand-logo-hint"
              onChange={(e) => {
                const file = (e.currentTarget as HTMLInputElement).files?.[0];
                // A data: URL: the console's CSP loads images from itself and data: only, not the org's host.
                if (file)
                  void base64Of(file).then((b64) =>
                    setLogo({ file, preview: `data:${file.type};base64,${b64}` }),
                  );
              }}
            />
            <p id="brand-logo-hint" class="hint">
              PNG, JPEG or WebP, at most 256 KB and 2048 pixels a side.
            </p>
            {current.logo === null ? null : (
              <p class="hint">
                Current logo:{' '}
                <a href={current.logo.url}>
                  {current.logo.width}×{current.logo.height} {current.logo.media_type}
                </a>
              </p>
            )}
          </div>
          <ColourField label="Primary colour" value={primary} onInput={setPrimary} />
          <ColourField label="Background colour" value={background} onInput={setBackground} />
          <TextField label="Terms of service URL" type="url" value={terms} onInput={setTerms} />
          <TextField label="Privacy policy URL" type="url" value={privacy} onInput={setPrivacy} />
          <button type="submit">Save branding</button>
        </Form>
      </div>
      <section class="panel" aria-labelledby="brand-preview">
        <h2 id="brand-preview">Preview of the sign-in page</h2>
        <div
          class="brand-preview"
          style={{
            background: backgroundInk?.ratio ? full(background) : '#f4f5f7',
            color: backgroundInk?.ink ?? INK,
          }}
        >
          <div class="brand-preview-head">
            {logoSrc === null ? null : <img src={logoSrc} alt="" />}
            <strong>{name.trim() === '' ? orgName : name}</strong>
          </div>
          <div class="brand-preview-card">
            <p class="brand-preview-title">Sign in</p>
            <p class="brand-preview-input">Email</p>
            <p class="brand-preview-input">Password</p>
            <p
              class="brand-preview-button"
              style={{ background: primaryInk ? full(primary) : '#2f5bea', color: primaryInk?.ink ?? WHITE }}
            >
              Sign in
            </p>
          </div>
          {terms || privacy ? (
            <p class="brand-preview-links">
              {terms ? <span>Terms of service</span> : null} {privacy ? <span>Privacy policy</span> : null}
            </p>
          ) : null}
        </div>
      </section>
    </div>
  );
}
