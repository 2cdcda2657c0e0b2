import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { OrganizationOfCaller } from './api/types.js';

/** The orgs the signed-in person belongs to, and a way to read them again after a change. */
export interface Orgs {
  list: OrganizationOfCaller[];
  reload: () => Promise<void>;
}

export const OrgsContext = createContext<Orgs>({ list: [], reload: async () => {} });

export const useOrgs = () => useContext(OrgsContext);

/** What every org screen gets: the org as the caller sees it (its role decides what they may change). */
export interface OrgScreenProps {
  org: OrganizationOfCaller;
  /** The path parameter after the section (`/clients/{id}`), where the route has one. */
  id?: string;
}

export const canWrite = (org: OrganizationOfCaller) => org.role === 'owner';
