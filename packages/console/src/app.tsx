import type { ComponentChildren, ComponentType } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { allOrganizations } from './api/lists.js';
import type { OrganizationOfCaller } from './api/types.js';
import { signOut, whoAmI } from './auth/session.js';
import { follow } from './components/link.js';
import { ErrorNotice, Loading } from './components/notices.js';
import { type OrgScreenProps, OrgsContext } from './org-context.js';
import { BASE, match, navigate, orgHref, useLocation } from './router.js';
import { AuditLog } from './screens/audit-log.js';
import { Branding } from './screens/branding.js';
import { ClientDetail, Clients } from './screens/clients.js';
import { ConnectionDetail, Connections } from './screens/connections.js';
import { Directories, DirectoryDetail } from './screens/directories.js';
import { Domains } from './screens/domains.js';
import { FirstRun, NewOrganization } from './screens/first-run.js';
import { Invitations } from './screens/invitations.js';
import { Keys } from './screens/keys.js';
import { LogStreamDetail, LogStreams } from './screens/log-streams.js';
import { Members } from './screens/members.js';
import { OpenProfile } from './screens/profile-link.js';
import { ResourceDetail, Resources } from './screens/resources.js';
import { RoleDetail, Roles } from './screens/roles.js';
import { SECTIONS } from './screens/sections.js';
import { ServiceAccounts } from './screens/service-accounts.js';
import { Settings } from './screens/settings.js';
import { Texts } from './screens/texts.js';
import { TrustedAppDetail, TrustedApps } from './screens/trusted-apps.js';
import { UserDetail, Users } from './screens/users.js';
import { WebhookDetail, Webhooks } from './screens/webhooks.js';

/** Every org's screens by section: the list, and the page of one of its entries. */
const SCREENS: Record<
  string,
  { list: ComponentType<OrgScreenProps>; entry?: ComponentType<OrgScreenProps> }
> = {
  settings: { list: Settings },
  texts: { list: Texts },
  branding: { list: Branding },
  clients: { list: Clients, entry: ClientDetail },
  'service-accounts': { list: ServiceAccounts },
  users: { list: Users, entry: UserDetail },
  resources: { list: Resources, entry: ResourceDetail },
  roles: { list: Roles, entry: RoleDetail },
  invitations: { list: Invitations },
  connections: { list: Connections, entry: ConnectionDetail },
  'trusted-apps': { list: TrustedApps, entry: TrustedAppDetail },
  domains: { list: Domains },
  directories: { list: Directories, entry: DirectoryDetail },
  members: { list: Members },
  keys: { list: Keys },
  webhooks: { list: Webhooks, entry: WebhookDetail },
  events: { list: AuditLog },
  'log-streams': { list: LogStreams, entry: LogStreamDetail },
};

export function App() {
  const { path } = useLocation();
  const [orgs, setOrgs] = useState<OrganizationOfCaller[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const reload = useCallback(async () => {
    try {
      setOrgs(await allOrganizations());
      setError(null);
    } catch (e) {
      setError(e);
    }
  }, []);
  useEffect(() => {
    void reload();
  }, [reload]);

  const main = useRef<HTMLElement>(null);
  // A new page moves the focus to its content, as a page load would.
  useEffect(() => {
    main.current?.focus({ preventScroll: true });
  }, [path]);

  const routed =
    match(`${BASE}o/:org/:section/:id`, path) ??
    match(`${BASE}o/:org/:section`, path) ??
    match(`${BASE}o/:org`, path);
  const org = routed && orgs ? orgs.find((o) => o.slug === routed.org || o.id === routed.org) : undefined;

  let content: ComponentChildren;
  let title = 'Tessera console';
  if (error && !orgs) content = <ErrorNotice error={error} />;
  else if (!orgs) content = <Loading what="your organizations" />;
  else if (match(BASE, path) || path === '/console') content = <Home orgs={orgs} />;
  else if (match(`${BASE}new`, path)) {
    title = 'New organization · Tessera console';
    content = <NewOrganization />;
  } else if (routed && !org) content = <NotFound what="No such organization among yours." />;
  else if (routed && org) {
    const section = routed.section ?? 'settings';
    const screen = SCREENS[section];
    const label = SECTIONS.find((s) => s.path === section)?.label;
    const Screen = routed.id ? screen?.entry : screen?.list;
    title = `${label ?? 'Not found'} · ${org.name} · Tessera console`;
    if (!routed.section) content = <Redirect to={orgHref(org.slug, 'settings')} />;
    else if (!Screen) content = <NotFound what="No such page." />;
    else content = <Screen org={org} {...(routed.id ? { id: routed.id } : {})} />;
  } else content = <NotFound what="No such page." />;

  useEffect(() => {
    document.title = title;
  }, [title]);

  return (
    <OrgsContext.Provider value={{ list: orgs ?? [], reload }}>
      <a class="skip" href="#content">
        Skip to content
      </a>
      <TopBar orgs={orgs ?? []} current={org} />
      <div class={org ? 'layout' : ''}>
        {org ? <SideNav org={org} path={path} /> : null}
        <main id="content" class="content" ref={main} tabIndex={-1}>
          {content}
        </main>
      </div>
    </OrgsContext.Provider>
  );
}

function TopBar({
  orgs,
  current,
}: {
  orgs: OrganizationOfCaller[];
  current: OrganizationOfCaller | undefined;
}) {
  const me = whoAmI();
  const { path } = useLocation();
  return (
    <header class="topbar">
      <a class="brand" href={BASE} onClick={follow(BASE)}>
        Tessera console
      </a>
      {orgs.length > 0 ? (
        <span class="org-switch">
          <label for="org-switcher">Organization</label>
          <select
            id="org-switcher"
            value={current?.slug ?? ''}
            onChange={(e) => {
              const slug = (e.currentTarget as HTMLSelectElement).value;
              if (slug === '+new') navigate(`${BASE}new`);
              else if (slug) navigate(orgHref(slug, 'settings'));
            }}
          >
            {current ? null : <option value="">Choose…</option>}
            {orgs.map((o) => (
              <option key={o.id} value={o.slug}>
                {o.name} ({o.slug})
              </option>
            ))}
            <option value="+new">+ Create organization</option>
          </select>
        </span>
      ) : null}
      {orgs.length > 0 ? (
        <a
          class="topbar-link"
          href={`${BASE}new`}
          aria-current={path === `${BASE}new` ? 'page' : undefined}
          onClick={follow(`${BASE}new`)}
        >
          New organization
        </a>
      ) : null}
      {me ? <span class="who">{me.email}</span> : null}
      <OpenProfile />
      <button type="button" onClick={() => void signOut()}>
        Sign out
      </button>
    </header>
  );
}

function SideNav({ org, path }: { org: OrganizationOfCaller; path: string }) {
  const sections = SECTIONS.filter((s) => !s.owners || org.role === 'owner');
  return (
    <nav class="sidenav" aria-label={`${org.name} sections`}>
      <p class="org-name">{org.name}</p>
      <p class="role">You are {org.role === 'owner' ? 'an owner' : 'a member'}</p>
      <ul>
        {sections.map((s) => {
          const href = orgHref(org.slug, s.path);
          const here = path === href || path.startsWith(`${href}/`);
          return (
            <li key={s.path}>
              <a href={href} aria-current={here ? 'page' : undefined} onClick={follow(href)}>
                {s.label}
              </a>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

/** `/console/`: the first-run page, or the first org. */
function Home({ orgs }: { orgs: OrganizationOfCaller[] }) {
  const first = orgs[0];
  if (!first) return <FirstRun />;
  return <Redirect to={orgHref(first.slug, 'settings')} />;
}

function Redirect({ to }: { to: string }) {
  useEffect(() => navigate(to, { replace: true }), [to]);
  return null;
}

function NotFound({ what }: { what: string }) {
  return (
    <>
      <h1>Not found</h1>
      <p>{what}</p>
      <p>
        <a href={BASE} onClick={follow(BASE)}>
          Back to your organizations
        </a>
      </p>
    </>
  );
}
