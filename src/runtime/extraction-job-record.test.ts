import { describe, expect, it } from 'vitest';

import type { ExtractionEvent } from '../spec/items.js';
import { extractionJob, extractionPayload } from './extraction-job-record.js';

const scope = { tenant_id: 't1', user_id: 'mira', agent_id: 'assistant', session_id: 's1', run_id: 'r1' };
const ts = '2026-06-01T12:00:00.000Z';
const shown: ExtractionEvent[] = [
  { event_id: 'evt_01J00000000000000000000001', kind: 'message', role: 'user', text: 'I live in Berlin.', ts },
  { event_id: 'evt_01J00000000000000000000002', kind: 'message', role: 'assistant', text: 'Noted.', ts },
];

describe('extraction jobs', () => {
  it('names the turn by its first event and keeps what the job reads in its payload', () => {
    const job = extractionJob(scope, 't3', shown, ts);
    expect(job).toMatchObject({
      tenant_id: 't1',
      id: 'extract:evt_01J00000000000000000000001',
      kind: 'extract',
      status: 'pending',
      attempts: 0,
      created_at: ts,
    });
    expect(extractionPayload(job)).toEqual({
      scope: { user_id: 'mira', agent_id: 'assistant', session_id: 's1', run_id: 'r1' },
      turn_id: 't3',
      event_ids: shown.map((event) => event.event_id),
      recorded_at: ts,
    });
  });

  it('refuses a payload that is not one, naming the field', () => {
    const job = extractionJob(scope, null, shown, ts);
    const broken = (payload: Record<string, unknown>) => () =>
      extractionPayload({ ...job, payload: { ...job.payload, ...payload } });
    expect(broken({ scope: { user_id: 'mira' } })).toThrow(
      expect.objectContaining({ code: 'VALIDATION_FAILED', field: 'payload.scope.agent_id' }),
    );
    expect(broken({ event_ids: [] })).toThrow(expect.objectContaining({ field: 'payload.event_ids' }));
    expect(broken({ recorded_at: 5 })).toThrow(expect.objectContaining({ field: 'payload.recorded_at' }));
    expect(broken({ turn_id: '' })).toThrow(expect.objectContaining({ field: 'payload.turn_id' }));
  });
});
