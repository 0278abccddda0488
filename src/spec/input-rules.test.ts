import { describe, expect, it } from 'vitest';

import { depthIssues, inputIssues, textIssue } from './input-rules.js';
import { validateCommitTurnRequest } from './validators.js';

const scope = { user_id: 'u', agent_id: 'a', session_id: 's', run_id: 'r' };

describe('the input rules', () => {
  it('refuse lone surrogates in values, list entries and property names, naming each place', () => {
    const value = {
      scope: { user_id: 'x\ud800' },
      tags: ['ok', '\udfff'],
      metadata: { ['k\udbff']: 1, fine: 'a\ud83d\ude00b' },
    };
    expect(inputIssues(value)).toEqual([
      {
        field: 'scope.user_id',
        rule: 'well_formed',
        message: 'must be well-formed Unicode: a lone surrogate U+D800 at character 2',
      },
      {
        field: 'tags[1]',
        rule: 'well_formed',
        message: 'must be well-formed Unicode: a lone surrogate U+DFFF at character 1',
      },
      {
        field: 'metadata.k\\udbff',
        rule: 'well_formed',
        message: 'is a property name that must be well-formed Unicode: a lone surrogate U+DBFF at character 2',
      },
    ]);
  });

  it('refuse U+0000 anywhere, keys included, and accept every other code point (pairs, controls, noncharacters)', () => {
    expect(inputIssues({ content: 'a\u0000b' })).toEqual([
      { field: 'content', rule: 'no_nul', message: 'must be free of U+0000: found at character 2' },
    ]);
    expect(inputIssues({ metadata: { ['\u0000']: 'x' } })[0]).toMatchObject({
      field: 'metadata.\\u0000',
      rule: 'no_nul',
    });
    expect(inputIssues('top\u0000')[0]).toMatchObject({ field: '', rule: 'no_nul' });
    expect(
      inputIssues({ text: '\u0001\u001f\u007f\ufffe\uffff\u{10ffff}😀中文\u200f', list: [[], {}, 1, null, true] }),
    ).toEqual([]);
  });

  it('report depth alone when the value nests too deep, and stop walking there', () => {
    let deep: Record<string, unknown> = { leaf: 'x\ud800' };
    for (let level = 0; level < 100; level += 1) deep = { nested: deep };
    const issues = inputIssues({ metadata: deep });
    expect(issues).toEqual([{ field: 'metadata.nested', rule: 'max_depth', message: 'nests deeper than 64 levels' }]);
    expect(depthIssues({ a: 'x\ud800' })).toEqual([]);
  });

  it('check one string: textIssue names the field given', () => {
    expect(textIssue('fine', 'label')).toBeUndefined();
    expect(textIssue('\ud800', 'label')).toMatchObject({ field: 'label', rule: 'well_formed' });
  });

  it('come before the schema: a request with a lone surrogate in an id fails on it, naming the field', () => {
    expect(() =>
      validateCommitTurnRequest({ scope: { ...scope, user_id: 'u\ud800' }, turn_id: 't', markers: ['ACT_DONE'] }),
    ).toThrow(expect.objectContaining({ code: 'VALIDATION_FAILED', field: 'scope.user_id', rule: 'well_formed' }));
  });
});
