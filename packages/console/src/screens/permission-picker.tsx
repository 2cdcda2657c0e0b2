import { useId } from 'preact/hooks';
import type { ApiResource, Permission } from '../api/types.js';
import { CheckboxField } from '../components/fields.js';
import { Link } from '../components/link.js';
import { orgHref } from '../router.js';

/** One permission as a key: an identifier has no fragment, so `#` cannot occur in it. */
export const permissionKey = (p: Permission) => `${p.resource}#${p.scope}`;

const has = (value: readonly Permission[], p: Permission) =>
  value.some((v) => v.resource === p.resource && v.scope === p.scope);

/** Permissions in the order of the resources and their scopes, each once; unknown ones last. */
export function ordered(value: readonly Permission[], resources: readonly ApiResource[]): Permission[] {
  const known = resources.flatMap((r) =>
    r.scopes.map((s) => ({ resource: r.identifier, scope: s.name })).filter((p) => has(value, p)),
  );
  const unknown = value.filter((p) => !has(known, p));
  return [...known, ...unknown.filter((p, i) => unknown.findIndex((q) => has([q], p)) === i)];
}

/** The same set of permissions, in any order. */
export const samePermissions = (a: readonly Permission[], b: readonly Permission[]) =>
  a.length === b.length && a.every((p) => has(b, p)) && b.every((p) => has(a, p));

/**
 * The permission picker: a group for each of the org's resources with a checkbox for each of its
 * scopes (the description read out with it). A permission naming a scope or resource that is gone
 * shows apart, checked, so it can be taken away.
 */
export function PermissionPicker({
  slug,
  resources,
  value,
  onChange,
  legend,
  hint,
}: {
  slug: string;
  resources: readonly ApiResource[];
  value: readonly Permission[];
  onChange: (value: Permission[]) => void;
  legend: string;
  hint: string;
}) {
  const id = useId();
  const toggle = (p: Permission, on: boolean) =>
    onChange(ordered(on ? [...value, p] : value.filter((v) => !has([p], v)), resources));
  const gone = value.filter(
    (p) => !resources.some((r) => r.identifier === p.resource && r.scopes.some((s) => s.name === p.scope)),
  );
  return (
    <fieldset class="permissions" aria-describedby={`${id}-hint`}>
      <legend>{legend}</legend>
      <p id={`${id}-hint`} class="hint permissions-hint">
        {hint}
      </p>
      {resources.length === 0 ? (
        <p class="muted">
          This organization has no API resources yet, so there is nothing to grant:{' '}
          <Link href={orgHref(slug, 'resources', 'new')}>create a resource</Link> and its scopes first.
        </p>
      ) : null}
      {resources.map((r) => (
        <fieldset key={r.id} class="permission-group">
          <legend>
            {r.name}
            <span class="visually-hidden"> ({r.identifier})</span>
          </legend>
          <p class="hint permission-resource">
            <code>{r.identifier}</code>
          </p>
          {r.scopes.length === 0 ? <p class="muted">It has no scopes.</p> : null}
          {r.scopes.map((s) => {
            const p = { resource: r.identifier, scope: s.name };
            return (
              <CheckboxField
                key={s.name}
                label={s.name}
                hint={s.description}
                checked={has(value, p)}
                onChange={(on) => toggle(p, on)}
              />
            );
          })}
        </fieldset>
      ))}
      {gone.length > 0 ? (
        <fieldset class="permission-group">
          <legend>No longer defined</legend>
          <p class="hint">These scopes are not among the resources any more: uncheck them to drop them.</p>
          {gone.map((p) => (
            <CheckboxField
              key={permissionKey(p)}
              label={`${p.scope} on ${p.resource}`}
              checked
              onChange={(on) => toggle(p, on)}
            />
          ))}
        </fieldset>
      ) : null}
    </fieldset>
  );
}

/** Permissions as text, grouped by resource: `files:read, files:write` under each identifier. */
export function PermissionList({
  permissions,
  resources,
}: {
  permissions: readonly Permission[];
  resources?: readonly ApiResource[];
}) {
  if (permissions.length === 0) return <span class="muted">None</span>;
  const groups = new Map<string, string[]>();
  for (const p of permissions) groups.set(p.resource, [...(groups.get(p.resource) ?? []), p.scope]);
  const nameOf = (identifier: string) => resources?.find((r) => r.identifier === identifier)?.name;
  return (
    <ul class="permission-list">
      {[...groups].map(([resource, scopes]) => (
        <li key={resource}>
          {scopes.map((scope, i) => (
            <span key={scope}>
              {i > 0 ? ', ' : null}
              <code>{scope}</code>
            </span>
          ))}{' '}
          <span class="muted">on {nameOf(resource) ?? <code>{resource}</code>}</span>
        </li>
      ))}
    </ul>
  );
}
