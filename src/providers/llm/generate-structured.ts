// The one wrapper callers use to ask a StructuredModel for an object: validate the answer, retry once
// with a note on what was wrong, and report a second bad answer as a failure value instead of an
// exception, so bad model output never reaches memory. Transport errors still throw (typed).

import type { ValidationIssue } from '../../spec/errors.js';
import type { StructuredFailure, StructuredModel, StructuredRequest, StructuredResult } from '../../spec/providers.js';

export type { StructuredFailure, StructuredRequest, StructuredResult } from '../../spec/providers.js';

const MAX_ATTEMPTS = 2;
const MAX_RAW_CHARS = 2_000;
const MAX_ISSUES_IN_NOTE = 5;
const NOT_JSON: ValidationIssue[] = [{ field: '', rule: 'json', message: 'the answer was not a JSON object' }];

/**
 * Asks `model` for an object and validates it; an invalid answer is retried once with the same
 * input plus a short note of what was wrong. Never throws for bad output, only for transport faults.
 *
 * @example
 * const result = await generateStructured(model, { system, prompt, schema, schemaName: 'items', validate });
 * if (result.ok) use(result.object); else record(result.failure);
 */
export async function generateStructured(
  model: StructuredModel,
  request: StructuredRequest,
): Promise<StructuredResult> {
  let prompt = request.prompt;
  let failure: StructuredFailure | undefined;
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
    const answer = await model.doGenerateObject({
      system: request.system,
      prompt,
      schema: request.schema,
      schemaName: request.schemaName,
      ...(request.strict === undefined ? {} : { strict: request.strict }),
      ...(request.signal === undefined ? {} : { signal: request.signal }),
    });
    const notJson = answer.object === undefined;
    const issues = notJson ? NOT_JSON : request.validate(answer.object);
    if (issues.length === 0) return { ok: true, object: answer.object, attempts: attempt };
    failure = {
      reason: notJson ? 'not_json' : 'invalid',
      attempts: attempt,
      raw: truncate(answer.raw, MAX_RAW_CHARS),
      issues,
    };
    prompt = `${request.prompt}\n\n${retryNote(issues)}`;
  }
  return { ok: false, failure: failure! };
}

/** The note appended to the prompt of the retry: what was wrong, briefly. */
function retryNote(issues: readonly ValidationIssue[]): string {
  const listed = issues
    .slice(0, MAX_ISSUES_IN_NOTE)
    .map((issue) => `- ${issue.field === '' ? 'answer' : issue.field}: ${issue.message}`);
  const more = issues.length > MAX_ISSUES_IN_NOTE ? [`- and ${issues.length - MAX_ISSUES_IN_NOTE} more`] : [];
  return [
    'Your previous answer to this request could not be used:',
    ...listed,
    ...more,
    'Answer again with one JSON object that follows the schema, and nothing else.',
  ].join('\n');
}

function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  // Do not cut a surrogate pair in half.
  const last = text.charCodeAt(max - 1);
  const end = last >= 0xd800 && last <= 0xdbff ? max - 1 : max;
  return text.slice(0, end);
}
