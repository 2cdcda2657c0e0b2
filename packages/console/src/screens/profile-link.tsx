import { useState } from 'preact/hooks';
import { api, body } from '../api/client.js';

/**
 * "Your profile": the hosted profile page of the console user. POST /profile/session trades the
 * access token for a single-use key, so the token itself never travels in an address.
 */
export function OpenProfile() {
  const [failed, setFailed] = useState(false);
  return (
    <button
      type="button"
      class="secondary"
      title={failed ? 'The profile page could not be opened; try again.' : undefined}
      onClick={async () => {
        try {
          const data = await body(api.POST('/profile/session'));
          location.assign(`/profile?key=${encodeURIComponent(data.key)}`);
        } catch {
          setFailed(true);
        }
      }}
    >
      Your profile
    </button>
  );
}
