// web/playground/history.mjs on a real Store (web/playground/store.js) with a stand-in
// core that answers every raycast with a miss (the hits are not what is tested here).
// Expected scenes are written out by hand from defaultState()'s documented numbers.
import { describe, expect, it } from 'vitest';
import { History } from '../../web/playground/history.mjs';
import { Store } from '../../web/playground/store.js';
import { defaultState } from '../../web/playground/state.mjs';

function setup() {
  const store = new Store();
  store.attachCore({ raycast: () => ({ hit: false }) });
  const history = new History(store);
  store.setScene(defaultState(), { fit: true, fromLink: true }); // the page opening
  return { store, history };
}

const moveRay0 = (store, x, opts) => {
  const ray = { ...store.state.rays[0], origin: [x, 2, 0] };
  store.updateRay(0, ray, opts);
};

describe('History', () => {
  it('opening the page is not a step; an edit is one; undo and redo put the scenes back', () => {
    const { store, history } = setup();
    expect(history.canUndo).toBe(false);
    moveRay0(store, -5);
    expect(history.depth).toEqual([1, 0]);
    expect(history.undo()).toBe(true);
    expect(store.state.rays[0].origin).toEqual([-6, 2, 0]);
    expect(history.depth).toEqual([0, 1]);
    expect(history.redo()).toBe(true);
    expect(store.state.rays[0].origin).toEqual([-5, 2, 0]);
    expect(history.redo()).toBe(false);
  });

  it('a drag (live moves, then endEdit) is one step', () => {
    const { store, history } = setup();
    store.selectRay(1, { pending: true });
    for (let k = 1; k <= 5; k++) moveRay0(store, -6 + k / 2, { live: true });
    expect(history.depth).toEqual([0, 0]);
    store.endEdit();
    expect(history.depth).toEqual([1, 0]);
    history.undo();
    expect(store.state.rays[0].origin).toEqual([-6, 2, 0]);
  });

  it('Reset is a step that undo takes back; a new edit clears redo', () => {
    const { store, history } = setup();
    store.deleteShape(4);
    store.deleteShape(3);
    expect(store.state.shapes.length).toBe(3);
    store.setScene(defaultState(), { fit: true }); // Reset
    expect(store.state.shapes.length).toBe(5);
    history.undo();
    expect(store.state.shapes.length).toBe(3);
    history.undo();
    expect(store.state.shapes.length).toBe(4);
    history.redo();
    expect(store.state.shapes.length).toBe(3);
    moveRay0(store, 0);
    expect(history.canRedo).toBe(false);
  });

  it('selection alone and view settings are not steps', () => {
    const { store, history } = setup();
    store.selectRay(2);
    store.selectShape(3);
    store.setUi({ view: 'top' });
    expect(history.depth).toEqual([0, 0]);
    moveRay0(store, 1);
    history.undo();
    // the selection made before the edit comes back with it
    expect(store.state.selected).toEqual({ ray: 2, shape: 3 });
    expect(store.ui.view).toBe('top');
  });

  it('keeps at most 200 steps', () => {
    const { store, history } = setup();
    for (let k = 0; k < 230; k++) moveRay0(store, k);
    expect(history.depth).toEqual([200, 0]);
    while (history.undo());
    expect(store.state.rays[0].origin).toEqual([29, 2, 0]);
  });

  it('needs a store', () => {
    expect(() => new History(null)).toThrow(/needs the playground store/);
  });
});
