// Undo and redo of scene edits. The store stays the one source of truth: the history
// only keeps copies of settled scenes and puts one back with store.setScene(...,
// {fromHistory: true}). Pure ES module (no DOM): it only subscribes to the store.
//
// A step is recorded when a change settles: an action that is neither live (a drag in
// progress) nor pending (part of a gesture), or the endEdit() that closes a gesture; so a
// whole drag is one step. A change that only moves the selection replaces the current
// copy without a step. View settings (store.ui) are not scene edits and are not recorded.

import { cloneState, sameState } from './scene.mjs';

/** How many steps back are kept. */
export const HISTORY_LIMIT = 200;

const sameScene = (a, b) => sameState({ ...a, selected: { ray: -1, shape: -1 } }, { ...b, selected: { ray: -1, shape: -1 } });

export class History {
  #store;
  #undo = [];
  #redo = [];
  /** The last settled scene (null until the first change). */
  #current = null;
  #listeners = [];

  /** Start recording the edits of `store` (a Store). */
  constructor(store) {
    if (!store || typeof store.subscribe !== 'function' || typeof store.setScene !== 'function') {
      throw new Error('History needs the playground store');
    }
    this.#store = store;
    store.subscribe((change) => this.#onChange(change));
  }

  get canUndo() { return this.#undo.length > 0; }
  get canRedo() { return this.#redo.length > 0; }
  /** [undo steps, redo steps]. */
  get depth() { return [this.#undo.length, this.#redo.length]; }

  /** listener() after the history changed (to update buttons); returns an unsubscribe. */
  onUpdate(listener) {
    if (typeof listener !== 'function') throw new Error('onUpdate needs a function');
    this.#listeners.push(listener);
    return () => { this.#listeners = this.#listeners.filter((l) => l !== listener); };
  }

  /** Put back the scene before the last step; false when there is none. */
  undo() {
    return this.#move(this.#undo, this.#redo);
  }

  /** Put back the scene the last undo took away; false when there is none. */
  redo() {
    return this.#move(this.#redo, this.#undo);
  }

  #move(from, to) {
    if (from.length === 0) return false;
    const settled = this.#settle();
    if (settled) this.#current = settled;
    const target = from.pop();
    to.push(this.#current);
    this.#current = target;
    this.#store.setScene(target, { fromHistory: true });
    this.#notify();
    return true;
  }

  /** A copy of the store's scene when it differs from the current copy, else null. */
  #settle() {
    const now = this.#store.state;
    if (this.#current && sameState(now, this.#current)) return null;
    return cloneState(now);
  }

  #onChange(change) {
    if (change.fromHistory || change.ui) return;
    if (change.live || change.pending) return;
    const now = this.#store.state;
    if (this.#current === null) {
      this.#current = cloneState(now);
      return;
    }
    if (sameState(now, this.#current)) return;
    if (sameScene(now, this.#current)) {
      this.#current = cloneState(now); // only the selection moved
      return;
    }
    this.#undo.push(this.#current);
    if (this.#undo.length > HISTORY_LIMIT) this.#undo.shift();
    this.#redo = [];
    this.#current = cloneState(now);
    this.#notify();
  }

  #notify() {
    for (const l of this.#listeners) l(this);
  }
}
