import { z } from 'zod';

const LENGTH = 'must be 1-200 characters';

/** A name of 1 to 200 characters once trimmed. */
const trimmedName = () => z.string().trim().min(1, LENGTH).max(200, LENGTH);

/** A name the owners give a thing, `description` saying where it shows: 1-200 characters once trimmed. */
export const givenName = (description: string) => trimmedName().meta({ description });

/** A given name that is also refused with a control character in it (a client's, a service account's). */
export const printableName = (description: string) =>
  trimmedName()
    // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
    .refine((v) => !/[\u0000-\u001f\u007f]/.test(v), 'must not contain control characters')
    .meta({ description });
