import { describe, expect, it, vi } from 'vitest';

import { ConflictError, EngramError, NotFoundError, StorageError, ValidationError } from './errors.js';

describe('errors', () => {
  it('a conflict says whether sending the request again may succeed', () => {
    const stale = ConflictError.ofVersion('state_patch.expected_version', 3, 4, 'caller');
    expect(stale).toMatchObject({
      code: 'STATE_VERSION_CONFLICT',
      origin: 'caller',
      isRetryable: false,
      expected: 3,
      actual: 4,
    });
    expect(stale.message).toBe('state_patch.expected_version: expected version 3 but the stored version is 4');
    const raced = new ConflictError('item_id: itm_1 is superseded, not active; another writer changed it', {
      field: 'item_id',
      origin: 'concurrent',
    });
    expect(raced).toMatchObject({
      code: 'STATE_VERSION_CONFLICT',
      field: 'item_id',
      origin: 'concurrent',
      isRetryable: true,
      expected: undefined,
    });
    const record = new ConflictError('events.id: held', {
      code: 'RECORD_CONFLICT',
      field: 'events.id',
      origin: 'caller',
    });
    expect(record).toMatchObject({ code: 'RECORD_CONFLICT', isRetryable: false, name: 'ConflictError' });
  });

  it('each class recognises its own errors, also from another copy of the package, and no other class', async () => {
    vi.resetModules();
    const copy = await import('./errors.js');
    expect(copy.ConflictError).not.toBe(ConflictError);
    const errors = {
      validation: copy.ValidationError.of('turns[1].role', 'enum', 'must be one of user, assistant'),
      conflict: copy.ConflictError.ofVersion('run.version', 1, 2, 'concurrent'),
      notFound: new copy.NotFoundError('event_id', 'evt_1'),
      storage: new copy.StorageError('closed'),
    };
    expect(errors.conflict instanceof ConflictError).toBe(false);
    const classes = {
      validation: ValidationError,
      conflict: ConflictError,
      notFound: NotFoundError,
      storage: StorageError,
    };
    for (const [kind, error] of Object.entries(errors)) {
      expect(EngramError.isInstance(error)).toBe(true);
      for (const [other, errorClass] of Object.entries(classes))
        expect([kind, other, errorClass.isInstance(error)]).toEqual([kind, other, kind === other]);
    }
    expect(ConflictError.isInstance(new Error('plain'))).toBe(false);
    expect(ConflictError.isInstance(null)).toBe(false);
  });
});
