import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';

import { rebindingAllowList } from './host-check.js';

function request(bound: string, port: number, headers: Record<string, string>): FastifyRequest {
  return {
    server: { server: { address: () => ({ address: bound, port, family: 'IPv4' }) } },
    raw: { socket: { localPort: port } },
    headers,
  } as unknown as FastifyRequest;
}

describe('rebindingAllowList', () => {
  it("lists the loopback names on the server's port, and the allowed names bare and on that port", () => {
    expect(
      rebindingAllowList(request('127.0.0.1', 8787, { host: '127.0.0.1:8787' }), { auth: 'keys', allowedHosts: [] }),
    ).toEqual({
      allowedHosts: ['127.0.0.1:8787', 'localhost:8787', '[::1]:8787'],
      allowedOrigins: ['http://127.0.0.1:8787', 'http://localhost:8787', 'http://[::1]:8787'],
    });
    const named = rebindingAllowList(
      request('0.0.0.0', 80, { host: 'engram.example:8443', origin: 'https://engram.example:8443' }),
      { auth: 'keys', allowedHosts: ['engram.example'] },
    );
    expect(named?.allowedHosts).toEqual([
      '127.0.0.1',
      '127.0.0.1:80',
      'localhost',
      'localhost:80',
      '[::1]',
      '[::1]:80',
      'engram.example',
      'engram.example:80',
      'engram.example:8443',
    ]);
    expect(named?.allowedOrigins).toContain('https://engram.example');
    expect(named?.allowedOrigins).toContain('https://engram.example:8443');
    expect(named?.allowedOrigins).not.toContain('http://attacker.example');
  });

  it('is null where the server checks nothing: keys, every interface, no allowed names', () => {
    expect(
      rebindingAllowList(request('0.0.0.0', 8787, { host: 'anything' }), { auth: 'keys', allowedHosts: [] }),
    ).toBeNull();
    expect(
      rebindingAllowList(request('127.0.0.1', 8787, { host: 'attacker.example' }), { auth: 'none', allowedHosts: [] })
        ?.allowedHosts,
    ).not.toContain('attacker.example');
  });
});
