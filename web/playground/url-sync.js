// URL sync: the scene and the view settings in the location hash (#v2.… or #v3.…, the pure codec of
// link.mjs), written after every settled change (at most every 400 ms while dragging), read
// when the page opens and when the hash changes; the embedder's query-string settings
// (?embed, ?view, ?step, ?handles, ?panels: uiFromQuery of ui-state.mjs) laid over every
// link opened; and the Copy share link button. A share link is the page's own address
// (location.origin + pathname) with the fragment: never a fixed host.

import { decode, encode } from './link.mjs';
import { defaultState, sameState } from './scene.mjs';
import { defaultUi, mergeUi, uiFromQuery } from './ui-state.mjs';
import { clearError, flash, showError } from './notices.js';

export class UrlSync {
  /** store: the Store; search: the page's query string (location.search), read once. */
  constructor(store, search = '') {
    this.store = store;
    /** The last hash this page wrote or opened (a hashchange to it is ours). */
    this.lastHash = '';
    this.timer = null;
    const { patch, problems } = uiFromQuery(search);
    /** The query-string settings, laid over the settings of every link opened. */
    this.queryPatch = patch;
    this.queryProblems = problems;
  }

  listen() {
    window.addEventListener('hashchange', () => {
      if (!this.store.core || location.hash === this.lastHash) return;
      this.open(location.hash, { initial: false });
    });
    this.store.dom.$('share').addEventListener('click', () => this.#share());
  }

  /** After a store change: a drag in progress schedules a write, a settled change writes
   * now (view settings too: the camera after an orbit, the tutorial step); what came from
   * the link, or a gesture still pending, writes nothing. */
  onChange(change) {
    if (change.fromLink) return;
    if (change.live) this.schedule();
    else if (!change.pending) this.commit();
  }

  /** The hash of the current scene and settings, or null (with a notice) when it cannot be linked. */
  currentLink() {
    try {
      return encode(this.store.state, this.store.ui);
    } catch (e) {
      showError(this.store.dom, `This scene cannot be put in a link: ${e.message}`);
      return null;
    }
  }

  schedule() {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.commit();
    }, 400);
  }

  commit() {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    const hash = this.currentLink();
    if (!hash || hash === location.hash) return;
    this.lastHash = hash;
    history.replaceState(null, '', `${location.pathname}${location.search}${hash}`);
  }

  /** Show `state` with `ui` (the query-string settings laid over it). */
  #show(state, ui) {
    let settings;
    try {
      settings = mergeUi(ui, this.queryPatch);
    } catch (e) {
      showError(this.store.dom, `The page settings could not be used: ${e.message}`);
      settings = ui;
    }
    // A link with a camera shows that camera; without one the scene is framed.
    this.store.setScene(state, { fit: settings.camera === null, fromLink: true });
    this.store.setUi(settings, { fromLink: true });
  }

  /** Take a bad fragment out of the address bar (the scene shown stays). */
  #clearAddress() {
    this.lastHash = '';
    history.replaceState(null, '', `${location.pathname}${location.search}`);
  }

  /** Open the scene of `hash`; when the page opens (initial), always show a scene. */
  open(hash, { initial }) {
    if (initial && this.queryProblems.length) {
      showError(this.store.dom, `Some page settings were ignored: ${this.queryProblems.join('; ')}.`);
    }
    if (!hash || hash === '#') {
      if (initial) this.#show(defaultState(), defaultUi());
      return;
    }
    const res = decode(hash);
    if (res.ok) {
      if (!initial || !this.queryProblems.length) clearError(this.store.dom);
      if (initial || !sameState(res.state, this.store.state) || encode(res.state, res.ui) !== this.currentLink()) {
        this.#show(res.state, res.ui);
      }
      this.lastHash = hash;
      return;
    }
    if (res.error === 'no scene in the link') {
      if (initial) this.#show(defaultState(), defaultUi());
      return;
    }
    if (initial) {
      showError(this.store.dom, `This link could not be opened: ${res.error}. Showing the default scene instead.`);
      this.#show(defaultState(), defaultUi());
    } else {
      showError(this.store.dom, `This link could not be opened: ${res.error}. The scene was left as it was.`);
    }
    this.#clearAddress();
  }

  async #share() {
    const hash = this.currentLink();
    if (!hash) return;
    this.commit();
    const url = `${location.origin}${location.pathname}${hash}`;
    const input = this.store.dom.$('share-url');
    input.value = url;
    input.select();
    try {
      await navigator.clipboard.writeText(url);
      flash(this.store.dom, 'share-flash', 'Copied to the clipboard');
    } catch {
      flash(this.store.dom, 'share-flash', 'Copy the link above');
    }
  }
}
