import { describe, expect, it } from 'vitest';

import { eventRecord } from '../testing/event-record.js';
import { analyseEvent } from './analyze.js';

describe('analyseEvent', () => {
  it("indexes the speaker's name with the words of the message, and nothing for a message without words", () => {
    expect(analyseEvent(eventRecord({ speaker: 'Caroline', content: 'I went to a support group.' })).searchText).toBe(
      'caroline i went to a support group',
    );
    expect(analyseEvent(eventRecord({ speaker: null, content: 'I went.' })).searchText).toBe('i went');
    expect(analyseEvent(eventRecord({ speaker: 'Caroline', content: '…' })).searchText).toBeNull();
  });

  it('indexes nothing of a secret event', () => {
    expect(
      analyseEvent(eventRecord({ speaker: 'Caroline', content: 'the code is 1234', sensitivity: 'secret' })).searchText,
    ).toBeNull();
  });
});
