// The inspector panel: every number of the selected ray (origin, dir, tmax) and of the
// selected shape as a text field. What is typed is read as a float32 (numparse.mjs) and
// shown as the float32 it rounds to; a bad entry gets an inline error and changes
// nothing. Dragging a field's label scrubs the number (Shift: finer). Also the snap
// controls (snap.mjs). Edits go to the store as updateRay / updateShape.

import { formatFloat32, formatG } from '../f32format.mjs';
import { cloneState } from './scene.mjs';
import { validateState } from './scene-check.mjs';
import { parseFloat32 } from './numparse.mjs';
import { GRID_SIZES } from './snap.mjs';
import { el } from './dom.js';
import { AX, rayName, shapeName } from './look.js';

/** The fields of each kind of record: [name, count, options]. */
const FIELDS = {
  ray: [['origin', 3], ['dir', 3], ['tmax', 1, { allowInfinity: true, min: 0 }]],
  aabb: [['min', 3], ['max', 3]],
  obb: [['center', 3], ['half', 3, { min: 0 }], ['axes', 9]],
  sphere: [['center', 3], ['radius', 1, { min: 0 }]],
  plane: [['normal', 3], ['d', 1]],
  capsule: [['a', 3], ['b', 3], ['radius', 1, { min: 0 }]],
};

/** The label of element k of field `name` ('origin x', 'axes[1] z', 'tmax'). */
function fieldLabel(name, count, k) {
  if (count === 1) return name;
  if (count === 9) return `${name}[${Math.floor(k / 3)}] ${AX[k % 3]}`;
  return `${name} ${AX[k]}`;
}

const getValue = (rec, name, count, k) => (count === 1 ? rec[name] : count === 9 ? rec[name][Math.floor(k / 3)][k % 3] : rec[name][k]);

function withValue(rec, name, count, k, v) {
  const r = cloneState(rec);
  if (count === 1) r[name] = v;
  else if (count === 9) r[name][Math.floor(k / 3)][k % 3] = v;
  else r[name][k] = v;
  return r;
}

/** The float32 text shown beside a field: the value to 9 significant digits. */
export function float32Text(v) {
  if (v === Infinity) return 'Infinity';
  if (v === -Infinity) return '-Infinity';
  return formatG(v, 9);
}

/** The value as typed text: the shortest form that reads back as the same float32. */
function inputText(v) {
  if (v === Infinity) return 'Infinity';
  if (Object.is(v, -0)) return '-0';
  return formatFloat32(v);
}

export class Inspector {
  /** store: the Store; snap: the Snap settings; onSnap(): after the snap settings changed. */
  constructor({ store, snap, onSnap }) {
    Object.assign(this, { store, snap, onSnap });
    /** The key of what is shown ('ray:0|shape:2:aabb'); the fields are rebuilt when it changes. */
    this.key = '';
    /** [{kind, index, name, count, k, input, out, err}] of the shown fields. */
    this.fields = [];
    this.scrub = null;
  }

  listen() {
    const snapOn = this.store.dom.$('snap-on');
    const size = this.store.dom.$('snap-size');
    size.replaceChildren(...GRID_SIZES.map((g) => el('option', { value: String(g), text: String(g) })));
    size.value = String(this.snap.size);
    snapOn.addEventListener('change', () => { this.snap.setEnabled(snapOn.checked); this.onSnap?.(); });
    size.addEventListener('change', () => { this.snap.setSize(Number(size.value)); this.onSnap?.(); });
    window.addEventListener('pointermove', (e) => this.#scrubMove(e));
    window.addEventListener('pointerup', () => this.#scrubEnd());
    window.addEventListener('pointercancel', () => this.#scrubEnd());
  }

  /** After a store change: rebuild the fields when the selection changed, else refresh the numbers. */
  onChange() {
    const { state } = this.store;
    const i = state.selected.ray;
    const j = state.selected.shape;
    const key = `ray:${i}|shape:${j}:${j >= 0 && j < state.shapes.length ? state.shapes[j].type : ''}|${state.rays.length}`;
    if (key !== this.key) {
      this.key = key;
      this.#build(i, j);
    }
    this.#refresh();
  }

  #build(i, j) {
    const { state } = this.store;
    this.fields = [];
    const parts = [];
    if (i >= 0 && i < state.rays.length) parts.push(this.#group('ray', i, rayName(i), FIELDS.ray));
    else parts.push(el('p', { class: 'slab-empty', text: 'No ray selected.' }));
    if (j >= 0 && j < state.shapes.length) {
      const s = state.shapes[j];
      parts.push(this.#group('shape', j, shapeName(j, s), FIELDS[s.type]));
    } else parts.push(el('p', { class: 'slab-empty', text: 'No shape selected: click one.' }));
    this.store.dom.$('inspector').replaceChildren(...parts);
  }

  #group(kind, index, title, fields) {
    const box = el('fieldset', { class: 'insp-group', 'data-testid': `inspect-${kind}` });
    box.append(el('legend', { text: title }));
    for (const [name, count, opts = {}] of fields) {
      for (let k = 0; k < count; k++) {
        const label = fieldLabel(name, count, k);
        const id = this.store.dom.uid(`insp-${kind}-${name}-${k}`);
        const input = el('input', { type: 'text', id, class: 'insp-input', spellcheck: false, autocomplete: 'off', 'data-testid': `inspect-${kind}-${name}${count > 1 ? `-${k}` : ''}` });
        const lab = el('label', { class: 'insp-label', htmlFor: id, text: label, title: 'Drag to change (Shift: finer)' });
        const out = el('span', { class: 'insp-f32', 'data-testid': `inspect-${kind}-${name}${count > 1 ? `-${k}` : ''}-f32` });
        const err = el('span', { class: 'insp-error', role: 'alert' });
        err.hidden = true;
        input.setAttribute('aria-describedby', `${id}-f32`);
        out.id = `${id}-f32`;
        const f = { kind, index, name, count, k, opts, input, out, err, label };
        input.addEventListener('change', () => this.#commit(f));
        input.addEventListener('keydown', (e) => {
          if (e.key === 'Enter') this.#commit(f);
          else if (e.key === 'Escape') { this.#clearError(f); this.#refreshField(f, true); }
        });
        lab.addEventListener('pointerdown', (e) => this.#scrubStart(e, f));
        box.append(el('div', { class: 'insp-row' }, lab, input, out, err));
        this.fields.push(f);
      }
    }
    return box;
  }

  #record(f) {
    const { state } = this.store;
    return f.kind === 'ray' ? state.rays[f.index] : state.shapes[f.index];
  }

  #refresh() {
    for (const f of this.fields) this.#refreshField(f, false);
  }

  #refreshField(f, force) {
    const rec = this.#record(f);
    if (!rec) return;
    const v = getValue(rec, f.name, f.count, f.k);
    f.out.textContent = `= ${float32Text(v)}`;
    if (force || (document.activeElement !== f.input && f.err.hidden)) f.input.value = inputText(v);
  }

  #clearError(f) {
    f.err.hidden = true;
    f.err.textContent = '';
    f.input.removeAttribute('aria-invalid');
  }

  #showError(f, message) {
    f.err.hidden = false;
    f.err.textContent = message;
    f.input.setAttribute('aria-invalid', 'true');
  }

  /** The scene with field f set to v, or {error}. */
  #tryValue(f, v, opts = {}) {
    const rec = this.#record(f);
    if (!rec) return;
    const next = withValue(rec, f.name, f.count, f.k, v);
    const state = cloneState(this.store.state);
    if (f.kind === 'ray') state.rays[f.index] = next;
    else state.shapes[f.index] = next;
    const problem = validateState(state);
    if (problem) return { error: problem.replace(/^(ray|shape) \d+( \([a-z]+\))?: /, '') };
    if (f.kind === 'ray') this.store.updateRay(f.index, next, opts);
    else this.store.updateShape(f.index, next, opts);
    return {};
  }

  #commit(f) {
    const parsed = parseFloat32(f.input.value, f.opts);
    if (!parsed.ok) {
      this.#showError(f, `${f.label}: ${parsed.error}. Nothing was changed.`);
      return;
    }
    const rec = this.#record(f);
    if (rec && Object.is(getValue(rec, f.name, f.count, f.k), parsed.value)) {
      this.#clearError(f);
      this.#refreshField(f, true);
      return;
    }
    const res = this.#tryValue(f, parsed.value);
    if (res?.error) {
      this.#showError(f, `${f.label}: ${res.error}. Nothing was changed.`);
      return;
    }
    this.#clearError(f);
    this.#refreshField(f, true);
  }

  // ---------------------------------------------------------------- scrubbing

  #scrubStart(e, f) {
    if (e.button !== 0 || this.store.ui.handles === 'locked') return;
    const rec = this.#record(f);
    if (!rec) return;
    const v0 = getValue(rec, f.name, f.count, f.k);
    if (!Number.isFinite(v0)) return; // an endless tmax has nothing to scrub
    e.preventDefault();
    this.scrub = { f, x0: e.clientX, v0, moved: false };
    try { e.target.setPointerCapture(e.pointerId); } catch { /* not essential */ }
  }

  #scrubMove(e) {
    const s = this.scrub;
    if (!s) return;
    const dx = e.clientX - s.x0;
    if (!s.moved && Math.abs(dx) < 2) return;
    s.moved = true;
    const perPx = e.shiftKey ? 0.001 : 0.01;
    let v = s.v0 + dx * perPx;
    v = this.snap.enabled ? this.snap.value(v) : Math.fround(Number(v.toFixed(e.shiftKey ? 3 : 2)));
    if (s.f.opts.min !== undefined) v = Math.max(v, s.f.opts.min);
    const res = this.#tryValue(s.f, v, { live: true });
    if (res?.error) this.#showError(s.f, `${s.f.label}: ${res.error}`);
    else this.#clearError(s.f);
  }

  #scrubEnd() {
    const s = this.scrub;
    if (!s) return;
    this.scrub = null;
    if (s.moved) this.store.endEdit();
    this.#clearError(s.f);
    this.#refreshField(s.f, true);
  }
}
