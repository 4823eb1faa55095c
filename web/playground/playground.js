// The slabcast playground: a three.js scene of boxes, rotated boxes, spheres and a
// plane, with rays whose hits are computed by slabcast's WebAssembly core
// (sc.raycast for every ray x shape; three.js is only used to draw and to pick
// what the mouse grabs). Also: the slab method step by step, share links,
// case-file export/import and a stress mode on the batch world API.
//
// Parsed text (links, imported files, error messages) only ever reaches the page
// through textContent / attribute values, never innerHTML.

import * as THREE from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import { TransformControls } from 'three/addons/controls/TransformControls.js';
import { CSS2DObject, CSS2DRenderer } from 'three/addons/renderers/CSS2DRenderer.js';
import { Line2 } from 'three/addons/lines/Line2.js';
import { LineGeometry } from 'three/addons/lines/LineGeometry.js';
import { LineMaterial } from 'three/addons/lines/LineMaterial.js';
import { LineSegments2 } from 'three/addons/lines/LineSegments2.js';
import { LineSegmentsGeometry } from 'three/addons/lines/LineSegmentsGeometry.js';
import { loadSlabcast } from '../slabcast.js';
import { crossCheck, explainSlabs } from './slab.mjs';
import { $, el, fmt, num, vecEl, vecText } from './dom.js';
import { clearError, flash, initNotices, reportRefusals, showError } from './notices.js';
import {
  AX, AXIS_COLORS, LONG_NAME, PLANE_SIZE, RAY_DRAW_LENGTH, SELECTED_EDGE, SHAPE_COLORS, SHAPE_EDGE_COLORS,
  rayColor, rayName, shapeName as nameOfShape,
} from './look.js';
import { fv, rotatedShape, scaledShape, translatedShape } from './edits.js';
import { STEP_COUNT, stepText, verdictShort } from './tutorial-text.js';
import { slabChart } from './tutorial-chart.js';
import {
  MAX_RAYS, MAX_SHAPES, cloneState, decode, defaultState, encode, fromCaseFile, sameState, toCaseFile,
} from './state.mjs';

const f32 = Math.fround;
const shapeName = (i, s = state.shapes[i]) => nameOfShape(i, s);

// ------------------------------------------------------------------ page state

let sc = null;
let state = defaultState();
/** results[i][j]: sc.raycast(ray i, shape j) (or {hit: false, error}). */
let results = [];
/** nearest[i]: {shape: index or -1, result}. */
let nearest = [];
let gizmoMode = 'translate';
/** Whether the gizmo is shown on the selected shape (after a click on it; Escape or a click on empty space hides it). */
let gizmoShown = false;
let slabStep = 0;
let lastHash = '';
let stress = null;

// ------------------------------------------------------------------ notices

initNotices();

// ------------------------------------------------------------------ three.js setup

const view = $('view');
const renderer = new THREE.WebGLRenderer({ antialias: true, alpha: true });
renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2));
renderer.setClearColor(0x000000, 0);
renderer.toneMapping = THREE.NeutralToneMapping;
const canvas = renderer.domElement;
canvas.setAttribute('aria-label', '3D view of the scene');
canvas.tabIndex = 0;
view.prepend(canvas);

const labelRenderer = new CSS2DRenderer();
labelRenderer.domElement.className = 'labels';
canvas.after(labelRenderer.domElement);

const scene = new THREE.Scene();
// Plain lights (an environment map looks a little richer but costs seconds to
// prefilter on a software GL).
scene.add(new THREE.HemisphereLight(0xffffff, 0xb8c2cf, 1.9));
const sun = new THREE.DirectionalLight(0xffffff, 1.7);
sun.position.set(6, 12, 8);
scene.add(sun);
const fill = new THREE.DirectionalLight(0xdfe8ff, 0.6);
fill.position.set(-8, 4, -6);
scene.add(fill);

const camera = new THREE.PerspectiveCamera(42, 1, 0.05, 2000);
camera.position.set(4, 9, 15);

const sceneGroup = new THREE.Group(); // the normal scene (hidden in stress mode)
const shapeGroup = new THREE.Group();
const rayGroup = new THREE.Group();
const slabGroup = new THREE.Group();
sceneGroup.add(shapeGroup, rayGroup, slabGroup);
scene.add(sceneGroup);

// Gizmo first, then our own pointer handling, then orbiting: listeners on the canvas
// run in that order, so a grabbed gizmo or handle wins over orbiting.
const gizmo = new TransformControls(camera, canvas);
gizmo.setSize(0.65);
scene.add(gizmo.getHelper());

// Shared geometries.
const boxGeo = new THREE.BoxGeometry(1, 1, 1);
const boxEdges = new THREE.EdgesGeometry(boxGeo);
const sphereGeo = new THREE.SphereGeometry(1, 48, 32);
const handleGeo = new THREE.SphereGeometry(1, 24, 16);
const ringGeo = new THREE.TorusGeometry(1, 0.3, 10, 32);
const discGeo = new THREE.CylinderGeometry(1, 1, 0.25, 24);
const planeGeo = new THREE.PlaneGeometry(PLANE_SIZE, PLANE_SIZE);

/** Objects kept at a constant size on screen: [object, radius in CSS pixels]. */
let screenSized = [];

function lineMaterial(color, width, opts = {}) {
  return new LineMaterial({
    color: new THREE.Color(color),
    linewidth: width,
    transparent: opts.opacity !== undefined && opts.opacity < 1,
    opacity: opts.opacity ?? 1,
    dashed: !!opts.dashed,
    dashSize: opts.dashSize ?? 0.25,
    gapSize: opts.gapSize ?? 0.18,
    depthWrite: opts.depthWrite ?? true,
    depthTest: opts.depthTest ?? true,
    worldUnits: false,
  });
}

function makeLine(material) {
  const line = new Line2(new LineGeometry(), material);
  line.geometry.setPositions([0, 0, 0, 0, 0, 1]);
  line.computeLineDistances();
  line.frustumCulled = false;
  return line;
}

function setLine(line, a, b) {
  line.geometry.setPositions([a.x, a.y, a.z, b.x, b.y, b.z]);
  line.computeLineDistances();
}

function makeLabel(text, className, color) {
  const outer = document.createElement('div');
  const inner = el('span', { class: `label3d ${className}`, text });
  if (color) inner.style.background = color;
  outer.append(inner);
  const obj = new CSS2DObject(outer);
  obj.center.set(0.5, 1);
  obj.inner = inner;
  return obj;
}

// ------------------------------------------------------------------ shapes in 3D

/** entries[j] for state.shapes[j]: {type, obj (what the gizmo moves), mesh, edges, label, material}. */
let shapeEntries = [];

function disposeTree(obj) {
  obj.traverse((o) => {
    if (o.geometry && ![boxGeo, boxEdges, sphereGeo, handleGeo, ringGeo, discGeo, planeGeo].includes(o.geometry)) {
      o.geometry.dispose();
    }
    if (o.material) (Array.isArray(o.material) ? o.material : [o.material]).forEach((m) => m.dispose());
    if (o.isCSS2DObject) o.element.remove();
  });
}

function createShapeEntry(shape, j) {
  const obj = new THREE.Group();
  obj.userData.shapeIndex = j;
  const material = new THREE.MeshStandardMaterial({
    color: SHAPE_COLORS[shape.type],
    roughness: 0.55,
    metalness: 0.0,
    transparent: true,
    opacity: shape.type === 'plane' ? 0.28 : 0.5,
    depthWrite: false,
    side: THREE.DoubleSide,
  });
  let mesh;
  let edges = null;
  if (shape.type === 'aabb' || shape.type === 'obb') {
    mesh = new THREE.Mesh(boxGeo, material);
    const geo = new LineSegmentsGeometry().fromEdgesGeometry(boxEdges);
    edges = new LineSegments2(geo, lineMaterial(SHAPE_EDGE_COLORS[shape.type], 1.6));
    obj.add(edges);
  } else if (shape.type === 'sphere') {
    mesh = new THREE.Mesh(sphereGeo, material);
  } else {
    mesh = new THREE.Mesh(planeGeo, material);
    const grid = new THREE.GridHelper(PLANE_SIZE, PLANE_SIZE, 0xb8955a, 0xcfb98c);
    grid.rotation.x = Math.PI / 2; // the grid helper lies in x-z; the plane's normal is local +z
    grid.material.transparent = true;
    grid.material.opacity = 0.55;
    grid.material.depthWrite = false;
    obj.add(grid);
    mesh.renderOrder = -1;
  }
  mesh.userData.shapeIndex = j;
  obj.add(mesh);
  const label = makeLabel(shapeName(j, shape), 'shape');
  scene.add(label); // positioned by hand (not scaled with the shape)
  shapeGroup.add(obj);
  return { type: shape.type, obj, mesh, edges, label, material };
}

const _m = new THREE.Matrix4();
const _v = new THREE.Vector3();
const _v2 = new THREE.Vector3();
const _q = new THREE.Quaternion();
const Z = new THREE.Vector3(0, 0, 1);

/** Place entry j's object from state.shapes[j] (the float32 numbers are the truth). */
function placeShape(j) {
  const s = state.shapes[j];
  const e = shapeEntries[j];
  const { obj } = e;
  const tiny = 1e-4; // a zero-size box or sphere is valid; keep its matrix invertible
  if (s.type === 'aabb') {
    obj.position.set((s.min[0] + s.max[0]) / 2, (s.min[1] + s.max[1]) / 2, (s.min[2] + s.max[2]) / 2);
    obj.quaternion.identity();
    obj.scale.set(Math.max(s.max[0] - s.min[0], tiny), Math.max(s.max[1] - s.min[1], tiny), Math.max(s.max[2] - s.min[2], tiny));
    e.label.position.set(obj.position.x, s.max[1], obj.position.z);
  } else if (s.type === 'obb') {
    obj.position.fromArray(s.center);
    const a = s.axes.map((v) => new THREE.Vector3().fromArray(v));
    // A left-handed set of axes describes the same box with one axis flipped.
    if (a[0].clone().cross(a[1]).dot(a[2]) < 0) a[2].negate();
    _m.makeBasis(a[0].normalize(), a[1].normalize(), a[2].normalize());
    obj.quaternion.setFromRotationMatrix(_m);
    obj.scale.set(Math.max(2 * s.half[0], tiny), Math.max(2 * s.half[1], tiny), Math.max(2 * s.half[2], tiny));
    const up = Math.abs(s.axes[0][1]) * s.half[0] + Math.abs(s.axes[1][1]) * s.half[1] + Math.abs(s.axes[2][1]) * s.half[2];
    e.label.position.set(s.center[0], s.center[1] + up, s.center[2]);
  } else if (s.type === 'sphere') {
    obj.position.fromArray(s.center);
    obj.quaternion.identity();
    const r = Math.max(s.radius, tiny);
    obj.scale.set(r, r, r);
    e.label.position.set(s.center[0], s.center[1] + s.radius, s.center[2]);
  } else {
    const n = new THREE.Vector3().fromArray(s.normal);
    const len2 = n.lengthSq();
    obj.position.copy(n).multiplyScalar(s.d / len2);
    obj.quaternion.setFromUnitVectors(Z, n.normalize());
    obj.scale.set(1, 1, 1);
    e.label.position.copy(obj.position);
  }
  const selected = state.selected.shape === j;
  if (e.edges) e.edges.material.color.set(selected ? SELECTED_EDGE : SHAPE_EDGE_COLORS[s.type]);
  if (e.edges) e.edges.material.linewidth = selected ? 2.6 : 1.6;
  e.material.emissive.set(selected ? 0x3a2408 : 0x000000);
  e.label.inner.textContent = shapeName(j);
  e.label.inner.classList.toggle('selected', selected);
}

function rebuildShapes() {
  gizmo.detach();
  for (const e of shapeEntries) {
    shapeGroup.remove(e.obj);
    scene.remove(e.label);
    disposeTree(e.obj);
    disposeTree(e.label);
  }
  shapeEntries = state.shapes.map((s, j) => createShapeEntry(s, j));
  state.shapes.forEach((_, j) => placeShape(j));
}

// ------------------------------------------------------------------ rays in 3D

/** rayEntries[i]: the objects of ray i. */
let rayEntries = [];

function createRayEntry(i) {
  const color = rayColor(i);
  const group = new THREE.Group();
  const c = new THREE.Color(color);
  const origin = new THREE.Mesh(handleGeo, new THREE.MeshStandardMaterial({ color: c, roughness: 0.35 }));
  const tipColor = c.clone().lerp(new THREE.Color(0xffffff), 0.6);
  const tip = new THREE.Mesh(handleGeo, new THREE.MeshStandardMaterial({ color: tipColor, roughness: 0.35 }));
  const tipRim = new THREE.Mesh(handleGeo, new THREE.MeshBasicMaterial({ color: c, side: THREE.BackSide }));
  tipRim.scale.setScalar(1.3);
  tip.add(tipRim);
  for (const [h, kind] of [[origin, 'origin'], [tip, 'tip']]) {
    h.userData.handle = { kind, ray: i };
    // A bigger invisible sphere makes the handle easy to grab.
    const picker = new THREE.Mesh(handleGeo, new THREE.MeshBasicMaterial({ visible: false }));
    picker.scale.setScalar(1.9);
    picker.userData.handle = h.userData.handle;
    h.add(picker);
    h.userData.picker = picker;
  }
  const solid = makeLine(lineMaterial(color, 4));
  const rest = makeLine(lineMaterial(color, 2.2, { dashed: true, opacity: 0.55, dashSize: 0.22, gapSize: 0.16 }));
  const hitMarker = new THREE.Mesh(handleGeo, new THREE.MeshStandardMaterial({ color: 0xffffff, roughness: 0.3, emissive: 0x333333 }));
  const hitRim = new THREE.Mesh(handleGeo, new THREE.MeshBasicMaterial({ color: 0x1f2933, side: THREE.BackSide }));
  hitRim.scale.setScalar(1.35);
  hitMarker.add(hitRim);
  const normal = new THREE.ArrowHelper(new THREE.Vector3(0, 1, 0), new THREE.Vector3(), 0.8, 0x1f2933, 0.22, 0.12);
  const enter = new THREE.Mesh(ringGeo, new THREE.MeshBasicMaterial({ color: 0x1f2933 }));
  const exit = new THREE.Mesh(ringGeo, new THREE.MeshBasicMaterial({ color: 0x97a3af }));
  const tmax = new THREE.Mesh(discGeo, new THREE.MeshStandardMaterial({ color: 0x44505c }));
  const label = makeLabel(rayName(i), 'ray', color);
  group.add(solid, rest, origin, tip, hitMarker, normal, enter, exit, tmax, label);
  rayGroup.add(group);
  return { group, origin, tip, solid, rest, hitMarker, normal, enter, exit, tmax, label };
}

function rebuildRays() {
  for (const e of rayEntries) {
    rayGroup.remove(e.group);
    disposeTree(e.group);
  }
  rayEntries = state.rays.map((_, i) => createRayEntry(i));
}

const vec3 = (a) => new THREE.Vector3(a[0], a[1], a[2]);
const along = (ray, t) => vec3(ray.origin).addScaledVector(vec3(ray.dir), t);

/** Orient a ring / disc (whose axis is local y for the disc, z for the torus) along the ray. */
function orientAlong(obj, dir, axis) {
  obj.quaternion.setFromUnitVectors(axis, vec3(dir).normalize());
}

function placeRay(i) {
  const ray = state.rays[i];
  const e = rayEntries[i];
  const n = nearest[i] ?? { shape: -1, result: { hit: false } };
  const r = n.result;
  const dirLen = Math.hypot(ray.dir[0], ray.dir[1], ray.dir[2]);
  const origin = vec3(ray.origin);
  e.origin.position.copy(origin);
  e.tip.position.copy(along(ray, 1));
  // Drawn length: to the hit, then a dimmer stretch; a miss is all dim, up to tmax.
  const tDraw = Math.min(ray.tmax, Math.max(RAY_DRAW_LENGTH / dirLen, r.hit ? r.t * 1.15 + 1 / dirLen : 0));
  if (r.hit) {
    const p = vec3(r.point);
    e.solid.visible = r.t > 0;
    if (r.t > 0) setLine(e.solid, origin, p);
    e.rest.visible = tDraw > r.t;
    if (tDraw > r.t) setLine(e.rest, p, along(ray, tDraw));
    e.hitMarker.visible = true;
    e.hitMarker.position.copy(p);
    const nv = vec3(r.normal);
    e.normal.visible = nv.lengthSq() > 0;
    if (e.normal.visible) {
      e.normal.position.copy(p);
      e.normal.setDirection(nv.normalize());
    }
    // Entry and exit of the whole line's interval, where they lie on the ray (t >= 0).
    const showT = (m, t) => {
      m.visible = Number.isFinite(t) && t >= 0;
      if (m.visible) {
        m.position.copy(along(ray, t));
        orientAlong(m, ray.dir, Z);
      }
    };
    showT(e.enter, r.t_enter);
    showT(e.exit, r.t_exit);
  } else {
    e.solid.visible = false;
    e.rest.visible = true;
    setLine(e.rest, origin, along(ray, tDraw));
    e.hitMarker.visible = false;
    e.normal.visible = false;
    e.enter.visible = false;
    e.exit.visible = false;
  }
  e.tmax.visible = Number.isFinite(ray.tmax);
  if (e.tmax.visible) {
    e.tmax.position.copy(along(ray, ray.tmax));
    orientAlong(e.tmax, ray.dir, new THREE.Vector3(0, 1, 0));
  }
  const selected = state.selected.ray === i;
  e.solid.material.linewidth = selected ? 5.5 : 4;
  e.label.position.copy(origin);
  e.label.inner.textContent = rayName(i);
  e.label.inner.classList.toggle('selected', selected);
}

function registerScreenSized() {
  screenSized = [];
  for (const e of rayEntries) {
    screenSized.push([e.origin, 7], [e.tip, 5.5], [e.hitMarker, 5], [e.enter, 6], [e.exit, 6], [e.tmax, 7]);
  }
  for (const m of slabMarkers) screenSized.push([m, 4]);
}

// ------------------------------------------------------------------ the hits (slabcast)

function rayArg(ray) {
  return { origin: ray.origin, dir: ray.dir, tmax: ray.tmax };
}

/** Every ray x shape through sc.raycast; the nearest per ray by t, ties to the lowest index. */
function computeHits() {
  const problems = [];
  results = state.rays.map((ray, i) => state.shapes.map((shape, j) => {
    try {
      return sc.raycast(rayArg(ray), shape);
    } catch (e) {
      problems.push(`${rayName(i)} × ${shapeName(j)}: ${e.message}`);
      return { hit: false, error: e.message };
    }
  }));
  nearest = results.map((row) => {
    let best = -1;
    row.forEach((r, j) => {
      if (r.hit && (best < 0 || r.t < row[best].t)) best = j;
    });
    return { shape: best, result: best >= 0 ? row[best] : { hit: false } };
  });
  return problems;
}

// ------------------------------------------------------------------ hit list

function renderHitList() {
  const list = $('hit-list');
  const items = state.rays.map((ray, i) => {
    const n = nearest[i];
    const r = n.result;
    const li = el('li', { class: `hit-item${state.selected.ray === i ? ' selected' : ''}`, 'data-ray': String(i) });
    li.style.borderLeftColor = rayColor(i);
    const head = el('div', { class: 'hit-head' },
      el('span', { class: 'ray-name', text: rayName(i) }),
      el('span', { class: 'arrow', text: '→' }),
      r.hit ? el('span', { class: 'target', text: shapeName(n.shape), 'data-testid': `hit-target-${i}` })
        : el('span', { class: 'target miss', text: 'miss', 'data-testid': `hit-target-${i}` }));
    const del = el('button', { class: 'tool danger', text: '×', title: `Delete ${rayName(i)}`, 'aria-label': `Delete ${rayName(i)}` });
    del.style.marginLeft = 'auto';
    del.style.padding = '0 6px';
    del.addEventListener('click', (ev) => { ev.stopPropagation(); deleteRay(i); });
    head.append(del);
    li.append(head);
    const dl = el('dl', { class: 'nums' });
    const pair = (name, value, wide = false) => {
      dl.append(el('dt', { class: wide ? 'wide' : '', text: name }), el('dd', { class: wide ? 'wide' : '' }, value));
    };
    if (r.hit) {
      pair('t', num(r.t));
      pair('t_enter', num(r.t_enter));
      pair('t_exit', num(r.t_exit));
      pair('point', vecEl(r.point), true);
      pair('normal', vecEl(r.normal), true);
    }
    const def = el('span', { class: 'muted-def' });
    def.append('from ', vecEl(ray.origin), ' dir ', vecEl(ray.dir));
    if (Number.isFinite(ray.tmax)) def.append(' tmax ', num(ray.tmax));
    pair('ray', def, true);
    dl.lastChild.style.color = 'var(--muted)';
    li.append(dl);
    li.addEventListener('click', () => selectRay(i));
    return li;
  });
  if (items.length === 0) items.push(el('li', { class: 'slab-empty', text: 'No rays: add one with “+ Ray”.' }));
  list.replaceChildren(...items);
}

// ------------------------------------------------------------------ slab panel

/** Markers (t1/t2 dots) and lines of the slab visual; rebuilt with the panel. */
let slabMarkers = [];
let slabLines = [];
let slabVisual = null;

function clearSlabVisual() {
  for (const c of [...slabGroup.children]) {
    slabGroup.remove(c);
    disposeTree(c);
  }
  slabMarkers = [];
  slabLines = [];
  slabVisual = null;
}

/** The selected ray and box, with the explanation, or a reason why there is none. */
function slabSubject() {
  const i = state.selected.ray;
  const j = state.selected.shape;
  if (i < 0 || i >= state.rays.length) return { why: 'Select a ray (click it in the hit list or pick one above).' };
  if (j < 0 || j >= state.shapes.length) return { why: 'Select a box (click one in the view, or pick it above).' };
  const shape = state.shapes[j];
  if (shape.type !== 'aabb' && shape.type !== 'obb') {
    return { why: `The slab method is how rays meet boxes. ${shapeName(j)} is a ${LONG_NAME[shape.type]}: pick a box to see it step by step.` };
  }
  const ray = state.rays[i];
  return { i, j, ray, shape, ex: explainSlabs(ray, shape), result: results[i]?.[j] };
}

function renderSlabSelectors() {
  const rs = $('slab-ray');
  const ss = $('slab-shape');
  rs.replaceChildren(...state.rays.map((_, i) => el('option', { value: String(i), text: rayName(i) })));
  ss.replaceChildren(el('option', { value: '-1', text: '(none)' }),
    ...state.shapes.map((s, j) => el('option', { value: String(j), text: shapeName(j) })));
  rs.value = String(state.selected.ray);
  ss.value = String(state.selected.shape);
}

function renderSlabPanel() {
  renderSlabSelectors();
  const body = $('slab-body');
  const warn = $('slab-warning');
  const sub = slabSubject();
  clearSlabVisual();
  if (!sub.ex) {
    body.replaceChildren(el('p', { class: 'slab-empty', text: sub.why }));
    warn.hidden = true;
    $('slab-stepper').hidden = true;
    $('slab-step').replaceChildren();
    $('slab-count').textContent = '';
    $('slab-back').disabled = true;
    $('slab-next').disabled = true;
    return;
  }
  const { ex, result } = sub;
  const frame = el('p', { class: 'slab-frame' });
  frame.textContent = ex.frame === 'box'
    ? `${rayName(sub.i)} against ${shapeName(sub.j)}, in the box's own frame (origin ${vecText(ex.o)}, dir ${vecText(ex.d)} along its axes)`
    : `${rayName(sub.i)} against ${shapeName(sub.j)}, in world coordinates`;

  const table = el('table', { class: 'slab-table' });
  table.append(el('thead', {}, el('tr', {},
    el('th', { text: 'slab' }), el('th', { text: 'planes' }), el('th', { text: 'inside for t in' }), el('th', { text: '' }))));
  const tbody = el('tbody');
  ex.axes.forEach((a, i) => {
    const tr = el('tr', { class: slabStep === i + 1 ? 'current' : '', 'data-axis': AX[i] });
    const planes = el('td', { class: 'mono' });
    planes.append(num(a.lo), ' … ', num(a.hi));
    const interval = el('td', { class: 'mono', 'data-testid': `slab-interval-${AX[i]}` });
    if (a.near === null) interval.append('never');
    else interval.append('[', num(a.near), ', ', num(a.far), ']');
    const note = el('td', {
      class: 'mono',
      text: a.parallel ? (a.inside ? 'parallel, inside' : 'parallel, outside') : a.d > 0 ? 'dir +' : 'dir −',
    });
    note.style.color = 'var(--muted)';
    tr.append(el('td', {}, el('span', { class: `axis-chip axis-${i}`, text: ex.frame === 'box' ? `${AX[i]}′` : AX[i] })), planes, interval, note);
    tbody.append(tr);
  });
  table.append(tbody);

  const summary = el('dl', { class: 'slab-summary' });
  const entry = el('dd', { 'data-testid': 'slab-enter' });
  entry.append(num(ex.tEnter), ex.enterAxis >= 0 ? ` (${AX[ex.enterAxis]})` : '');
  const exitDd = el('dd', { 'data-testid': 'slab-exit' });
  exitDd.append(num(ex.tExit), ex.exitAxis >= 0 ? ` (${AX[ex.exitAxis]})` : '');
  summary.append(el('dt', { text: 'largest entry' }), entry, el('dt', { text: 'smallest exit' }), exitDd,
    el('dt', { text: 'ray range' }), el('dd', { text: `[0, ${Number.isFinite(ex.tmax) ? fmt(ex.tmax) : '∞'}]` }));

  const [kind, why] = verdictShort(ex);
  const verdict = el('div', { class: `verdict ${kind}`, 'data-testid': 'slab-verdict', 'data-verdict': kind },
    el('b', { text: kind === 'hit' ? 'Hit' : 'Miss' }), why);

  const flags = el('div', { class: 'flags', 'data-testid': 'slab-flags' });
  for (const a of ex.axes) {
    if (a.parallel) {
      flags.append(el('span', { class: 'flag', 'data-flag': 'parallel', text: `parallel ${AX[a.axis]}: origin ${a.inside ? 'inside' : 'outside'} the slab` }));
    }
  }
  if (ex.flags.originInside) flags.append(el('span', { class: 'flag', 'data-flag': 'origin-inside', text: 'origin inside the box' }));
  if (ex.flags.originOnSurface) flags.append(el('span', { class: 'flag', 'data-flag': 'origin-on-surface', text: 'origin on the surface' }));
  if (ex.flags.grazing) flags.append(el('span', { class: 'flag', 'data-flag': 'grazing', text: 'grazing: t_enter = t_exit' }));

  body.replaceChildren(frame, table, slabChart(ex), summary, verdict, flags.childElementCount ? flags : '');

  // Cross-check with slabcast itself.
  let problem = null;
  if (result && result.error) problem = `slabcast refuses this box: ${result.error}`;
  else {
    const c = crossCheck(ex, result);
    if (c) problem = `The step-by-step numbers and slabcast disagree: ${c}. Please export the case file and report it.`;
  }
  warn.hidden = problem === null;
  warn.textContent = problem ?? '';

  $('slab-stepper').hidden = false;
  const [title, text] = stepText(slabStep, sub);
  const stepEl = $('slab-step');
  stepEl.replaceChildren(el('span', { class: 'step-title', text: title }), text);
  stepEl.dataset.step = String(slabStep);
  $('slab-count').textContent = `${slabStep + 1} / ${STEP_COUNT}`;
  $('slab-back').disabled = slabStep === 0;
  $('slab-next').disabled = slabStep === STEP_COUNT - 1;

  if ($('slab-3d').checked) buildSlabVisual(sub);
}

/** The coloured t intervals along the ray (and the current slab's planes) in 3D. */
function buildSlabVisual(sub) {
  const { ex, ray, shape } = sub;
  const dirLen = Math.hypot(...ray.dir);
  const finite = [0];
  for (const a of ex.axes) for (const v of [a.near, a.far]) if (v !== null && Number.isFinite(v)) finite.push(v);
  const tLo = Math.max(Math.min(...finite) - 1.5 / dirLen, -40 / dirLen);
  const tHi = Math.min(Math.max(...finite, RAY_DRAW_LENGTH / dirLen * 0.6) + 1.5 / dirLen, 60 / dirLen);
  const clip = (t) => Math.min(Math.max(t, tLo), tHi);
  const showAxis = (i) => slabStep === 0 || slabStep > 3 || slabStep >= i + 1;
  const lines = [];
  ex.axes.forEach((a, i) => {
    if (a.near === null || !showAxis(i)) return;
    const line = makeLine(lineMaterial(AXIS_COLORS[i], slabStep === i + 1 ? 7 : 5, { depthTest: false, opacity: 0.95 }));
    line.renderOrder = 5;
    slabGroup.add(line);
    lines.push({ line, t0: clip(a.near), t1: clip(a.far), offset: i + 1 });
    if (!a.parallel) {
      for (const t of [a.t1, a.t2]) {
        if (t < tLo || t > tHi) continue;
        const dot = new THREE.Mesh(handleGeo, new THREE.MeshBasicMaterial({ color: AXIS_COLORS[i], depthTest: false }));
        dot.renderOrder = 6;
        dot.userData.t = t;
        dot.userData.offset = i + 1;
        slabGroup.add(dot);
        slabMarkers.push(dot);
      }
    }
  });
  if (slabStep >= 4 && ex.overlap) {
    const line = makeLine(lineMaterial('#1f2933', 5, { depthTest: false }));
    line.renderOrder = 5;
    slabGroup.add(line);
    lines.push({ line, t0: clip(ex.tEnter), t1: clip(ex.tExit), offset: 4 });
  }
  // Faint backward extension of the line, so negative t has somewhere to be.
  if (tLo < 0) {
    const back = makeLine(lineMaterial(rayColor(sub.i), 1.5, { dashed: true, opacity: 0.35, dashSize: 0.1, gapSize: 0.12 }));
    slabGroup.add(back);
    lines.push({ line: back, t0: tLo, t1: 0, offset: 0 });
  }
  // The two planes of the current slab.
  if (slabStep >= 1 && slabStep <= 3) addSlabPlanes(shape, slabStep - 1, ex);
  slabLines = lines;
  slabVisual = { ray, dirLen };
  registerScreenSized();
}

function addSlabPlanes(shape, axis, ex) {
  let center;
  let quat = new THREE.Quaternion();
  let half;
  if (shape.type === 'aabb') {
    center = new THREE.Vector3((shape.min[0] + shape.max[0]) / 2, (shape.min[1] + shape.max[1]) / 2, (shape.min[2] + shape.max[2]) / 2);
    half = [0, 1, 2].map((k) => (shape.max[k] - shape.min[k]) / 2);
  } else {
    center = vec3(shape.center);
    quat = shapeEntries[state.selected.shape].obj.quaternion.clone();
    half = shape.half.slice();
  }
  const margin = Math.max(0.8, 0.6 * Math.max(...half));
  const group = new THREE.Group();
  group.position.copy(center);
  group.quaternion.copy(quat);
  const others = [0, 1, 2].filter((k) => k !== axis);
  for (const side of [-1, 1]) {
    const mat = new THREE.MeshBasicMaterial({
      color: AXIS_COLORS[axis], transparent: true, opacity: 0.16, side: THREE.DoubleSide, depthWrite: false,
    });
    const quad = new THREE.Mesh(new THREE.PlaneGeometry(1, 1), mat);
    // PlaneGeometry spans local x-y with normal z: turn it so its normal is the slab axis.
    if (axis === 0) quad.rotation.y = Math.PI / 2;
    else if (axis === 1) quad.rotation.x = Math.PI / 2;
    const size = others.map((k) => 2 * half[k] + 2 * margin);
    // after the rotation the quad's local x/y map to the two other axes in order
    if (axis === 0) quad.scale.set(size[1], size[0], 1);
    else quad.scale.set(size[0], size[1], 1);
    quad.position.setComponent(axis, side * half[axis]);
    group.add(quad);
    const edge = new THREE.LineSegments(new THREE.EdgesGeometry(new THREE.PlaneGeometry(1, 1)),
      new THREE.LineBasicMaterial({ color: AXIS_COLORS[axis], transparent: true, opacity: 0.55 }));
    edge.rotation.copy(quad.rotation);
    edge.scale.copy(quad.scale);
    edge.position.copy(quad.position);
    group.add(edge);
  }
  slabGroup.add(group);
  void ex;
}

/** Screen-space offsets of the slab lines (they sit side by side next to the ray). */
function placeSlabVisual() {
  if (!slabVisual) return;
  const { ray } = slabVisual;
  const dir = vec3(ray.dir).normalize();
  const camDir = new THREE.Vector3();
  camera.getWorldDirection(camDir);
  const side = new THREE.Vector3().crossVectors(dir, camDir);
  if (side.lengthSq() < 1e-8) side.set(1, 0, 0).cross(dir);
  side.normalize();
  const mid = along(ray, 0);
  const perPx = worldPerPixel(mid);
  for (const { line, t0, t1, offset } of slabLines) {
    const off = side.clone().multiplyScalar(offset * 7 * perPx);
    setLine(line, along(ray, t0).add(off), along(ray, t1).add(off));
  }
  for (const m of slabMarkers) {
    m.position.copy(along(ray, m.userData.t)).addScaledVector(side, m.userData.offset * 7 * worldPerPixel(m.position));
  }
}

$('slab-back').addEventListener('click', () => { slabStep = Math.max(0, slabStep - 1); renderSlabPanel(); requestRender(); });
$('slab-next').addEventListener('click', () => { slabStep = Math.min(STEP_COUNT - 1, slabStep + 1); renderSlabPanel(); requestRender(); });
$('slab-3d').addEventListener('change', () => { renderSlabPanel(); requestRender(); });
$('slab-ray').addEventListener('change', (e) => selectRay(Number(e.target.value)));
$('slab-shape').addEventListener('change', (e) => selectShape(Number(e.target.value), { showGizmo: gizmoShown }));

// ------------------------------------------------------------------ rendering

function worldPerPixel(pos) {
  const h = canvas.clientHeight || 1;
  const dist = _v2.copy(pos).sub(camera.position).length();
  return (2 * dist * Math.tan(THREE.MathUtils.degToRad(camera.fov / 2))) / h;
}

let renderPending = false;
function requestRender() {
  if (renderPending) return;
  renderPending = true;
  requestAnimationFrame(() => {
    renderPending = false;
    renderNow();
  });
}

function renderNow() {
  placeSlabVisual();
  for (const [obj, px] of screenSized) {
    if (!obj.visible) continue;
    obj.getWorldPosition(_v);
    obj.scale.setScalar(px * worldPerPixel(_v));
  }
  if (stress) placeStressHandle();
  renderer.render(scene, camera);
  labelRenderer.render(scene, camera);
}

function resize() {
  const w = Math.max(view.clientWidth, 1);
  const h = Math.max(view.clientHeight, 1);
  renderer.setSize(w, h, false);
  labelRenderer.setSize(w, h);
  camera.aspect = w / h;
  camera.updateProjectionMatrix();
  renderNow();
}
new ResizeObserver(resize).observe(view);

// ------------------------------------------------------------------ camera

const orbitHolder = { orbit: null };

/** Frame the scene: every box and sphere, every ray's origin and tip. */
function fitCamera() {
  const box = new THREE.Box3();
  for (const s of state.shapes) {
    if (s.type === 'aabb') box.expandByPoint(vec3(s.min)).expandByPoint(vec3(s.max));
    else if (s.type === 'obb') {
      const r = Math.hypot(...s.half);
      box.expandByPoint(vec3(s.center).addScalar(r)).expandByPoint(vec3(s.center).addScalar(-r));
    } else if (s.type === 'sphere') {
      box.expandByPoint(vec3(s.center).addScalar(s.radius)).expandByPoint(vec3(s.center).addScalar(-s.radius));
    }
  }
  for (const r of state.rays) box.expandByPoint(vec3(r.origin)).expandByPoint(along(r, 1));
  if (box.isEmpty()) box.set(new THREE.Vector3(-3, -3, -3), new THREE.Vector3(3, 3, 3));
  const sphere = box.getBoundingSphere(new THREE.Sphere());
  const radius = Math.min(Math.max(sphere.radius, 2), 1e4);
  const fov = THREE.MathUtils.degToRad(camera.fov);
  const fit = Math.min(fov, 2 * Math.atan(Math.tan(fov / 2) * camera.aspect));
  const dist = (radius / Math.sin(fit / 2)) * 0.85;
  const dirn = new THREE.Vector3(0.22, 0.5, 1).normalize();
  camera.position.copy(sphere.center).addScaledVector(dirn, dist);
  camera.near = Math.max(dist / 500, 0.01);
  camera.far = dist * 20;
  camera.updateProjectionMatrix();
  if (orbitHolder.orbit) {
    orbitHolder.orbit.target.copy(sphere.center);
    orbitHolder.orbit.update();
  } else {
    camera.lookAt(sphere.center);
  }
}

// ------------------------------------------------------------------ picking and dragging

const raycaster = new THREE.Raycaster();
const ndc = new THREE.Vector2();

function setNdc(e) {
  const rect = canvas.getBoundingClientRect();
  ndc.set(((e.clientX - rect.left) / rect.width) * 2 - 1, -((e.clientY - rect.top) / rect.height) * 2 + 1);
  raycaster.setFromCamera(ndc, camera);
}

function pickHandle(e) {
  setNdc(e);
  const pickers = [];
  if (stress) pickers.push(stress.handle.userData.picker);
  else for (const r of rayEntries) pickers.push(r.origin.userData.picker, r.tip.userData.picker);
  const hit = raycaster.intersectObjects(pickers, false)[0];
  return hit ? hit.object.userData.handle : null;
}

function pickShape(e) {
  setNdc(e);
  const meshes = shapeEntries.map((s) => s.mesh);
  const hits = raycaster.intersectObjects(meshes, false);
  // A solid in front wins over the plane behind it; the plane only when nothing else is hit.
  const solid = hits.find((h) => state.shapes[h.object.userData.shapeIndex].type !== 'plane');
  const hit = solid ?? hits[0];
  return hit ? { index: hit.object.userData.shapeIndex, point: hit.point } : null;
}

/** The current drag: {kind: 'origin'|'tip'|'shape'|'stress', ...}. */
let drag = null;

function dragPlaneThrough(point) {
  const n = new THREE.Vector3();
  camera.getWorldDirection(n);
  return new THREE.Plane().setFromNormalAndCoplanarPoint(n, point);
}

function pointOnDragPlane(e) {
  setNdc(e);
  const p = new THREE.Vector3();
  return raycaster.ray.intersectPlane(drag.plane, p) ? p : null;
}

// Capture phase on the view: ray handles are grabbed before the gizmo and the orbit see the event.
view.addEventListener('pointerdown', (e) => {
  if (e.target !== canvas || e.button !== 0 || !sc) return;
  const handle = pickHandle(e);
  if (!handle) return;
  e.stopPropagation();
  e.preventDefault();
  let start;
  if (handle.kind === 'stress') start = stress.handle.position.clone();
  else {
    const ray = state.rays[handle.ray];
    start = handle.kind === 'origin' ? vec3(ray.origin) : along(ray, 1);
  }
  drag = { ...handle, pointerId: e.pointerId, plane: dragPlaneThrough(start), start };
  const grab = pointOnDragPlane(e);
  drag.grabOffset = grab ? start.clone().sub(grab) : new THREE.Vector3();
  if (handle.kind !== 'stress' && state.selected.ray !== handle.ray) {
    state.selected.ray = handle.ray;
    update({ rays: false });
  }
  try { canvas.setPointerCapture(e.pointerId); } catch { /* not essential */ }
  canvas.style.cursor = 'grabbing';
}, true);

// Bubble phase on the canvas, after the gizmo: a click on a shape selects it (and drags it in move mode).
canvas.addEventListener('pointerdown', (e) => {
  if (e.button !== 0 || !sc || stress || gizmo.dragging) return;
  const hit = pickShape(e);
  if (!hit) {
    drag = { kind: 'maybe-deselect', x: e.clientX, y: e.clientY };
    return;
  }
  e.stopImmediatePropagation(); // no orbiting
  if (state.selected.shape !== hit.index || !gizmoShown) selectShape(hit.index);
  if (gizmoMode === 'translate') {
    drag = {
      kind: 'shape', index: hit.index, pointerId: e.pointerId, plane: dragPlaneThrough(hit.point),
      start: hit.point.clone(), shape0: cloneState(state.shapes[hit.index]), moved: false,
    };
    try { canvas.setPointerCapture(e.pointerId); } catch { /* not essential */ }
  }
});

window.addEventListener('pointermove', (e) => {
  if (!drag) {
    if (sc && e.target === canvas && !gizmo.dragging) {
      canvas.style.cursor = pickHandle(e) ? 'grab' : '';
    }
    return;
  }
  if (drag.kind === 'maybe-deselect') return;
  const p = pointOnDragPlane(e);
  if (!p) return;
  if (drag.kind === 'origin' || drag.kind === 'tip') {
    p.add(drag.grabOffset);
    const ray = state.rays[drag.ray];
    if (drag.kind === 'origin') {
      ray.origin = [f32(p.x), f32(p.y), f32(p.z)];
    } else {
      const d = [f32(p.x - ray.origin[0]), f32(p.y - ray.origin[1]), f32(p.z - ray.origin[2])];
      if (d.every((x) => x === 0)) return; // a zero direction is not a ray
      ray.dir = d;
    }
    update({ shapes: false, live: true });
  } else if (drag.kind === 'shape') {
    const delta = p.sub(drag.start);
    state.shapes[drag.index] = translatedShape(drag.shape0, delta);
    drag.moved = true;
    update({ live: true });
  } else if (drag.kind === 'stress') {
    p.add(drag.grabOffset);
    moveStressCluster(p);
  }
});

function endDrag(e) {
  if (!drag) return;
  const d = drag;
  drag = null;
  canvas.style.cursor = '';
  try { canvas.releasePointerCapture(e.pointerId); } catch { /* fine */ }
  if (d.kind === 'maybe-deselect') {
    // A click (no drag) on empty space puts the gizmo away (the shape stays selected for the slab panel).
    if (Math.hypot(e.clientX - d.x, e.clientY - d.y) < 4 && gizmoShown) hideGizmo();
    return;
  }
  if (d.kind !== 'stress') commitHash();
}
window.addEventListener('pointerup', endDrag);
window.addEventListener('pointercancel', endDrag);

const orbit = new OrbitControls(camera, canvas);
orbitHolder.orbit = orbit;
orbit.enableDamping = false;
orbit.addEventListener('change', requestRender);

// ------------------------------------------------------------------ shape edits (float32 all the way)

let gizmoStart = null;
gizmo.addEventListener('mouseDown', () => {
  const j = state.selected.shape;
  gizmoStart = j >= 0 ? { index: j, shape: cloneState(state.shapes[j]), position: gizmo.object.position.clone() } : null;
});
gizmo.addEventListener('dragging-changed', (e) => {
  orbit.enabled = !e.value;
  if (!e.value) {
    gizmoStart = null;
    commitHash();
  }
});
gizmo.addEventListener('change', requestRender);
gizmo.addEventListener('objectChange', () => {
  if (!gizmoStart) return;
  const { index, shape: s0, position } = gizmoStart;
  const obj = shapeEntries[index].obj;
  let s = cloneState(s0);
  if (gizmo.mode === 'translate') s = translatedShape(s0, obj.position.clone().sub(position));
  else if (gizmo.mode === 'rotate') s = rotatedShape(s0, obj.quaternion, position);
  else if (gizmo.mode === 'scale') s = scaledShape(s0, obj.scale);
  if (!s) return;
  state.shapes[index] = s;
  update({ live: true });
});

// ------------------------------------------------------------------ selection and modes

const MODES_FOR = {
  aabb: ['translate', 'scale'],
  obb: ['translate', 'rotate', 'scale'],
  sphere: ['translate', 'scale'],
  plane: ['translate', 'rotate'],
};

function applyGizmo() {
  const j = state.selected.shape;
  if (stress || j < 0 || j >= state.shapes.length) {
    gizmo.detach();
    updateModeButtons(null);
    return;
  }
  if (!gizmoShown) gizmo.detach();
  const type = state.shapes[j].type;
  const allowed = MODES_FOR[type];
  const mode = allowed.includes(gizmoMode) ? gizmoMode : 'translate';
  gizmo.setMode(mode);
  gizmo.setSpace(type === 'obb' || type === 'plane' ? 'local' : 'world');
  gizmo.showX = !(type === 'plane' && mode === 'translate');
  gizmo.showY = !(type === 'plane' && mode === 'translate');
  gizmo.showZ = !(type === 'plane' && mode === 'rotate');
  if (gizmoShown && gizmo.object !== shapeEntries[j].obj) gizmo.attach(shapeEntries[j].obj);
  updateModeButtons(type, mode);
}

function updateModeButtons(type, mode) {
  for (const b of document.querySelectorAll('[data-mode]')) {
    const allowed = type ? MODES_FOR[type].includes(b.dataset.mode) : false;
    b.disabled = !allowed;
    b.classList.toggle('active', !!type && b.dataset.mode === mode);
  }
  const hint = $('mode-hint');
  const j = state.selected.shape;
  if (!type) hint.textContent = 'Click a shape to select it.';
  else if (!gizmoShown) hint.textContent = `${shapeName(j)} selected · click a shape to move (W), rotate (E) or scale (R) it`;
  else if (type === 'aabb') hint.textContent = `${shapeName(j)} selected · an AABB stays axis-aligned: move or scale it (a rotated box can turn)`;
  else if (type === 'sphere') hint.textContent = `${shapeName(j)} selected · move it, or scale to change the radius`;
  else if (type === 'plane') hint.textContent = `${shapeName(j)} selected · move it along its normal or tilt it`;
  else hint.textContent = `${shapeName(j)} selected · move, rotate (E) or scale (R) it`;
  $('delete').disabled = !type;
  $('add-aabb').disabled = $('add-obb').disabled = $('add-sphere').disabled = state.shapes.length >= MAX_SHAPES;
  $('add-ray').disabled = state.rays.length >= MAX_RAYS;
}

function setMode(mode) {
  gizmoMode = mode;
  gizmoShown = true;
  applyGizmo();
  requestRender();
}

function hideGizmo() {
  gizmoShown = false;
  applyGizmo();
  requestRender();
}

function selectRay(i) {
  if (!(i >= 0 && i < state.rays.length) || state.selected.ray === i) return;
  state.selected.ray = i;
  update({ rays: false });
  commitHash();
}

function selectShape(j, { showGizmo = true } = {}) {
  if (!(j >= -1 && j < state.shapes.length)) return;
  gizmoShown = showGizmo && j >= 0;
  state.selected.shape = j;
  update();
  commitHash();
}

for (const b of document.querySelectorAll('[data-mode]')) b.addEventListener('click', () => setMode(b.dataset.mode));

window.addEventListener('keydown', (e) => {
  const t = e.target;
  if (t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT' || t.isContentEditable)) return;
  if (e.ctrlKey || e.metaKey || e.altKey || stress) return;
  const key = e.key.toLowerCase();
  if (key === 'w') setMode('translate');
  else if (key === 'e') setMode('rotate');
  else if (key === 'r') setMode('scale');
  else if (key === 'escape') hideGizmo();
  else if (key === 'delete') deleteShape();
});

// ------------------------------------------------------------------ add / delete / reset

function addShape(type) {
  if (state.shapes.length >= MAX_SHAPES) return;
  const t = orbit.target;
  const c = [Math.round(t.x * 2) / 2, Math.round(t.y * 2) / 2 + 1, Math.round(t.z * 2) / 2];
  let s;
  if (type === 'aabb') s = { type, min: fv([c[0] - 0.75, c[1] - 0.75, c[2] - 0.75]), max: fv([c[0] + 0.75, c[1] + 0.75, c[2] + 0.75]) };
  else if (type === 'sphere') s = { type, center: fv(c), radius: 0.75 };
  else {
    const q = new THREE.Quaternion().setFromEuler(new THREE.Euler(0.35, 0.6, 0.2));
    _m.makeRotationFromQuaternion(q);
    const e = _m.elements;
    s = { type, center: fv(c), axes: [fv([e[0], e[1], e[2]]), fv([e[4], e[5], e[6]]), fv([e[8], e[9], e[10]])], half: [1, 0.5, 0.75] };
  }
  state.shapes.push(s);
  state.selected.shape = state.shapes.length - 1;
  gizmoShown = true;
  update({ structure: true });
  commitHash();
}

function addRay() {
  if (state.rays.length >= MAX_RAYS) return;
  const t = orbit.target;
  const k = state.rays.length;
  state.rays.push({ origin: fv([Math.round(t.x) - 6, Math.round(t.y) + 2.5 - (k % 3), Math.round(t.z) + (k % 2)]), dir: [1, -0.25, 0], tmax: Infinity });
  state.selected.ray = state.rays.length - 1;
  update({ structure: true });
  commitHash();
}

function deleteShape() {
  const j = state.selected.shape;
  if (j < 0) return;
  state.shapes.splice(j, 1);
  state.selected.shape = state.shapes.length ? Math.min(j, state.shapes.length - 1) : -1;
  update({ structure: true });
  commitHash();
}

function deleteRay(i) {
  state.rays.splice(i, 1);
  const sel = state.selected.ray;
  state.selected.ray = state.rays.length === 0 ? -1 : sel > i ? sel - 1 : Math.min(sel, state.rays.length - 1);
  update({ structure: true });
  commitHash();
}

$('add-aabb').addEventListener('click', () => addShape('aabb'));
$('add-obb').addEventListener('click', () => addShape('obb'));
$('add-sphere').addEventListener('click', () => addShape('sphere'));
$('add-ray').addEventListener('click', addRay);
$('delete').addEventListener('click', deleteShape);
$('reset').addEventListener('click', () => {
  setScene(defaultState(), { fit: true });
  clearError();
  commitHash();
});

// ------------------------------------------------------------------ the update cycle

/**
 * Recompute every hit with slabcast and redraw what depends on the state.
 * opts.structure: shapes or rays were added/removed (rebuild the 3D objects).
 */
function update(opts = {}) {
  if (opts.structure || shapeEntries.length !== state.shapes.length ||
      shapeEntries.some((e, j) => e.type !== state.shapes[j].type)) {
    rebuildShapes();
  } else {
    state.shapes.forEach((_, j) => placeShape(j));
  }
  if (opts.structure || rayEntries.length !== state.rays.length) rebuildRays();
  reportRefusals(computeHits());
  state.rays.forEach((_, i) => placeRay(i));
  applyGizmo();
  renderHitList();
  renderSlabPanel();
  registerScreenSized();
  if (opts.live) scheduleHash();
  requestRender();
}

function setScene(next, { fit = false } = {}) {
  state = cloneState(next);
  slabStep = Math.min(slabStep, STEP_COUNT - 1);
  update({ structure: true });
  if (fit) fitCamera();
  requestRender();
}

// ------------------------------------------------------------------ links

function currentLink() {
  try {
    return encode(state);
  } catch (e) {
    showError(`This scene cannot be put in a link: ${e.message}`);
    return null;
  }
}

let hashTimer = null;
function scheduleHash() {
  if (hashTimer) return;
  hashTimer = setTimeout(() => {
    hashTimer = null;
    commitHash();
  }, 400);
}

function commitHash() {
  if (hashTimer) {
    clearTimeout(hashTimer);
    hashTimer = null;
  }
  const hash = currentLink();
  if (!hash || hash === location.hash) return;
  lastHash = hash;
  history.replaceState(null, '', `${location.pathname}${location.search}${hash}`);
}

function openLink(hash, { initial }) {
  if (!hash || hash === '#') {
    if (initial) setScene(defaultState(), { fit: true });
    return;
  }
  const res = decode(hash);
  if (res.ok) {
    clearError();
    if (!sameState(res.state, state) || initial) setScene(res.state, { fit: true });
    lastHash = hash;
    return;
  }
  if (res.error === 'no scene in the link') {
    if (initial) setScene(defaultState(), { fit: true });
    return;
  }
  if (initial) {
    showError(`This link could not be opened: ${res.error}. Showing the default scene instead.`);
    setScene(defaultState(), { fit: true });
  } else {
    showError(`This link could not be opened: ${res.error}. The scene was left as it was.`);
  }
}

window.addEventListener('hashchange', () => {
  if (!sc || location.hash === lastHash) return;
  openLink(location.hash, { initial: false });
});

$('share').addEventListener('click', async () => {
  const hash = currentLink();
  if (!hash) return;
  commitHash();
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
});

// ------------------------------------------------------------------ export / import

let downloadUrl = null;
$('export-case').addEventListener('click', () => {
  const text = toCaseFile(state, (ray, shape) => sc.raycast(rayArg(ray), shape));
  $('case-json').value = text;
  if (downloadUrl) URL.revokeObjectURL(downloadUrl);
  downloadUrl = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const a = $('download-case');
  a.href = downloadUrl;
  a.hidden = false;
});

$('import').addEventListener('click', () => {
  const text = $('import-json').value;
  const res = fromCaseFile(text);
  if (!res.ok) {
    showError(`The case file could not be imported: ${res.error}. The scene was left as it was.`);
    flash('import-flash', 'Not imported', true);
    return;
  }
  clearError();
  setScene(res.state, { fit: true });
  commitHash();
  const notes = Array.isArray(res.notes) ? res.notes : [];
  flash('import-flash', `Loaded ${state.shapes.length} shape(s), ${state.rays.length} ray(s)${notes.length ? '; some cases left out' : ''}`);
  if (res.invalid || res.overLimit) showError(`Imported, with cases left out: ${notes.join('; ')}.`);
});

// ------------------------------------------------------------------ stress mode

const STRESS_LIMITS = { boxes: [1, 200000], rays: [1, 100000] };

function readCount(id, [lo, hi], fallback) {
  const v = Math.floor(Number($(id).value));
  const n = Number.isFinite(v) ? Math.min(Math.max(v, lo), hi) : fallback;
  $(id).value = String(n);
  return n;
}

function enterStress() {
  const n = readCount('stress-boxes', STRESS_LIMITS.boxes, 10000);
  const m = readCount('stress-rays', STRESS_LIMITS.rays, 1000);
  document.body.classList.add('stress');
  $('view-help').textContent = 'Drag the orange handle to move the highlighted boxes · drag empty space to orbit, wheel to zoom';
  $('stress-card').hidden = false;
  $('stress-hud').hidden = false;
  $('stress-time').textContent = 'building…';
  sceneGroup.visible = false;
  gizmo.detach();
  for (const e of shapeEntries) e.label.visible = false;

  const { boxes, rays } = sc.benchScene(n, m);
  const side = 4 * Math.cbrt(n);
  // The boxes nearest the middle form the cluster the handle moves: put them first.
  const k = Math.min(n, Math.max(1, Math.round(n * 0.02)));
  const c = side / 2;
  const order = Array.from({ length: n }, (_, i) => i);
  const d2 = (i) => {
    let s = 0;
    for (let a = 0; a < 3; a++) {
      const mid = (boxes[6 * i + a] + boxes[6 * i + 3 + a]) / 2 - c;
      s += mid * mid;
    }
    return s;
  };
  const dist = new Float64Array(n);
  for (let i = 0; i < n; i++) dist[i] = d2(i);
  order.sort((a, b) => dist[a] - dist[b]);
  const sorted = new Float32Array(6 * n);
  order.forEach((src, dst) => sorted.set(boxes.subarray(6 * src, 6 * src + 6), 6 * dst));
  const base = sorted.slice(0, 6 * k);
  const centroid = new THREE.Vector3();
  for (let i = 0; i < k; i++) {
    centroid.x += (base[6 * i] + base[6 * i + 3]) / 2;
    centroid.y += (base[6 * i + 1] + base[6 * i + 4]) / 2;
    centroid.z += (base[6 * i + 2] + base[6 * i + 5]) / 2;
  }
  centroid.multiplyScalar(1 / k);

  const world = sc.createWorld();
  const out = { t: new Float32Array(m), index: new Int32Array(m), normal: new Float32Array(3 * m) };
  let firstMs;
  try {
    world.addAABBs(sorted);
    const t0 = performance.now();
    world.castRays(rays, out); // builds the BVH
    firstMs = performance.now() - t0;
  } catch (e) {
    world.dispose();
    throw e;
  }

  // Boxes: one instanced mesh.
  const group = new THREE.Group();
  const inst = new THREE.InstancedMesh(boxGeo, new THREE.MeshStandardMaterial({ roughness: 0.6, transparent: true, opacity: 0.85 }), n);
  const mtx = new THREE.Matrix4();
  const col = new THREE.Color();
  for (let i = 0; i < n; i++) {
    setBoxMatrix(mtx, sorted, i);
    inst.setMatrixAt(i, mtx);
    inst.setColorAt(i, col.set(i < k ? 0xffa94d : 0x9db7e0));
  }
  inst.instanceMatrix.setUsage(THREE.DynamicDrawUsage);
  group.add(inst);
  // Rays: one LineSegments, hit rays to their hit point, misses a short dim stub.
  const pos = new Float32Array(6 * m);
  const colors = new Float32Array(6 * m);
  const lineGeo = new THREE.BufferGeometry();
  lineGeo.setAttribute('position', new THREE.BufferAttribute(pos, 3).setUsage(THREE.DynamicDrawUsage));
  lineGeo.setAttribute('color', new THREE.BufferAttribute(colors, 3).setUsage(THREE.DynamicDrawUsage));
  const lines = new THREE.LineSegments(lineGeo, new THREE.LineBasicMaterial({ vertexColors: true, transparent: true, opacity: 0.8 }));
  lines.frustumCulled = false;
  group.add(lines);
  // Transparent (though opaque-looking) so that it is drawn after the translucent boxes, on top.
  const handle = new THREE.Mesh(handleGeo, new THREE.MeshBasicMaterial({ color: 0xd9480f, depthTest: false, transparent: true }));
  handle.renderOrder = 10;
  const rim = new THREE.Mesh(handleGeo, new THREE.MeshBasicMaterial({ color: 0xffffff, depthTest: false, side: THREE.BackSide, transparent: true }));
  rim.scale.setScalar(1.45);
  rim.renderOrder = 9;
  handle.add(rim);
  const picker = new THREE.Mesh(handleGeo, new THREE.MeshBasicMaterial({ visible: false }));
  picker.scale.setScalar(1.9);
  picker.userData.handle = { kind: 'stress' };
  handle.add(picker);
  handle.userData.picker = picker;
  handle.position.copy(centroid);
  group.add(handle);
  scene.add(group);

  stress = {
    world, n, m, k, side, boxes: sorted, base, moved: base.slice(), rays, out, inst, lines, handle, group,
    centroid, offset: new THREE.Vector3(), firstMs, times: [], animate: $('stress-animate').checked, saved: {
      position: camera.position.clone(), target: orbit.target.clone(), near: camera.near, far: camera.far,
    },
  };
  screenSizedStress = [[handle, 11]];
  // Camera: the whole cube.
  const center = new THREE.Vector3(c, c, c);
  camera.position.copy(center).add(new THREE.Vector3(0.7, 0.55, 1).normalize().multiplyScalar(side * 1.55));
  camera.near = side / 200;
  camera.far = side * 20;
  camera.updateProjectionMatrix();
  orbit.target.copy(center);
  orbit.update();
  stressUpdate();
  renderStressStats();
  requestRender();
  if (stress.animate) animateStress();
}

let screenSizedStress = [];
const defaultHelp = [...$('view-help').childNodes];

function setBoxMatrix(mtx, b, i) {
  const o = 6 * i;
  mtx.makeScale(Math.max(b[o + 3] - b[o], 1e-4), Math.max(b[o + 4] - b[o + 1], 1e-4), Math.max(b[o + 5] - b[o + 2], 1e-4));
  mtx.setPosition((b[o] + b[o + 3]) / 2, (b[o + 1] + b[o + 4]) / 2, (b[o + 2] + b[o + 5]) / 2);
}

function placeStressHandle() {
  for (const [obj, px] of screenSizedStress) obj.scale.setScalar(px * worldPerPixel(obj.position));
}

function moveStressCluster(p) {
  stress.offset.copy(p).sub(stress.centroid);
  stressUpdate();
}

/** updateAABBs for the moved cluster, then castRays for every ray: the timed part. */
function stressUpdate() {
  const s = stress;
  const { k, base, moved, offset } = s;
  for (let i = 0; i < k; i++) {
    for (let a = 0; a < 3; a++) {
      const d = offset.getComponent(a);
      moved[6 * i + a] = base[6 * i + a] + d;
      moved[6 * i + 3 + a] = base[6 * i + 3 + a] + d;
    }
  }
  const t0 = performance.now();
  s.world.updateAABBs(0, moved);
  s.world.castRays(s.rays, s.out);
  const ms = performance.now() - t0;
  s.times.push(ms);
  if (s.times.length > 30) s.times.shift();
  s.boxes.set(moved, 0);
  // Redraw: the moved instances, every ray.
  const mtx = new THREE.Matrix4();
  for (let i = 0; i < k; i++) {
    setBoxMatrix(mtx, s.boxes, i);
    s.inst.setMatrixAt(i, mtx);
  }
  s.inst.instanceMatrix.needsUpdate = true;
  s.inst.computeBoundingSphere();
  s.handle.position.copy(s.centroid).add(offset);
  const pos = s.lines.geometry.attributes.position.array;
  const colors = s.lines.geometry.attributes.color.array;
  let hits = 0;
  const stub = s.side * 0.06;
  for (let r = 0; r < s.m; r++) {
    const o = 7 * r;
    const hit = s.out.index[r] >= 0;
    if (hit) hits++;
    const t = hit ? s.out.t[r] : stub;
    for (let a = 0; a < 3; a++) {
      pos[6 * r + a] = s.rays[o + a];
      pos[6 * r + 3 + a] = s.rays[o + a] + t * s.rays[o + 3 + a];
    }
    const cc = hit ? [0.97, 0.4, 0.03] : [0.55, 0.6, 0.66];
    colors.set(cc, 6 * r);
    colors.set(hit ? [0.85, 0.2, 0.1] : [0.8, 0.83, 0.86], 6 * r + 3);
  }
  s.lines.geometry.attributes.position.needsUpdate = true;
  s.lines.geometry.attributes.color.needsUpdate = true;
  s.hits = hits;
  const avg = s.times.reduce((a, b) => a + b, 0) / s.times.length;
  const timeEl = $('stress-time');
  timeEl.textContent = `${ms.toFixed(2)} ms per update`;
  timeEl.dataset.ms = String(ms);
  $('stress-sub').textContent = `updateAABBs(${k}) + castRays(${s.m} rays) over ${s.n} boxes · avg ${avg.toFixed(2)} ms · ${hits} hits`;
  renderStressStats();
  requestRender();
}

function renderStressStats() {
  const s = stress;
  if (!s) return;
  const dl = $('stress-stats');
  const row = (k, v) => [el('dt', { text: k }), el('dd', { text: v })];
  const avg = s.times.length ? s.times.reduce((a, b) => a + b, 0) / s.times.length : 0;
  dl.replaceChildren(
    ...row('boxes / rays', `${s.n} / ${s.m}`),
    ...row('first cast (builds the BVH)', `${s.firstMs.toFixed(2)} ms`),
    ...row('update (last / avg of 30)', `${(s.times.at(-1) ?? 0).toFixed(2)} / ${avg.toFixed(2)} ms`),
    ...row('rays that hit', `${s.hits ?? 0}`),
    ...row('world memory', `${(s.world.bytes / 1024).toFixed(0)} KiB`),
    ...row('kernels', sc.simd),
  );
}

function animateStress() {
  const s = stress;
  if (!s || !s.animate) return;
  const t = performance.now() / 1000;
  const a = s.side * 0.2;
  s.offset.set(Math.sin(t * 0.9) * a, Math.sin(t * 1.3) * a * 0.5, Math.cos(t * 0.7) * a);
  stressUpdate();
  requestAnimationFrame(animateStress);
}

function leaveStress() {
  const s = stress;
  stress = null;
  if (s) {
    s.world.dispose();
    scene.remove(s.group);
    disposeTree(s.group);
    camera.position.copy(s.saved.position);
    camera.near = s.saved.near;
    camera.far = s.saved.far;
    camera.updateProjectionMatrix();
    orbit.target.copy(s.saved.target);
    orbit.update();
  }
  screenSizedStress = [];
  document.body.classList.remove('stress');
  $('view-help').replaceChildren(...defaultHelp);
  $('stress-card').hidden = true;
  $('stress-hud').hidden = true;
  sceneGroup.visible = true;
  for (const e of shapeEntries) e.label.visible = true;
  applyGizmo();
  requestRender();
}

$('stress-toggle').addEventListener('change', (e) => {
  if (!sc) { e.target.checked = false; return; }
  try {
    if (e.target.checked) enterStress();
    else leaveStress();
  } catch (err) {
    showError(`Stress mode failed: ${err.message}`);
    leaveStress();
    e.target.checked = false;
  }
});
$('stress-rebuild').addEventListener('click', () => {
  if (!stress) return;
  leaveStress();
  try {
    enterStress();
  } catch (err) {
    showError(`Stress mode failed: ${err.message}`);
    leaveStress();
    $('stress-toggle').checked = false;
  }
});
$('stress-animate').addEventListener('change', (e) => {
  if (!stress) return;
  stress.animate = e.target.checked;
  if (stress.animate) animateStress();
});

// ------------------------------------------------------------------ automation hooks

function project(p) {
  const rect = canvas.getBoundingClientRect();
  const v = p.clone().project(camera);
  return {
    x: rect.left + ((v.x + 1) / 2) * rect.width,
    y: rect.top + ((1 - v.y) / 2) * rect.height,
    onScreen: v.z > -1 && v.z < 1 && Math.abs(v.x) <= 1 && Math.abs(v.y) <= 1,
  };
}

function shapeCenter(s) {
  if (s.type === 'aabb') return new THREE.Vector3((s.min[0] + s.max[0]) / 2, (s.min[1] + s.max[1]) / 2, (s.min[2] + s.max[2]) / 2);
  if (s.type === 'plane') {
    const n = vec3(s.normal);
    return n.multiplyScalar(s.d / n.lengthSq());
  }
  return vec3(s.center);
}

/** What a press at client (x, y) would grab, with the page's own priorities: nothing when
 * something else (a toolbar, the legend) covers the canvas there; else a ray handle; else a
 * shape. Returns an id like the ones of handles(), or null. */
function grabbableAt(x, y) {
  if (document.elementFromPoint(x, y) !== canvas) return null;
  const e = { clientX: x, clientY: y };
  const h = pickHandle(e);
  if (h) return h.kind === 'stress' ? 'stress-handle' : `ray${h.ray}-${h.kind}`;
  const sh = pickShape(e);
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

function locateHandle(id, center, mesh) {
  const points = handleCandidates(center, mesh).map(project);
  if (!mesh) {
    // a small handle sphere: a few pixels around its projection
    const p = points[0];
    for (const [dx, dy] of [[0, 0], [3, 0], [-3, 0], [0, 3], [0, -3], [5, 5], [-5, -5], [5, -5], [-5, 5]]) {
      points.push({ x: p.x + dx, y: p.y + dy, onScreen: p.onScreen });
    }
  }
  for (const p of points) {
    if (p.onScreen && grabbableAt(p.x, p.y) === id) return { id, x: p.x, y: p.y, onScreen: true, grabbable: true };
  }
  return { id, ...points[0], grabbable: false };
}

window.playground = {
  /** Client (CSS pixel) coordinates of every draggable handle: a point where a press grabs
   * that handle (grabbable: true), or, when none is found (covered, off screen), its projection
   * (grabbable: false). */
  handles() {
    const out = [];
    if (stress) {
      out.push(locateHandle('stress-handle', stress.handle.position.clone(), null));
      return out;
    }
    state.rays.forEach((ray, i) => {
      out.push(locateHandle(`ray${i}-origin`, vec3(ray.origin), null));
      out.push(locateHandle(`ray${i}-tip`, along(ray, 1), null));
    });
    state.shapes.forEach((s, j) => out.push(locateHandle(`shape${j}`, shapeCenter(s), shapeEntries[j] && shapeEntries[j].mesh)));
    return out;
  },
  /** A copy of the current scene. */
  state() {
    return cloneState(state);
  },
  /** The nearest hit of every ray (shape -1: a miss). */
  hits() {
    return nearest.map((n, i) => {
      const r = n.result;
      if (!r.hit) return { ray: i, shape: -1, hit: false };
      return { ray: i, shape: n.shape, hit: true, t: r.t, t_enter: r.t_enter, t_exit: r.t_exit, point: [...r.point], normal: [...r.normal] };
    });
  },
};

// ------------------------------------------------------------------ start

async function main() {
  try {
    sc = await loadSlabcast({ wasm: new URL('../slabcast.wasm', import.meta.url) });
  } catch (e) {
    showError(`Could not load slabcast.wasm: ${e.message}. Build it with npm run build.`);
    document.body.dataset.error = e.message;
    document.body.dataset.ready = 'true';
    return;
  }
  resize();
  openLink(location.hash, { initial: true });
  renderNow();
  requestAnimationFrame(() => {
    document.body.dataset.ready = 'true';
  });
}

main();
