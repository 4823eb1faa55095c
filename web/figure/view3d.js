// The figure's 3D view (options.view: '3d'): the box's twelve edges, the ray (solid when it
// hits, dashed when it misses, as in the 2D view), and the entry and exit points, drawn
// with three.js. This module (and with it three.js, which it imports) is only ever loaded
// by a dynamic import() from figure.js when a 3D figure starts: a page of 2D figures never
// requests either, and a bundler puts both in a chunk of their own (tree-shaken to the
// parts used here).
//
// Looking around: after the reader has clicked into the figure, a drag turns the camera
// around the box's centre and the wheel zooms; before that (and without Ctrl) the wheel
// scrolls the page and a touch pans it. There are no handles: 3D figures are for looking,
// dragging is done in a 2D view.
import {
  BufferGeometry, CylinderGeometry, DoubleSide, Float32BufferAttribute, Group, LineBasicMaterial, LineSegments, Mesh, MeshBasicMaterial,
  PerspectiveCamera, Quaternion, RingGeometry, Scene, SphereGeometry, Vector3, WebGLRenderer,
} from 'three';
import { COLORS } from './draw.js';

/** The 12 edges of the box [min, max] as 24 points (xyz flat). */
function boxEdges(min, max) {
  const c = (i) => [(i & 1) ? max[0] : min[0], (i & 2) ? max[1] : min[1], (i & 4) ? max[2] : min[2]];
  const out = [];
  for (let i = 0; i < 8; i++) {
    for (const bit of [1, 2, 4]) if (!(i & bit)) out.push(...c(i), ...c(i | bit));
  }
  return out;
}

/**
 * Turning: a drag that starts after the reader clicked into the figure (isActive()) turns
 * the camera's `orbit`. Zoom: the wheel, after the click or with Ctrl; otherwise the wheel's
 * event is left to the page. `render()` draws again.
 */
function listenOrbit(canvas, orbit, render, isActive, signal) {
  let drag = null;
  canvas.addEventListener('pointerdown', (e) => {
    if (!isActive()) return;
    drag = { x: e.clientX, y: e.clientY, yaw: orbit.yaw, pitch: orbit.pitch };
    canvas.setPointerCapture(e.pointerId);
  }, { signal });
  canvas.addEventListener('pointermove', (e) => {
    if (!drag) return;
    orbit.yaw = drag.yaw - (e.clientX - drag.x) * 0.01;
    orbit.pitch = Math.max(-1.5, Math.min(1.5, drag.pitch + (e.clientY - drag.y) * 0.01));
    render();
  }, { signal });
  const stop = () => { drag = null; };
  canvas.addEventListener('pointerup', stop, { signal });
  canvas.addEventListener('pointercancel', stop, { signal });
  canvas.addEventListener('wheel', (e) => {
    if (!isActive() && !e.ctrlKey) return;
    e.preventDefault();
    orbit.dist = Math.max(0.05, Math.min(1e4, orbit.dist * Math.exp(Math.sign(e.deltaY) * 0.12)));
    render();
  }, { passive: false, signal });
}

/** A rod (a thin cylinder: WebGL draws lines 1 px wide) from a to b; dashed: in dashes. `track` keeps what to dispose. */
function rod(track, a, b, color, radius, dashed) {
  const d = new Vector3(b[0] - a[0], b[1] - a[1], b[2] - a[2]);
  const len = d.length();
  if (!(len > 0)) return [];
  d.normalize();
  const geo = track(new CylinderGeometry(radius, radius, 1, 8, 1));
  const mat = track(new MeshBasicMaterial({ color }));
  const q = new Quaternion().setFromUnitVectors(new Vector3(0, 1, 0), d);
  const dash = dashed ? Math.max(len / 200, radius * 10) : len;
  const out = [];
  for (let s0 = 0; s0 < len; s0 += dashed ? dash * 1.7 : len) {
    const s1 = Math.min(len, s0 + dash);
    const m = new Mesh(geo, mat);
    m.scale.set(1, s1 - s0, 1);
    m.quaternion.copy(q);
    m.position.set(a[0] + d.x * (s0 + s1) / 2, a[1] + d.y * (s0 + s1) / 2, a[2] + d.z * (s0 + s1) / 2);
    out.push(m);
  }
  return out;
}

/** A dot (a sphere) at p, drawn over everything (the box's edges never hide it). */
function dot(track, p, color, r) {
  const m = new Mesh(track(new SphereGeometry(r, 16, 12)), track(new MeshBasicMaterial({ color, depthTest: false })));
  m.position.set(p[0], p[1], p[2]);
  m.renderOrder = 2;
  return m;
}

/** A ring at p facing the camera (the exit: an open dot, as in 2D). */
function ring(track, billboards, p, color, r) {
  const m = new Mesh(track(new RingGeometry(r * 0.55, r, 24)), track(new MeshBasicMaterial({ color, depthTest: false, side: DoubleSide })));
  m.position.set(p[0], p[1], p[2]);
  m.renderOrder = 3;
  billboards.push(m);
  return m;
}

/**
 * A 3D view in `stage` (an element the view fills). `isActive()`: whether the reader has
 * clicked into the figure; `signal` ends the listeners. Returns {canvas, resize(w, h),
 * update({ray, box, result}), destroy()}; throws when WebGL cannot start (figure.js shows
 * the message in place, as it does when this module or three.js cannot be loaded).
 */
export function createView3d(stage, { isActive, signal }) {
  // preserveDrawingBuffer: the picture stays readable after it is shown (tests, screenshots).
  const renderer = new WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
  renderer.setPixelRatio(Math.min(2, globalThis.devicePixelRatio || 1));
  renderer.setClearColor(0xffffff, 1);
  const canvas = renderer.domElement;
  canvas.className = 'fig-canvas';
  canvas.setAttribute('aria-hidden', 'true');
  stage.append(canvas);

  const scene = new Scene();
  const camera = new PerspectiveCamera(40, 1, 0.01, 1000);
  const group = new Group();
  scene.add(group);
  const orbit = { yaw: -0.6, pitch: 0.45, dist: 10, centre: new Vector3(), fitted: false };
  const disposables = [];
  const track = (o) => { disposables.push(o); return o; };

  function placeCamera() {
    const { yaw, pitch, dist, centre } = orbit;
    camera.position.set(centre.x + dist * Math.cos(pitch) * Math.sin(yaw), centre.y + dist * Math.sin(pitch), centre.z + dist * Math.cos(pitch) * Math.cos(yaw));
    camera.lookAt(centre);
    camera.updateProjectionMatrix();
  }
  const render = () => {
    placeCamera();
    for (const b of billboards) b.quaternion.copy(camera.quaternion);
    renderer.render(scene, camera);
  };

  function clearGroup() {
    for (const o of disposables.splice(0)) o.dispose();
    group.clear();
    billboards.length = 0;
  }

  const billboards = []; // the exit's ring, turned to face the camera on every render

  /** Draw the state: the box, the ray up to a length that shows the box, entry and exit. */
  function update({ ray, box, result }) {
    clearGroup();
    const centre = box.min.map((a, i) => (a + box.max[i]) / 2);
    const size = Math.max(1e-6, ...box.max.map((b, i) => b - box.min[i]));
    if (!orbit.fitted) {
      // Fit once (the reader's turning and zoom stay across updates): the box and the origin in view.
      const reach = Math.max(size, Math.hypot(...ray.origin.map((o, i) => o - centre[i])) + size / 2);
      orbit.centre.set(centre[0], centre[1], centre[2]);
      orbit.dist = Math.max(1, reach * 2.6);
      orbit.fitted = true;
    }
    const edges = track(new BufferGeometry());
    edges.setAttribute('position', new Float32BufferAttribute(boxEdges(box.min, box.max), 3));
    group.add(new LineSegments(edges, track(new LineBasicMaterial({ color: COLORS.box }))));
    // Which way the axes run: the box's three edges from its min corner, in the axes' colors.
    const e = (i) => box.min.map((m, k) => (k === i ? box.max[k] : m));
    ['x', 'y', 'z'].forEach((name, i) => group.add(...rod(track, box.min, e(i), COLORS[name], orbit.dist * 0.003, false)));
    const dlen = Math.hypot(...ray.dir) || 1;
    const toBox = Math.hypot(...ray.origin.map((o, i) => o - centre[i]));
    let tEnd = (toBox + size * 2) / dlen;
    if (result.hit) tEnd = Math.max(tEnd, result.t_exit * 1.25);
    tEnd = Math.min(tEnd, ray.tmax);
    const at = (t) => ray.origin.map((o, i) => o + t * ray.dir[i]);
    canvas.dataset.ray = result.hit ? 'solid' : 'dashed'; // for tests and styles: the 2D view's data-style
    const r = orbit.dist * 0.012;
    group.add(...rod(track, ray.origin, at(tEnd), COLORS.ray, orbit.dist * 0.0035, !result.hit), dot(track, ray.origin, COLORS.ray, r * 0.8));
    if (result.hit) {
      group.add(...rod(track, at(result.t_enter), at(result.t_exit), COLORS.overlap, orbit.dist * 0.006, false));
      group.add(dot(track, at(result.t_enter), COLORS.overlap, r), ring(track, billboards, at(result.t_exit), COLORS.overlap, r * 1.1));
    }
    render();
  }

  function resize(w, h) {
    renderer.setSize(w, h, false);
    camera.aspect = w / h;
    render();
  }

  listenOrbit(canvas, orbit, render, isActive, signal);

  return {
    canvas,
    resize,
    update,
    /** Free the GPU resources and the WebGL context, and remove the canvas. */
    destroy() {
      clearGroup();
      renderer.dispose();
      renderer.forceContextLoss();
      canvas.remove();
    },
  };
}
