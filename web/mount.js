// slabcast/playground: the playground inside an element of your own page, without an iframe.
//
//   import { mountPlayground } from 'slabcast/playground';
//   import 'slabcast/playground.css';
//   const handle = await mountPlayground(element, scene, { view: 'top', handles: 'locked' });
//   handle.destroy();
//
// The markup is the body of the playground page (web/index.html, fetched next to this
// module), so the page and a mounted playground are the same thing; its ids are looked up
// below each mount (web/playground/dom.js makeDom), so any number of playgrounds can live on one
// page, each with its own store, listeners and view.
// A mounted playground never touches the address bar. three.js is a peer dependency.

import { createPage, start, subscribe } from './playground/playground.js';
import { defaultUi, mergeUi } from './playground/ui-state.mjs';
import { toScene } from './repro.js';

/** The page whose body is the playground's markup. */
const MARKUP_URL = new URL('./index.html', import.meta.url);
/** The option names that are view settings (ui-state.mjs). */
const UI_KEYS = ['view', 'step', 'handles', 'panels', 'camera', 'embed'];
const OPTION_KEYS = [...UI_KEYS, 'wasm', 'markup'];

const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The playground's markup: the body of the page at `url`, without its scripts and its loading screen. */
async function loadMarkup(url) {
  let response;
  try {
    response = await fetch(url);
  } catch (e) {
    throw new Error(`mountPlayground: cannot fetch the playground markup ${url}: ${e.message}`);
  }
  if (!response.ok) throw new Error(`mountPlayground: cannot fetch the playground markup ${url}: HTTP ${response.status}`);
  const doc = new DOMParser().parseFromString(await response.text(), 'text/html');
  if (doc.body?.dataset.playground !== 'page') {
    throw new Error(`mountPlayground: ${url} is not the playground page (no <body data-playground="page">)`);
  }
  for (const el of doc.body.querySelectorAll('script, #loading')) el.remove();
  const fragment = document.createDocumentFragment();
  for (const node of [...doc.body.childNodes]) fragment.append(document.importNode(node, true));
  return fragment;
}

/** Run fn with every window listener it adds tied to `signal` (so destroy() removes them). */
function withWindowSignal(signal, fn) {
  const original = window.addEventListener;
  window.addEventListener = function addEventListener(type, listener, options) {
    const opts = typeof options === 'boolean' ? { capture: options, signal } : { ...options, signal };
    return original.call(this, type, listener, opts);
  };
  try {
    return fn();
  } finally {
    window.addEventListener = original;
  }
}

/**
 * Put the playground into `element` with the scene `scene` ({shapes, rays, selected?}, as
 * slabcast/repro's toScene takes it) and `options`: view settings ({view, step, handles,
 * panels, camera, embed}, merged over the defaults), `wasm` (where slabcast.wasm is, as
 * loadSlabcast takes it) and `markup` (the URL of the playground page, default: the
 * index.html beside this module). Resolves, once the scene is drawn, to a handle
 * {element, store, destroy()}. Throws (rejects) with an Error naming what is wrong. Any
 * number of playgrounds can be mounted on one page; each is independent of the others.
 * @returns {Promise<{element: HTMLElement, store: object, destroy: () => void}>}
 */
export async function mountPlayground(element, scene, options = {}) {
  if (typeof Element === 'undefined' || !(element instanceof Element)) {
    throw new TypeError('mountPlayground: element must be a DOM element');
  }
  if (!element.isConnected) throw new TypeError('mountPlayground: element must be in the document');
  const state = (() => {
    try {
      return toScene(scene);
    } catch (e) {
      throw new TypeError(`mountPlayground: ${e.message}`);
    }
  })();
  if (!isObject(options)) throw new TypeError('mountPlayground: options must be an object');
  const unknown = Object.keys(options).filter((k) => !OPTION_KEYS.includes(k));
  if (unknown.length) throw new TypeError(`mountPlayground: unknown option ${unknown.join(', ')} (options are ${OPTION_KEYS.join(', ')})`);
  const patch = Object.fromEntries(UI_KEYS.filter((k) => options[k] !== undefined).map((k) => [k, options[k]]));
  if (patch.panels !== undefined && !isObject(patch.panels)) throw new TypeError('mountPlayground: panels must be an object');
  let ui;
  try {
    ui = mergeUi(defaultUi(), patch);
  } catch (e) {
    throw new TypeError(`mountPlayground: ${e.message}`);
  }

  const root = document.createElement('div');
  root.className = 'slabcast-playground';
  root.dataset.playground = 'mounted'; // playground.css styles only what carries data-playground
  // It fills the element and never runs past it (what does not fit scrolls inside); its
  // layout follows its own width (playground.css: @container) and height (--playground-height).
  root.style.cssText = 'display: flex; flex-direction: column; width: 100%; height: 100%; min-height: 0; position: relative; overflow: auto;';
  const fit = new ResizeObserver(() => { root.style.setProperty('--playground-height', `${root.clientHeight}px`); });
  const controller = new AbortController();
  const handle = { element: root, store: null, destroy: () => {} };
  let live = true;
  let page = null;
  const destroy = () => {
    if (!live) return;
    live = false;
    controller.abort();
    fit.disconnect();
    if (page) {
      page.resizer.disconnect();
      if (page.stress.active) page.stress.leave();
      page.view.orbit?.dispose();
      page.view.renderer.dispose();
    }
    root.remove();
  };
  handle.destroy = destroy;
  try {
    root.append(await loadMarkup(options.markup ?? MARKUP_URL));
    if (!live) throw new Error('mountPlayground: destroyed while mounting');
    element.append(root);
    fit.observe(root);
    root.style.setProperty('--playground-height', `${root.clientHeight}px`);
    page = withWindowSignal(controller.signal, () => createPage(root, { urlSync: false }));
    subscribe(page);
    handle.store = page.store;
    await start(page, { wasm: options.wasm ?? new URL('./slabcast.wasm', import.meta.url), scene: state, ui });
  } catch (e) {
    destroy();
    throw e;
  }
  return handle;
}
