// web/playground/store.js: the view settings (store.ui) and the setUi action. The
// expected values are the defaults documented in ui-state.mjs's header, written out here.
import { describe, expect, it } from 'vitest';
import { Store } from '../../web/playground/store.js';

function recordingStore() {
  const store = new Store();
  const changes = [];
  store.subscribe((c) => changes.push(c));
  return { store, changes };
}

describe('store.ui and setUi', () => {
  it('starts with the documented defaults', () => {
    const { store } = recordingStore();
    expect(store.ui).toEqual({
      view: '3d', step: 0, handles: 'free',
      panels: { toolbar: true, hits: true, tutorial: true }, camera: null, embed: false,
    });
  });

  it('merges a patch, keeps the other fields and notifies with ui: true', () => {
    const { store, changes } = recordingStore();
    const before = store.ui;
    store.setUi({ view: 'top', step: 3 }, { fromLink: true });
    expect(store.ui.view).toBe('top');
    expect(store.ui.step).toBe(3);
    expect(store.ui.handles).toBe('free');
    expect(before.view).toBe('3d'); // the old value was copied, not changed
    expect(changes).toEqual([{ fromLink: true, action: 'setUi', structure: false, problems: [], ui: true }]);
  });

  it('merges panels key by key and replaces the camera', () => {
    const { store } = recordingStore();
    store.setUi({ panels: { hits: false } });
    expect(store.ui.panels).toEqual({ toolbar: true, hits: false, tutorial: true });
    store.setUi({ camera: { position: [1, 2, 3], target: [0, 0, 0], zoom: 2 } });
    store.setUi({ camera: { position: [4, 5, 6], target: [1, 1, 1], zoom: 1 } });
    expect(store.ui.camera).toEqual({ position: [4, 5, 6], target: [1, 1, 1], zoom: 1 });
    store.setUi({ camera: null });
    expect(store.ui.camera).toBe(null);
  });

  it('refuses a bad patch with a clear error and changes nothing', () => {
    const { store, changes } = recordingStore();
    store.setUi({ view: 'front' });
    changes.length = 0;
    expect(() => store.setUi({ view: 'diagonal' })).toThrow(/view must be one of 3d, top, front, side, got diagonal/);
    expect(() => store.setUi({ step: -1 })).toThrow(/step must be an integer from 0 to 64/);
    expect(() => store.setUi({ step: 1.5 })).toThrow(/step must be an integer/);
    expect(() => store.setUi({ panels: { hits: 'no' } })).toThrow(/panels.hits must be true or false/);
    expect(() => store.setUi({ camera: { position: [0, 0], target: [0, 0, 0], zoom: 1 } })).toThrow(/camera.position/);
    expect(() => store.setUi(null)).toThrow(/patch must be an object/);
    expect(() => store.setUi([])).toThrow(/patch must be an object/);
    expect(store.ui.view).toBe('front');
    expect(store.ui.step).toBe(0);
    expect(store.ui.panels.hits).toBe(true);
    expect(changes).toEqual([]);
  });

  it('does not touch the scene', () => {
    const { store } = recordingStore();
    const scene = store.state;
    store.setUi({ view: 'side' });
    expect(store.state).toBe(scene);
  });
});
