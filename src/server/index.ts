// Engram as an HTTP service: createServer and listen, the options, and the error shapes clients see.

export { ALL_ROUTES, API_ROUTES, createServer, listen, type ServerOptions } from './server.js';
export { HttpError, type ServerErrorCode } from './http-error.js';
export { PROBLEM_STATUS, problemOf, type ProblemCode, type ProblemDocument } from './problem.js';
export { openApiDocument, type OpenApiDocument } from './openapi.js';
export type { AuthMode } from './auth.js';
