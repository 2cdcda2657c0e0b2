import type { User } from '../api/types.js';

/** Whether the user may sign in: disabled users are refused. */
export function StatusBadge({ user }: { user: User }) {
  return user.disabled ? <span class="badge bad">Disabled</span> : <span class="badge ok">Active</span>;
}

/** Members reach a users page only by its address: the API shows users to owners alone. */
export function OwnersOnly() {
  return (
    <p class="notice info">
      Only owners of this organization can see and manage its users. Ask an owner if you need a change.
    </p>
  );
}
