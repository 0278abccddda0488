import { describe, expect, it } from 'vitest';

import { findRefs } from './entities.js';

const refs = (text: string) => findRefs(text).map((ref) => [ref.kind, ref.name]);

describe('findRefs', () => {
  it('finds URLs without trailing punctuation', () => {
    expect(refs('See https://example.com/a?b=1, then www.example.org.')).toEqual([
      ['url', 'https://example.com/a?b=1'],
      ['url', 'www.example.org'],
    ]);
  });

  it('reads repository URLs as repositories, and deeper links also as URLs', () => {
    expect(refs('https://github.com/acme/atlas and https://github.com/acme/atlas/pull/7')).toEqual([
      ['repo', 'acme/atlas'],
      ['repo', 'acme/atlas'],
      ['url', 'https://github.com/acme/atlas/pull/7'],
    ]);
    expect(refs('clone github.com/acme/atlas.git')).toEqual([['repo', 'acme/atlas']]);
  });

  it('reads owner/name as a repository only where the sentence talks about repositories', () => {
    expect(refs('clone the repo zhuangbiaowei/smart_rag.')).toEqual([['repo', 'zhuangbiaowei/smart_rag']]);
    expect(refs('client/server and/or input/output')).toEqual([]);
  });

  it('finds file paths, relative, absolute and bare', () => {
    expect(refs('Edit docs/x.md, ./src/a.ts, ~/notes/todo.txt, /etc/hosts and README.md.')).toEqual([
      ['file', 'docs/x.md'],
      ['file', 'src/a.ts'],
      ['file', '~/notes/todo.txt'],
      ['file', '/etc/hosts'],
      ['file', 'README.md'],
    ]);
    expect(refs('参考docs/设计.md。')).toEqual([['file', 'docs/设计.md']]);
  });

  it('leaves library names, versions and abbreviations alone', () => {
    expect(refs('Node.js and Vue.js are fine, e.g. v1.2 or 3.14.')).toEqual([]);
  });
});
