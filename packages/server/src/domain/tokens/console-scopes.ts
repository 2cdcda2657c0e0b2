/** The scopes a console token may carry for the management API, each naming what it lets a client do. */
export type ManagementScope = 'org:read' | 'events:read' | 'org:write' | 'users:impersonate';
