import type { ComponentChildren, ComponentType } from 'preact';
import type { OrganizationOfCaller } from '../api/types.js';
import { canWrite, type OrgScreenProps } from '../org-context.js';
import { Link } from './link.js';

/** What a list's heading offers: a link to its "new" form, a button that opens one in place, or nothing. */
export type HeadAction = { label: string; href: string } | { label: string; onClick: () => void } | null;

/** A list screen's heading and its one action beside it. */
export function PageHead({ title, action }: { title: string; action: HeadAction }) {
  return (
    <div class="page-head">
      <h1>{title}</h1>
      {action === null ? null : 'href' in action ? (
        <Link href={action.href} class="button">
          {action.label}
        </Link>
      ) : (
        <button type="button" onClick={action.onClick}>
          {action.label}
        </button>
      )}
    </div>
  );
}

/** The page of one thing (or of a new one): the way back to its list (`back`, at `href`), and its heading. */
export function DetailHead({ href, back, title }: { href: string; back: string; title: string }) {
  return (
    <>
      <p class="crumbs">
        <Link href={href}>{`← ${back}`}</Link>
      </p>
      <h1>{title}</h1>
    </>
  );
}

/** A screen only owners may use, as a member sees it: its heading, and why there is nothing more. */
export function OwnersOnlyScreen({ title, children }: { title: string; children: ComponentChildren }) {
  return (
    <>
      <h1>{title}</h1>
      {children}
    </>
  );
}

/**
 * A screen only owners may use (the API refuses anyone else too): `screen()` for an owner; for anyone
 * else `title` and `notice`, and no call is made.
 */
export function OwnersOnly({
  owner,
  title,
  notice,
  screen,
}: {
  owner: boolean;
  title: string;
  notice: ComponentChildren;
  screen: () => ComponentChildren;
}) {
  return owner ? screen() : <OwnersOnlyScreen title={title}>{notice}</OwnersOnlyScreen>;
}

/** An owners-only route (OwnersOnly) whose screen reads the org and the route's id; `Notice` says why not. */
export function forOwners(
  title: string,
  Notice: ComponentType,
  Screen: ComponentType<{ org: OrganizationOfCaller; id: string }>,
) {
  return function OwnersOnlyRoute({ org, id }: OrgScreenProps) {
    return (
      <OwnersOnly
        owner={canWrite(org)}
        title={title}
        notice={<Notice />}
        screen={() => <Screen org={org} id={id ?? ''} />}
      />
    );
  };
}
