import { describe, expect, it } from 'vitest';

import { lazyForm } from './packet-builder.js';

describe('lazyForm', () => {
  it('builds its value on the first read only, and gives the same value after', () => {
    let made = 0;
    const form = lazyForm('summary', () => {
      made += 1;
      return { text: `cut ${made}` };
    });
    expect(form.level).toBe('summary');
    expect(made).toBe(0);
    const first = form.value;
    expect(first).toEqual({ text: 'cut 1' });
    expect(form.value).toBe(first);
    expect(made).toBe(1);
  });

  it('keeps a value that is undefined without building it again', () => {
    let made = 0;
    const form = lazyForm<string | undefined>('quote', () => {
      made += 1;
      return made === 1 ? undefined : 'again';
    });
    expect(form.value).toBeUndefined();
    expect(form.value).toBeUndefined();
    expect(made).toBe(1);
  });
});
