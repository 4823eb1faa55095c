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
  BufferGeometry, Float32BufferAttribute, Group, Line, LineBasicMaterial, LineDashedMaterial, LineSegments, Mesh, MeshBasicMaterial, PerspectiveCamera, Scene, SphereGeometry, Vector3, WebGLRenderer,
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
  const render = () => { placeCamera(); renderer.render(scene, camera); };

  function clearGroup() {
    for (const o of disposables.splice(0)) o.dispose();
    group.clear();
  }

  function line(points, color, dashed, width = 1) {
    const geo = track(new BufferGeometry());
    geo.setAttribute('position', new Float32BufferAttribute(points, 3));
    const mat = track(dashed
      ? new LineDashedMaterial({ color, dashSize: 0.25 * orbit.dist / 10, gapSize: 0.18 * orbit.dist / 10, linewidth: width })
      : new LineBasicMaterial({ color, linewidth: width }));
    const l = new Line(geo, mat);
    if (dashed) l.computeLineDistances();
    return l;
  }

  function dot(p, color, r) {
    const geo = track(new SphereGeometry(r, 16, 12));
    const mat = track(new MeshBasicMaterial({ color }));
    const m = new Mesh(geo, mat);
    m.position.set(p[0], p[1], p[2]);
    return m;
  }

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
    const dlen = Math.hypot(...ray.dir) || 1;
    const toBox = Math.hypot(...ray.origin.map((o, i) => o - centre[i]));
    let tEnd = (toBox + size * 2) / dlen;
    if (result.hit) tEnd = Math.max(tEnd, result.t_exit * 1.25);
    tEnd = Math.min(tEnd, ray.tmax);
    const at = (t) => ray.origin.map((o, i) => o + t * ray.dir[i]);
    const rayLine = line([...ray.origin, ...at(tEnd)], COLORS.ray, !result.hit);
    canvas.dataset.ray = result.hit ? 'solid' : 'dashed'; // for tests and styles: the 2D view's data-style
    group.add(rayLine, dot(ray.origin, COLORS.ray, size * 0.035 + 0.02));
    if (result.hit) {
      group.add(dot(at(result.t_enter), COLORS.overlap, size * 0.05 + 0.03));
      group.add(dot(at(result.t_exit), 0xffffff, size * 0.05 + 0.03), dot(at(result.t_exit), COLORS.overlap, size * 0.03 + 0.02));
      group.add(line([...at(result.t_enter), ...at(result.t_exit)], COLORS.overlap, false, 3));
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
