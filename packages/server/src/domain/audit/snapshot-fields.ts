import { isoTimeOrNull } from '../iso-time.js';

/** The keys of `T` whose values are times in milliseconds since the epoch (null: not yet, or never). */
type TimeKey<T> = { [K in keyof T]-?: T[K] extends number | null ? K : never }[keyof T];

/** The named times as ISO text; a time that may be null stays null when it is. */
type IsoTimes<T, K extends keyof T> = { [P in K]: null extends T[P] ? string | null : string };

/** The named fields of a stored item as they are, in the order named: the plain part of its audit snapshot. */
export function fieldsOf<T, K extends keyof T>(item: T, keys: readonly K[]): Pick<T, K> {
  const copy = {} as Pick<T, K>;
  for (const key of keys) copy[key] = item[key];
  return copy;
}

/** The named times of a stored item as ISO text (isoTime), null as null, in the order named. */
export function isoTimesOf<T, K extends TimeKey<T>>(item: T, keys: readonly K[]): IsoTimes<T, K> {
  const copy: Record<PropertyKey, string | null> = {};
  for (const key of keys) {
    const ms = item[key] as number | null;
    copy[key] = isoTimeOrNull(ms);
  }
  return copy as IsoTimes<T, K>;
}
