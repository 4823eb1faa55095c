// web/playground/ui-state.mjs: the query-string settings an embedder gives (?embed, ?view,
// ?step, ?handles, ?panels) and mergeUi. Expected patches are written out by hand.
import { describe, expect, it } from 'vitest';
import { MAX_QUERY_CHARS, defaultUi, mergeUi, uiFromQuery } from '../../web/playground/ui-state.mjs';

describe('uiFromQuery', () => {
  it('reads each setting', () => {
    expect(uiFromQuery('?embed')).toEqual({ patch: { embed: true }, problems: [] });
    expect(uiFromQuery('embed=1').patch).toEqual({ embed: true });
    expect(uiFromQuery('?embed=true').patch).toEqual({ embed: true });
    expect(uiFromQuery('?embed=0').patch).toEqual({ embed: false });
    expect(uiFromQuery('?embed=false').patch).toEqual({ embed: false });
    expect(uiFromQuery('?view=top&step=12&handles=locked').patch).toEqual({ view: 'top', step: 12, handles: 'locked' });
    expect(uiFromQuery('?view=3d&step=0&handles=free').patch).toEqual({ view: '3d', step: 0, handles: 'free' });
    expect(uiFromQuery('?panels=hits,tutorial').patch).toEqual({ panels: { toolbar: false, hits: true, tutorial: true } });
    expect(uiFromQuery('?panels=').patch).toEqual({ panels: { toolbar: false, hits: false, tutorial: false } });
    expect(uiFromQuery('?panels=toolbar%2C%20hits').patch).toEqual({ panels: { toolbar: true, hits: true, tutorial: false } });
    expect(uiFromQuery('?step=64').patch).toEqual({ step: 64 });
  });

  it('ignores what is not ours, and an empty query', () => {
    for (const q of ['', '?', '?utm_source=x&ref=y', undefined, null, 42]) {
      expect(uiFromQuery(q)).toEqual({ patch: {}, problems: [] });
    }
  });

  it('names every setting it cannot read and leaves it out', () => {
    const { patch, problems } = uiFromQuery('?embed=yes&view=iso&step=65&handles=frozen&panels=hits,chart');
    expect(patch).toEqual({});
    expect(problems).toEqual([
      '?embed="yes" is not understood (use ?embed, ?embed=1 or ?embed=0)',
      '?view="iso" is not a view (use 3d, top, front, side)',
      '?step="65" is not a step number from 0 to 64',
      '?handles="frozen" is not understood (use locked or free)',
      '?panels names "chart", which is not a panel (use toolbar, hits, tutorial)',
    ]);
    for (const step of ['-1', '1.5', '1e1', ' 3', '0x3', '0001']) {
      expect(uiFromQuery(`?step=${encodeURIComponent(step)}`).patch, step).toEqual({});
    }
    expect(uiFromQuery('?view=top&view=side')).toEqual({ patch: { view: 'side' }, problems: ['?view is given 2 times; the last one counts'] });
    expect(uiFromQuery(`?view=${'x'.repeat(100)}`).problems[0]).toBe(`?view="${'x'.repeat(40)}..." is not a view (use 3d, top, front, side)`);
  });

  it('refuses a huge query string at once', () => {
    const r = uiFromQuery(`?embed&x=${'a'.repeat(MAX_QUERY_CHARS)}`);
    expect(r.patch).toEqual({});
    expect(r.problems[0]).toMatch(/too long \(\d+ characters; the limit is 2048\)/);
  });
});

describe('mergeUi', () => {
  it('merges panels key by key and replaces the rest', () => {
    const ui = { ...defaultUi(), camera: { position: [1, 2, 3], target: [0, 0, 0], zoom: 1 } };
    expect(mergeUi(ui, { panels: { hits: false }, step: 4 })).toEqual({
      view: '3d', step: 4, handles: 'free', panels: { toolbar: true, hits: false, tutorial: true },
      camera: { position: [1, 2, 3], target: [0, 0, 0], zoom: 1 }, embed: false,
    });
    expect(mergeUi(ui, { camera: null }).camera).toBeNull();
    expect(ui.step).toBe(0); // the input is not changed
  });

  it('throws for a result that is not valid', () => {
    expect(() => mergeUi(defaultUi(), { step: -1 })).toThrow('step must be an integer from 0 to 64, got -1');
    expect(() => mergeUi(defaultUi(), { panels: { hits: 'yes' } })).toThrow('panels.hits must be true or false');
  });
});
