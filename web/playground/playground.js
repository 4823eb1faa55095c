// The slabcast playground: a three.js scene of boxes, rotated boxes, spheres and a
// plane, with rays whose hits are computed by slabcast's WebAssembly core
// (sc.raycast for every ray x shape; three.js is only used to draw and to pick
// what the mouse grabs). Also: the slab method step by step, share links,
// case-file export/import and a stress mode on the batch world API.
//
// This is the entry module (web/index.html loads it): it makes the modules and wires
// them together. The scene lives in one store (store.js) and changes only through its
// actions; everything else subscribes to it:
//
//   store.js        the scene, the hits, the actions
//   render.js       renderer, scene, camera, lights, render loop  (three-kit.js: helpers)
//   shapes3d.js     shape meshes          rays3d.js      ray meshes and handles
//   gizmo.js        the TransformControls gizmo and its shape edits (edits.js: the maths)
//   handles.js      picking and dragging
//   hits.js         the hit list panel
//   tutorial.js     the slab panel and stepper (tutorial-text.js, tutorial-chart.js, tutorial-3d.js)
//   view2d.js       the 2D slab view (store.ui.view 'top' | 'front' | 'side')
//   inspector.js    typed numbers of the selected ray and shape, scrubbing, snap controls
//   keyboard.js     [ ] and the arrow keys move handles      snap.mjs: the grid
//   history.mjs     undo / redo                              numparse.mjs: typed text to float32
//   toolbar.js      modes, add / delete / reset, undo / redo, views, shortcuts
//   files.js        case-file export and import
//   url-sync.js     the scene and view settings in the location hash, share link, ?embed etc.
//   camera-sync.js  the camera in the view settings (after an orbit; from a link)
//   chrome.js       embed mode, panels and locked handles on the page
//   stress.js       stress mode on the world API
//   automation.js   window.playground for tests
//   notices.js, dom.js, look.js: the error notice, DOM and number text, colours and names
//
// web/index.html starts the page here (createPage on document.body, with URL sync);
// mount.js (mountPlayground) calls createPage on an element of another page, without it.
//
// Parsed text (links, imported files, error messages) only ever reaches the page
// through textContent / attribute values, never innerHTML.

import { loadSlabcast } from '../slabcast.js';
import { makeDom } from './dom.js';
import { initNotices, reportRefusals, showError } from './notices.js';
import { Store } from './store.js';
import { View } from './render.js';
import { ShapeMeshes } from './shapes3d.js';
import { RayMeshes } from './rays3d.js';
import { Gizmo } from './gizmo.js';
import { Handles } from './handles.js';
import { StressMode } from './stress.js';
import { SlabVisual } from './tutorial-3d.js';
import { Tutorial } from './tutorial.js';
import { renderHitList } from './hits.js';
import { Toolbar, showHistoryState, showToolState, showViewState } from './toolbar.js';
import { View2D } from './view2d.js';
import { Inspector } from './inspector.js';
import { Keyboard } from './keyboard.js';
import { History } from './history.mjs';
import { Snap } from './snap.mjs';
import { initFiles } from './files.js';
import { UrlSync } from './url-sync.js';
import { CameraSync } from './camera-sync.js';
import { Chrome } from './chrome.js';
import { installAutomation } from './automation.js';

/** Make every module inside `root` (an element holding the playground's markup: the body
 * of web/index.html). Listeners on the canvas run in the order they are added: the gizmo
 * first, then our own handles, then orbiting, so a grabbed gizmo or handle wins.
 * options.urlSync: keep the scene in the address bar (the page; not a mounted playground). */
export function createPage(root, { urlSync: withUrl = true } = {}) {
  const dom = makeDom(root === document.body ? null : root);
  initNotices(dom);
  const store = new Store();
  store.dom = dom;
  const snap = new Snap();
  const view = new View(dom.$('stage'));
  const shapes = new ShapeMeshes(view);
  const rays = new RayMeshes(view);
  const gizmo = new Gizmo({ view, store, shapes, onApply: (info) => showToolState(dom, info, store.state) });
  const stress = new StressMode({
    view, store, shapes,
    onToggle: (active) => {
      gizmo.setSuspended(active || store.ui.handles === 'locked');
      if (active && store.ui.view !== '3d') store.setUi({ view: '3d' }); // stress mode is drawn in 3D
    },
  });
  const handles = new Handles({ view, store, shapes, rays, gizmo, stress, snap });
  handles.listen();
  view.addOrbit();
  const cameraSync = new CameraSync({ view, store });
  cameraSync.listen();
  const visual = new SlabVisual(view, shapes);
  const tutorial = new Tutorial({ store, visual, gizmo, requestRender: view.requestRender });
  tutorial.listen();
  const view2d = new View2D({ container: view.container, store, snap, view });
  view2d.listen();
  const history = new History(store);
  history.onUpdate((h) => showHistoryState(dom, h));
  new Toolbar({ store, gizmo, view, stress, history }).listen();
  const inspector = new Inspector({
    store, snap, onSnap: () => { gizmo.setSnap(snap.enabled ? snap.size : null); view2d.onChange({}); },
  });
  inspector.listen();
  new Keyboard({ store, snap, view2d, stage: view.container }).listen();
  initFiles(store);
  const urlSync = withUrl ? new UrlSync(store, location.search) : null;
  urlSync?.listen();
  const chrome = new Chrome({ root, gizmo, stress });
  chrome.guardWheel(view.container);
  stress.listen();
  const resizer = new ResizeObserver(view.resize);
  resizer.observe(view.container);
  return {
    root, store, view, shapes, rays, gizmo, stress, handles, tutorial, urlSync, cameraSync, chrome, resizer,
    view2d, inspector, history,
  };
}

/** After every store action: redraw what depends on the scene, then sync the URL. */
export function subscribe(page) {
  const { store, view, shapes, rays, gizmo, tutorial, urlSync, cameraSync, chrome, view2d, inspector } = page;
  store.subscribe((change) => {
    if (change.ui) {
      chrome.apply(store.ui);
      showViewState(store.dom, store.ui);
      tutorial.onChange(change);
      view2d.onChange(change);
      cameraSync.onChange(change);
      urlSync?.onChange(change);
      view.requestRender();
      return;
    }
    if (change.action !== 'endEdit') {
      const { state } = store;
      shapes.sync(state, change.structure);
      rays.sync(state, store.nearest, change.structure);
      reportRefusals(store.dom, change.problems);
      gizmo.apply();
      renderHitList(store);
      tutorial.onChange(change);
      inspector.onChange(change);
      view2d.onChange(change);
    }
    cameraSync.onChange(change);
    urlSync?.onChange(change);
    if (change.action === 'endEdit') return;
    if (change.fit) view.fitCamera(store.state);
    view.requestRender();
  });
}

/** Mark the playground ready (or failed) on its root: <body data-ready="true"> for the page. */
function markReady(page, error) {
  const { dataset } = page.root;
  if (error) dataset.error = error;
  dataset.ready = 'true';
  // The page's loading screen (web/index.html); a mounted playground has none.
  if (page.root === document.body) document.getElementById('loading')?.remove();
}

/**
 * Load the wasm core and show the first scene: the page's link (page.urlSync), or `scene`
 * with the view settings `ui` (a mounted playground). Resolves when it is drawn; a core that
 * does not load is shown as an error on the page and rejects.
 */
export async function start(page, { wasm = new URL('../slabcast.wasm', import.meta.url), scene = null, ui = null } = {}) {
  const { store, view, urlSync } = page;
  try {
    store.attachCore(await loadSlabcast({ wasm }));
  } catch (e) {
    showError(store.dom, `Could not load slabcast.wasm: ${e.message}. The playground cannot compute hits without it.`);
    markReady(page, e.message);
    throw e;
  }
  view.resize();
  if (urlSync) urlSync.open(location.hash, { initial: true });
  else {
    store.setScene(scene, { fit: ui.camera === null, fromLink: true });
    store.setUi(ui, { fromLink: true });
  }
  page.chrome.apply(store.ui);
  view.renderNow();
  await new Promise((resolve) => { requestAnimationFrame(resolve); });
  markReady(page, null);
}

// web/index.html marks its body data-playground="page": the page starts itself. Imported
// by mount.js on another page, this module starts nothing.
if (typeof document !== 'undefined' && document.body?.dataset.playground === 'page') {
  const page = createPage(document.body);
  subscribe(page);
  installAutomation(page);
  start(page).catch(() => { /* shown on the page */ });
}
