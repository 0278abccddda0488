import { describe, expect, it } from 'vitest';

import { tenantOrDefault } from './arguments.js';

describe('tenantOrDefault', () => {
  it('fills in the default tenant only when none is named, and checks a named one', () => {
    expect(tenantOrDefault(undefined)).toBe('default');
    expect(tenantOrDefault('acme')).toBe('acme');
    expect(() => tenantOrDefault('')).toThrow(
      expect.objectContaining({ code: 'VALIDATION_FAILED', field: 'tenant_id' }),
    );
    expect(() => tenantOrDefault(null as never)).toThrow(
      expect.objectContaining({ code: 'VALIDATION_FAILED', field: 'tenant_id' }),
    );
  });
});
