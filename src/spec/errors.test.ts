import { describe, expect, it } from 'vitest';

import { ConflictError, renameFields, ValidationError } from './errors.js';

describe('errors', () => {
  it('renameFields renames validation issues and conflicts, and leaves other errors alone', () => {
    const renamed = renameFields(ValidationError.of('scope.user_id', 'required', 'is required'), (field) => field.replace(/^scope\./, ''));
    expect(renamed).toMatchObject({ code: 'VALIDATION_FAILED', field: 'user_id', issues: [{ field: 'user_id', rule: 'required' }] });
    const conflict = renameFields(new ConflictError('state_patch.expected_version', 1, 2), (field) => field.replace(/^state_patch\./, ''));
    expect(conflict).toMatchObject({ code: 'STATE_VERSION_CONFLICT', field: 'expected_version', expected: 1, actual: 2 });
    const other = new Error('plain');
    expect(renameFields(other, () => 'x')).toBe(other);
  });

});
