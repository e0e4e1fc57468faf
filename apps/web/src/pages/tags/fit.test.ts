import { describe, expect, it } from 'vitest';
import { misfit, misfitOfAll } from './fit';

describe('which templates a tag can show', () => {
  const bwr250 = { width: 250, length: 122, colourType: 'bwr' as const };
  it('needs the panel size of the model', () => {
    expect(misfit(bwr250, { model: '05', colour: 'bwr' })).toBeNull();
    expect(misfit(bwr250, { model: '0A', colour: 'bwr' })).toBe('size');
    expect(misfit(bwr250, { model: 'ZZ', colour: 'bwr' })).toBe('size');
  });
  it('needs every ink of the template on the panel', () => {
    expect(misfit(bwr250, { model: '05', colour: 'bwy' })).toBe('colours');
    expect(misfit({ ...bwr250, colourType: 'bw' }, { model: '05', colour: 'bwy' })).toBeNull();
  });
  it('answers the size before the colours for a mixed selection', () => {
    const tags = [
      { model: '05', colour: 'bwy' as const },
      { model: '0A', colour: 'bwr' as const },
    ];
    expect(misfitOfAll(bwr250, tags)).toBe('size');
    expect(misfitOfAll(bwr250, tags.slice(0, 1))).toBe('colours');
    expect(misfitOfAll(bwr250, [])).toBeNull();
  });
});
