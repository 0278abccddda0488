// The PostgreSQL server the tests use: ENGRAM_TEST_POSTGRES, or the CI machine's local server.

export const POSTGRES_URL = process.env['ENGRAM_TEST_POSTGRES'] ?? 'postgres://postgres@127.0.0.1:5432/test';
