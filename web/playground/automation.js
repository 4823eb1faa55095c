// Automation hooks for tests and scripts: window.playground.handles() (where a press grabs
// each draggable handle), state() (a copy of the store's scene), ui() (a copy of the view
// settings), camera() (the view's camera as view settings) and hits() (the nearest hit of
// every ray).

import * as THREE from 'three';
import { cloneState } from './scene.mjs';
import { cloneUi } from './ui-state.mjs';
import { readCamera } from './camera-sync.js';
import { along, vec3 } from './three-kit.js';

function shapeCenter(s) {
  if (s.type === 'aabb') return new THREE.Vector3((s.min[0] + s.max[0]) / 2, (s.min[1] + s.max[1]) / 2, (s.min[2] + s.max[2]) / 2);
  if (s.type === 'capsule') return new THREE.Vector3((s.a[0] + s.b[0]) / 2, (s.a[1] + s.b[1]) / 2, (s.a[2] + s.b[2]) / 2);
  if (s.type === 'plane') {
    const n = vec3(s.normal);
    return n.multiplyScalar(s.d / n.lengthSq());
  }
  return vec3(s.center);
}

/** What a press at client (x, y) would grab, with the page's own priorities: nothing when
 * something else (a toolbar, the legend) covers the canvas there; else a ray handle; else a
 * shape. Returns an id like the ones of handles(), or null. */
function grabbableAt(view, handles, x, y) {
  if (document.elementFromPoint(x, y) !== view.canvas) return null;
  const e = { clientX: x, clientY: y };
  const h = handles.pickHandle(e);
  if (h) return h.kind === 'stress' ? 'stress-handle' : h.shape !== undefined ? `shape${h.shape}-${h.kind.slice(4)}` : `ray${h.ray}-${h.kind}`;
  const sh = handles.pickShape(e);
  return sh ? `shape${sh.index}` : null;
}

/** Screen points to try for a handle: its projection first, then points around it. For a
 * shape, points of its mesh pulled toward its centre (a face or another shape may cover the
 * centre). */
function handleCandidates(center, mesh) {
  const out = [center];
  if (mesh) {
    mesh.updateMatrixWorld();
    const pos = mesh.geometry.getAttribute('position');
    const stride = Math.max(1, Math.floor(pos.count / 48));
    const v = new THREE.Vector3();
    for (const k of [0.5, 0.8, 0.25]) {
      for (let i = 0; i < pos.count; i += stride) {
        v.fromBufferAttribute(pos, i).applyMatrix4(mesh.matrixWorld);
        out.push(center.clone().lerp(v, k));
      }
    }
  }
  return out;
}

function locateHandle({ view, handles }, id, center, mesh) {
  const points = handleCandidates(center, mesh).map((p) => view.project(p));
  if (!mesh) {
    // a small handle sphere: a few pixels around its projection
    const p = points[0];
    for (const [dx, dy] of [[0, 0], [3, 0], [-3, 0], [0, 3], [0, -3], [5, 5], [-5, -5], [5, -5], [-5, 5]]) {
      points.push({ x: p.x + dx, y: p.y + dy, onScreen: p.onScreen });
    }
  }
  for (const p of points) {
    if (p.onScreen && grabbableAt(view, handles, p.x, p.y) === id) return { id, x: p.x, y: p.y, onScreen: true, grabbable: true };
  }
  return { id, ...points[0], grabbable: false };
}

/** The handles of the 2D view: the centre of each drawn handle (its id as in handles()),
 * grabbable when a press there reaches that handle (nothing covers it) and the handles are
 * not locked. */
function handles2d(svg, locked) {
  return [...svg.querySelectorAll('[data-handle]')].filter((e) => /^(ray\d+-(origin|tip)|shape\d+(-[abr])?)$/.test(e.dataset.handle)).map((e) => {
    const r = e.getBoundingClientRect();
    const x = r.left + r.width / 2;
    const y = r.top + r.height / 2;
    const under = document.elementFromPoint(x, y)?.closest?.('[data-handle]');
    const onScreen = x >= 0 && y >= 0 && x <= innerWidth && y <= innerHeight;
    return { id: e.dataset.handle, x, y, onScreen, grabbable: !locked && onScreen && under === e };
  });
}

/** window.playground, on the modules of the page ({view, store, shapes, handles, stress}). */
export function installAutomation(page) {
  const { store, shapes, stress } = page;
  window.playground = {
    /** Client (CSS pixel) coordinates of every draggable handle: a point where a press grabs
     * that handle (grabbable: true), or, when none is found (covered, off screen), its projection
     * (grabbable: false). */
    handles() {
      const out = [];
      // A 2D view draws its own handles (SVG, view2d.js): where a press grabs each is its centre.
      if (page.view2d?.active) return handles2d(page.view2d.svg, store.ui.handles === 'locked');
      if (stress.active) {
        out.push(locateHandle(page, 'stress-handle', stress.handle.position.clone(), null));
        return out;
      }
      const { state } = store;
      state.rays.forEach((ray, i) => {
        out.push(locateHandle(page, `ray${i}-origin`, vec3(ray.origin), null));
        out.push(locateHandle(page, `ray${i}-tip`, along(ray, 1), null));
      });
      state.shapes.forEach((s, j) => out.push(locateHandle(page, `shape${j}`, shapeCenter(s), shapes.entries[j] && shapes.entries[j].mesh)));
      // The selected capsule's end points.
      const sel = state.shapes[state.selected.shape];
      if (sel && sel.type === 'capsule') {
        for (const end of ['a', 'b']) out.push(locateHandle(page, `shape${state.selected.shape}-${end}`, vec3(sel[end]), null));
      }
      return out;
    },
    /** A copy of the current scene. */
    state() {
      return cloneState(store.state);
    },
    /** A copy of the current view settings. */
    ui() {
      return cloneUi(store.ui);
    },
    /** The camera the view shows: {position, target, zoom}. */
    camera() {
      return readCamera(page.view);
    },
    /** The nearest hit of every ray (shape -1: a miss). */
    hits() {
      return store.nearest.map((n, i) => {
        const r = n.result;
        if (!r.hit) return { ray: i, shape: -1, hit: false };
        return { ray: i, shape: n.shape, hit: true, t: r.t, t_enter: r.t_enter, t_exit: r.t_exit, point: [...r.point], normal: [...r.normal] };
      });
    },
  };
}
