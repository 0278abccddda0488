import { describe, expect, it } from 'vitest';

import { ConflictError, EngramError, NotFoundError, StorageError, ValidationError } from '../index.js';
import { bearerOf, isLoopback } from './auth.js';
import { HttpError } from './http-error.js';
import { PROBLEM_STATUS, problemOf } from './problem.js';
import { assertOwnTenant, bindTenant } from './tenancy.js';

describe('problemOf', () => {
  it('maps library errors by code, with field and issues', () => {
    expect(problemOf(ValidationError.of('scope.user_id', 'required', 'is required'), 'r1')).toEqual({
      type: 'urn:engram:problem:validation-failed',
      title: expect.any(String),
      status: 400,
      code: 'VALIDATION_FAILED',
      field: 'scope.user_id',
      detail: 'scope.user_id: is required [rule: required]',
      issues: [{ field: 'scope.user_id', rule: 'required', message: 'is required' }],
      request_id: 'r1',
    });
    expect(problemOf(new NotFoundError('event_id', 'evt_x'), 'r').status).toBe(404);
    expect(problemOf(ConflictError.ofVersion('expected_version', 1, 2, 'caller'), 'r')).toMatchObject({
      status: 409,
      retryable: false,
    });
    expect(
      problemOf(new ConflictError('item_id: raced', { field: 'item_id', origin: 'concurrent' }), 'r'),
    ).toMatchObject({ status: 409, code: 'STATE_VERSION_CONFLICT', retryable: true });
    expect(problemOf(new EngramError('DUPLICATE_TURN', 'dup'), 'r')).not.toHaveProperty('retryable');
    expect(problemOf(new EngramError('RUN_STOPPED', 'stopped', { field: 'scope.run_id' }), 'r')).toMatchObject({
      status: 409,
      field: 'scope.run_id',
    });
    expect(problemOf(new EngramError('DUPLICATE_TURN', 'dup'), 'r').status).toBe(409);
    expect(problemOf(new EngramError('CONFIG_INVALID', 'closed'), 'r').status).toBe(400);
  });

  it('hides the message of server faults and of anything unexpected', () => {
    const storage = problemOf(new StorageError('SQLITE_IOERR at /var/lib/engram.db'), 'r9');
    expect(storage).toMatchObject({ status: 503, code: 'STORAGE_FAILED', field: null });
    expect(storage.detail).not.toContain('SQLITE');
    expect(storage.detail).toContain('r9');
    const unexpected = problemOf(new TypeError("Cannot read properties of undefined (reading 'meta')"), 'r');
    expect(unexpected).toMatchObject({ status: 500, code: 'INTERNAL' });
    expect(unexpected.detail).not.toContain('meta');
    expect(problemOf(new EngramError('SCHEMA_VIOLATION', 'packet broke'), 'r').status).toBe(500);
  });

  it("maps the server's own errors and Fastify's", () => {
    expect(problemOf(new HttpError('RATE_LIMITED', 'slow down'), 'r')).toMatchObject({
      status: 429,
      code: 'RATE_LIMITED',
      detail: 'slow down',
    });
    expect(
      problemOf(
        Object.assign(new Error('Request body is too large'), { code: 'FST_ERR_CTP_BODY_TOO_LARGE', statusCode: 413 }),
        'r',
      ).code,
    ).toBe('PAYLOAD_TOO_LARGE');
    expect(
      problemOf(
        Object.assign(new Error('bad length'), { code: 'FST_ERR_CTP_INVALID_CONTENT_LENGTH', statusCode: 400 }),
        'r',
      ).code,
    ).toBe('BAD_REQUEST');
    expect(Object.values(PROBLEM_STATUS).every((status) => status >= 400 && status < 600)).toBe(true);
  });
});

describe('auth and tenancy helpers', () => {
  it('isLoopback and bearerOf', () => {
    expect(['127.0.0.1', '127.1.2.3', '::1', '[::1]', 'localhost', '::ffff:127.0.0.1'].every(isLoopback)).toBe(true);
    expect(['0.0.0.0', '::', '10.0.0.1', 'example.com', '', undefined].some((host) => isLoopback(host))).toBe(false);
    expect(bearerOf('Bearer egk_abc')).toBe('egk_abc');
    expect(bearerOf('bearer   egk_abc ')).toBe('egk_abc');
    expect(bearerOf('Basic egk_abc')).toBeNull();
    expect(bearerOf(undefined)).toBeNull();
  });

  it('bindTenant sets the key’s tenant; another tenant is FORBIDDEN, a non-string one VALIDATION_FAILED', () => {
    expect(bindTenant({ scope: { user_id: 'u' }, query: 'q' }, 'acme')).toEqual({
      scope: { user_id: 'u', tenant_id: 'acme' },
      query: 'q',
    });
    expect(bindTenant({ candidate_id: 'c', tenant_id: 'acme' }, 'acme', { top: true })).toEqual({
      candidate_id: 'c',
      tenant_id: 'acme',
    });
    expect(() => bindTenant({ scope: { user_id: 'u', tenant_id: 'other' } }, 'acme')).toThrow(
      expect.objectContaining({ code: 'FORBIDDEN', field: 'scope.tenant_id' }),
    );
    expect(() => bindTenant({ tenant_id: 'other' }, 'acme')).toThrow(
      expect.objectContaining({ code: 'FORBIDDEN', field: 'tenant_id' }),
    );
    expect(() => assertOwnTenant(7, 'acme', 'tenant_id')).toThrow(
      expect.objectContaining({ code: 'VALIDATION_FAILED' }),
    );
    expect(bindTenant('not an object', 'acme')).toBe('not an object');
  });
});
