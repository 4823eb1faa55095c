// URL sync: the scene in the location hash (#v1.…, the pure codec of state.mjs), written
// after every settled change (at most every 400 ms while dragging), read when the page
// opens and when the hash changes; and the Copy share link button.

import { decode, defaultState, encode, sameState } from './state.mjs';
import { $ } from './dom.js';
import { clearError, flash, showError } from './notices.js';

export class UrlSync {
  constructor(store) {
    this.store = store;
    /** The last hash this page wrote or opened (a hashchange to it is ours). */
    this.lastHash = '';
    this.timer = null;
  }

  listen() {
    window.addEventListener('hashchange', () => {
      if (!this.store.core || location.hash === this.lastHash) return;
      this.open(location.hash, { initial: false });
    });
    $('share').addEventListener('click', () => this.#share());
  }

  /** After a store change: a drag in progress schedules a write, a settled change writes
   * now; a scene read from the link, or a gesture still pending, writes nothing. */
  onChange(change) {
    if (change.live) this.schedule();
    else if (!change.fromLink && !change.pending) this.commit();
  }

  /** The hash of the current scene, or null (with a notice) when it cannot be linked. */
  currentLink() {
    try {
      return encode(this.store.state);
    } catch (e) {
      showError(`This scene cannot be put in a link: ${e.message}`);
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

  #setScene(state) {
    this.store.setScene(state, { fit: true, fromLink: true });
  }

  /** Open the scene of `hash`; when the page opens (initial), always show a scene. */
  open(hash, { initial }) {
    if (!hash || hash === '#') {
      if (initial) this.#setScene(defaultState());
      return;
    }
    const res = decode(hash);
    if (res.ok) {
      clearError();
      if (!sameState(res.state, this.store.state) || initial) this.#setScene(res.state);
      this.lastHash = hash;
      return;
    }
    if (res.error === 'no scene in the link') {
      if (initial) this.#setScene(defaultState());
      return;
    }
    if (initial) {
      showError(`This link could not be opened: ${res.error}. Showing the default scene instead.`);
      this.#setScene(defaultState());
    } else {
      showError(`This link could not be opened: ${res.error}. The scene was left as it was.`);
    }
  }

  async #share() {
    const hash = this.currentLink();
    if (!hash) return;
    this.commit();
    const url = `${location.origin}${location.pathname}${hash}`;
    const input = $('share-url');
    input.value = url;
    input.select();
    try {
      await navigator.clipboard.writeText(url);
      flash('share-flash', 'Copied to the clipboard');
    } catch {
      flash('share-flash', 'Copy the link above');
    }
  }
}
