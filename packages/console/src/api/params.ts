/*
 * The path parameters of the management API's calls about an organization, the same for every kind of
 * its things: `api.GET('/organizations/{org}/roles/{id}', oneIn(slug, id))`, or spread beside a body.
 */

/** A call about the org itself or one of its lists (`/organizations/{org}/…`). */
export const inOrg = (org: string) => ({ params: { path: { org } } });

/** A call about one of the org's things (`/organizations/{org}/…/{id}`). */
export const oneIn = (org: string, id: string) => ({ params: { path: { org, id } } });
