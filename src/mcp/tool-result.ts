// The one place MCP turns outcomes into tool results: a success carries `structuredContent` and a
// short text; a failure the model can act on (bad arguments, a conflict, a missing record, a key
// that may not do this) is an `isError` result whose text names the code, the field and the rule.

import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

import { EngramError, type EngramErrorCode, type ValidationIssue } from '../index.js';

/**
 * Error codes of MCP results: the library's, plus FORBIDDEN for what the caller's key may not do
 * and UNAUTHENTICATED for a key revoked while the server runs.
 */
export type McpErrorCode = EngramErrorCode | 'FORBIDDEN' | 'UNAUTHENTICATED';

/** A failure as the model sees it. */
export interface ToolFailure {
  code: McpErrorCode;
  field: string | null;
  message: string;
  /** Every broken rule, for VALIDATION_FAILED. */
  issues?: ValidationIssue[];
}

/** The `_meta` key under which an error result carries its failure as data. */
export const ERROR_META_KEY = 'engram/error';

/**
 * A failure for something the caller's key may not do.
 *
 * @example
 * forbidden('scope.tenant_id', 'this key belongs to tenant "acme"')
 */
export function forbidden(field: string | null, message: string): ToolFailure {
  return { code: 'FORBIDDEN', field, message };
}

/**
 * A failure for arguments the MCP layer itself checks (the library checks the rest).
 *
 * @example
 * invalid('render', 'enum', 'must be one of ["markdown","xml"]')
 */
export function invalid(field: string, rule: string, message: string): ToolFailure {
  return {
    code: 'VALIDATION_FAILED',
    field,
    message: `${field}: ${message} [rule: ${rule}]`,
    issues: [{ field, rule, message }],
  };
}

/**
 * The failure an EngramError stands for; null for anything else (a fault, not the model's to fix).
 *
 * @example
 * failureOf(new NotFoundError('candidate_id', 'cand_…'))?.code // 'NOT_FOUND'
 */
export function failureOf(error: unknown): ToolFailure | null {
  if (!EngramError.isInstance(error)) return null;
  const issues = error.details['issues'];
  return {
    code: error.code,
    field: error.field ?? null,
    message: error.message,
    ...(Array.isArray(issues) && issues.length > 0 ? { issues: issues as ValidationIssue[] } : {}),
  };
}

/**
 * An `isError` result. The failure is in the text (what the model reads) and, as data, in
 * `_meta["engram/error"]`: not in `structuredContent`, which clients validate against the tool's
 * output schema even on errors (SDK 1.x `Client.callTool`) and would reject.
 *
 * @example
 * errorResult(forbidden(null, 'this key can only read'))
 */
export function errorResult(failure: ToolFailure): CallToolResult {
  const head = `${failure.code}${failure.field === null || failure.field === '' ? '' : ` (field: ${failure.field})`}: ${failure.message}`;
  const more = (failure.issues ?? [])
    .slice(1)
    .map((issue) => `- ${issue.field || '(request)'}: ${issue.message} [rule: ${issue.rule}]`);
  const text = more.length === 0 ? head : `${head}\nAlso:\n${more.join('\n')}`;
  return { isError: true, content: [{ type: 'text', text }], _meta: { [ERROR_META_KEY]: failure } };
}

/**
 * A success: the structured result and a short text for clients that show only text.
 *
 * @example
 * successResult({ hits: [] }, 'No memory matches "tone".')
 */
export function successResult(structured: Record<string, unknown>, text: string): CallToolResult {
  return { content: [{ type: 'text', text }], structuredContent: structured };
}
