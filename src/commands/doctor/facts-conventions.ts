import { DoctorArea, notReadOnly } from './fact';

/**
 * The conventions of every answer (api-notes "Conventions"): error statuses and
 * retries. Only an error answer shows them, and the doctor sends nothing the API would
 * refuse, so it reads nothing here: each assumption is recorded with that reason.
 */
export const CONVENTIONS: DoctorArea<undefined> = {
  read: async () => undefined,
  facts: [
    notReadOnly('postRejectedWithoutEffect', 'a 429 answer means the API did nothing, so even a write may be sent again',
      'only a 429 answer to a write shows it (and then only whether the write took effect)'),
    notReadOnly('isDuplicateError', 'creating an object (or a name) that already exists is answered 409',
      'only the answer to a write (a create of something that exists) shows it'),
    notReadOnly('isValidationError', 'a request the API finds invalid is answered 400',
      'only the answer to an invalid request shows it'),
  ],
};
