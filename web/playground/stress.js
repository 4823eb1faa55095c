// Stress mode: thousands of random boxes and rays (stress-scene.js) in a slabcast world
// (sc.createWorld, with its BVH); an orange handle moves a cluster of boxes through
// updateAABBs, then castRays for every ray, timed and drawn. The normal scene is hidden
// meanwhile and comes back untouched. "rays/s on workers" times the same boxes and rays on
// slabcast/parallel worlds of 1..N workers (N: the cores, at most 8), beside this thread.

import * as THREE from 'three';
import { el } from './dom.js';
import { showError } from './notices.js';
import { stressScene } from './stress-scene.js';
import { GEO, disposeTree } from './three-kit.js';

const STRESS_LIMITS = { boxes: [1, 200000], rays: [1, 100000] };

function readCount($, id, [lo, hi], fallback) {
  const v = Math.floor(Number($(id).value));
  const n = Number.isFinite(v) ? Math.min(Math.max(v, lo), hi) : fallback;
  $(id).value = String(n);
  return n;
}

function setBoxMatrix(mtx, b, i) {
  const o = 6 * i;
  mtx.makeScale(Math.max(b[o + 3] - b[o], 1e-4), Math.max(b[o + 4] - b[o + 1], 1e-4), Math.max(b[o + 5] - b[o + 2], 1e-4));
  mtx.setPosition((b[o] + b[o + 3]) / 2, (b[o + 1] + b[o + 4]) / 2, (b[o + 2] + b[o + 5]) / 2);
}

/** The n boxes sorted by distance of their centre to the cube's centre c (the nearest
 * first: they form the cluster the handle moves). */
function sortedByCentre(boxes, n, c) {
  const dist = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let a = 0; a < 3; a++) {
      const mid = (boxes[6 * i + a] + boxes[6 * i + 3 + a]) / 2 - c;
      s += mid * mid;
    }
    dist[i] = s;
  }
  const order = Array.from({ length: n }, (_, i) => i);
  order.sort((a, b) => dist[a] - dist[b]);
  const sorted = new Float32Array(6 * n);
  order.forEach((src, dst) => sorted.set(boxes.subarray(6 * src, 6 * src + 6), 6 * dst));
  return sorted;
}

/** The mean centre of the first k boxes. */
function centroidOf(base, k) {
  const centroid = new THREE.Vector3();
  for (let i = 0; i < k; i++) {
    centroid.x += (base[6 * i] + base[6 * i + 3]) / 2;
    centroid.y += (base[6 * i + 1] + base[6 * i + 4]) / 2;
    centroid.z += (base[6 * i + 2] + base[6 * i + 5]) / 2;
  }
  return centroid.multiplyScalar(1 / k);
}

/** A world of the boxes; the first castRays (which builds the BVH) is timed. */
function buildWorld(sc, boxes, rays, m) {
  const world = sc.createWorld();
  const out = { t: new Float32Array(m), index: new Int32Array(m), normal: new Float32Array(3 * m) };
  try {
    world.addAABBs(boxes);
    const t0 = performance.now();
    world.castRays(rays, out); // builds the BVH
    return { world, out, firstMs: performance.now() - t0 };
  } catch (e) {
    world.dispose();
    throw e;
  }
}

/** Calls per second of an async call over at least `ms` (after one warm-up call). */
async function callsPerSecond(call, ms) {
  await call();
  let calls = 0;
  const t0 = performance.now();
  while (performance.now() - t0 < ms) {
    await call();
    calls++;
  }
  return calls / ((performance.now() - t0) / 1000);
}

/**
 * rays/s of castRays on this thread and on parallel worlds of 1..maxWorkers workers, for the
 * given boxes and rays; onRow(label, raysPerSecond, mode) after each.
 */
async function measureWorkers(sc, boxes, rays, maxWorkers, onRow) {
  const m = rays.length / 7;
  const out = { t: new Float32Array(m), index: new Int32Array(m), normal: new Float32Array(3 * m) };
  const single = sc.createWorld();
  try {
    single.addAABBs(boxes);
    onRow('this thread (World)', m * await callsPerSecond(() => single.castRays(rays, out), 400), '');
  } finally {
    single.dispose();
  }
  for (let w = 1; w <= maxWorkers; w++) {
    const { createParallelWorld } = await import('../parallel.js'); // loaded when first asked for
    const world = await createParallelWorld({ workers: w, inline: 0 }); // every batch on the workers, whatever its size
    try {
      world.addAABBs(boxes);
      onRow(`${w} worker${w > 1 ? 's' : ''}`, m * await callsPerSecond(() => world.castRays(rays, out), 400), world.memoryMode);
    } finally {
      await world.dispose();
    }
  }
}

/** The boxes as one instanced mesh, the cluster (the first k) in orange. */
function boxesMesh(boxes, n, k) {
  const inst = new THREE.InstancedMesh(GEO.box, new THREE.MeshStandardMaterial({ roughness: 0.6, transparent: true, opacity: 0.85 }), n);
  const mtx = new THREE.Matrix4();
  const col = new THREE.Color();
  for (let i = 0; i < n; i++) {
    setBoxMatrix(mtx, boxes, i);
    inst.setMatrixAt(i, mtx);
    inst.setColorAt(i, col.set(i < k ? 0xffa94d : 0x9db7e0));
  }
  inst.instanceMatrix.setUsage(THREE.DynamicDrawUsage);
  return inst;
}

/** The m rays as one LineSegments (filled in by update). */
function raysMesh(m) {
  const pos = new Float32Array(6 * m);
  const colors = new Float32Array(6 * m);
  const lineGeo = new THREE.BufferGeometry();
  lineGeo.setAttribute('position', new THREE.BufferAttribute(pos, 3).setUsage(THREE.DynamicDrawUsage));
  lineGeo.setAttribute('color', new THREE.BufferAttribute(colors, 3).setUsage(THREE.DynamicDrawUsage));
  const lines = new THREE.LineSegments(lineGeo, new THREE.LineBasicMaterial({ vertexColors: true, transparent: true, opacity: 0.8 }));
  lines.frustumCulled = false;
  return lines;
}

/** The orange handle. Transparent (though opaque-looking) so that it is drawn after the
 * translucent boxes, on top. */
function clusterHandle() {
  const handle = new THREE.Mesh(GEO.handle, new THREE.MeshBasicMaterial({ color: 0xd9480f, depthTest: false, transparent: true }));
  handle.renderOrder = 10;
  const rim = new THREE.Mesh(GEO.handle, new THREE.MeshBasicMaterial({ color: 0xffffff, depthTest: false, side: THREE.BackSide, transparent: true }));
  rim.scale.setScalar(1.45);
  rim.renderOrder = 9;
  handle.add(rim);
  const picker = new THREE.Mesh(GEO.handle, new THREE.MeshBasicMaterial({ visible: false }));
  picker.scale.setScalar(1.9);
  picker.userData.handle = { kind: 'stress' };
  handle.add(picker);
  handle.userData.picker = picker;
  return handle;
}

/** Hit rays to their hit point, misses a short dim stub; returns how many hit. */
function drawRays(s) {
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
    colors.set(hit ? [0.97, 0.4, 0.03] : [0.55, 0.6, 0.66], 6 * r);
    colors.set(hit ? [0.85, 0.2, 0.1] : [0.8, 0.83, 0.86], 6 * r + 3);
  }
  s.lines.geometry.attributes.position.needsUpdate = true;
  s.lines.geometry.attributes.color.needsUpdate = true;
  return hits;
}

/** The moved cluster's instances. */
function drawCluster(s) {
  const mtx = new THREE.Matrix4();
  for (let i = 0; i < s.k; i++) {
    setBoxMatrix(mtx, s.boxes, i);
    s.inst.setMatrixAt(i, mtx);
  }
  s.inst.instanceMatrix.needsUpdate = true;
  s.inst.computeBoundingSphere();
}

export class StressMode {
  /** view: the View; store: the Store (its slabcast module); shapes: the ShapeMeshes (their
   * labels hide); onToggle(active) when stress mode starts or ends. */
  constructor({ view, store, shapes, onToggle }) {
    Object.assign(this, { view, store, shapes, onToggle });
    /** The running stress scene, or null. */
    this.active = null;
    this.defaultHelp = [...this.store.dom.$('view-help').childNodes];
  }

  /** The orange handle (while active). */
  get handle() { return this.active.handle; }

  listen() {
    this.store.dom.$('stress-toggle').addEventListener('change', (e) => this.#onToggle(e));
    this.store.dom.$('stress-rebuild').addEventListener('click', () => this.#rebuild());
    this.store.dom.$('stress-workers').addEventListener('click', () => this.#measureWorkers());
    this.store.dom.$('stress-animate').addEventListener('change', (e) => {
      if (!this.active) return;
      this.active.animate = e.target.checked;
      if (this.active.animate) this.#animate();
    });
  }

  #onToggle(e) {
    if (!this.store.core) { e.target.checked = false; return; }
    try {
      if (e.target.checked) this.enter();
      else this.leave();
    } catch (err) {
      showError(this.store.dom, `Stress mode failed: ${err.message}`);
      this.leave();
      e.target.checked = false;
    }
  }

  #rebuild() {
    if (!this.active) return;
    this.leave();
    try {
      this.enter();
    } catch (err) {
      showError(this.store.dom, `Stress mode failed: ${err.message}`);
      this.leave();
      this.store.dom.$('stress-toggle').checked = false;
    }
  }

  /** Times castRays on 1..N workers (slabcast/parallel) for the current boxes and rays. */
  async #measureWorkers() {
    const s = this.active;
    if (!s || this.measuring) return;
    this.measuring = true;
    const button = this.store.dom.$('stress-workers');
    const list = this.store.dom.$('stress-parallel');
    button.disabled = true;
    list.replaceChildren();
    const cores = Math.max(1, Math.min(8, navigator.hardwareConcurrency || 1));
    try {
      await measureWorkers(this.store.core, s.boxes.slice(), s.rays, cores, (label, rate, mode) => {
        list.append(el('dt', { text: label }), el('dd', { text: `${(rate / 1e6).toFixed(2)} M rays/s${mode ? ` (${mode} memory)` : ''}` }));
      });
      list.dataset.done = 'true';
    } catch (err) {
      showError(this.store.dom, `Measuring the workers failed: ${err.message}`);
    } finally {
      button.disabled = false;
      this.measuring = false;
    }
  }

  #showPage() {
    this.store.dom.host().classList.add('stress');
    this.store.dom.$('view-help').textContent = 'Drag the orange handle to move the highlighted boxes · drag empty space to orbit, wheel to zoom';
    this.store.dom.$('stress-card').hidden = false;
    this.store.dom.$('stress-hud').hidden = false;
    this.store.dom.$('stress-time').textContent = 'building…';
    this.view.sceneGroup.visible = false;
    this.onToggle(true);
    this.shapes.setLabelsVisible(false);
  }

  enter() {
    const n = readCount(this.store.dom.$, 'stress-boxes', STRESS_LIMITS.boxes, 10000);
    const m = readCount(this.store.dom.$, 'stress-rays', STRESS_LIMITS.rays, 1000);
    this.#showPage();
    const sc = this.store.core;
    const { boxes, rays } = stressScene(n, m);
    const side = 4 * Math.cbrt(n);
    const k = Math.min(n, Math.max(1, Math.round(n * 0.02)));
    const sorted = sortedByCentre(boxes, n, side / 2);
    const base = sorted.slice(0, 6 * k);
    const centroid = centroidOf(base, k);
    const { world, out, firstMs } = buildWorld(sc, sorted, rays, m);
    const group = new THREE.Group();
    const inst = boxesMesh(sorted, n, k);
    const lines = raysMesh(m);
    const handle = clusterHandle();
    handle.position.copy(centroid);
    group.add(inst, lines, handle);
    this.view.scene.add(group);
    this.active = {
      world, n, m, k, side, boxes: sorted, base, moved: base.slice(), rays, out, inst, lines, handle, group,
      centroid, offset: new THREE.Vector3(), firstMs, times: [], animate: this.store.dom.$('stress-animate').checked, saved: this.#saveCamera(),
    };
    this.view.setScreenSized('stress', [[handle, 11]]);
    this.#frameCube(side);
    this.update();
    this.#renderStats();
    this.view.requestRender();
    if (this.active.animate) this.#animate();
  }

  #saveCamera() {
    const { camera, orbit } = this.view;
    return { position: camera.position.clone(), target: orbit.target.clone(), near: camera.near, far: camera.far };
  }

  /** The camera on the whole cube of side `side`. */
  #frameCube(side) {
    const { camera, orbit } = this.view;
    const c = side / 2;
    const center = new THREE.Vector3(c, c, c);
    camera.position.copy(center).add(new THREE.Vector3(0.7, 0.55, 1).normalize().multiplyScalar(side * 1.55));
    camera.near = side / 200;
    camera.far = side * 20;
    camera.updateProjectionMatrix();
    orbit.target.copy(center);
    orbit.update();
  }

  /** Move the cluster so that its centre is at p. */
  moveCluster(p) {
    this.active.offset.copy(p).sub(this.active.centroid);
    this.update();
  }

  /** updateAABBs for the moved cluster, then castRays for every ray: the timed part. */
  update() {
    const s = this.active;
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
    s.updates = (s.updates ?? 0) + 1;
    s.boxes.set(moved, 0);
    drawCluster(s);
    s.handle.position.copy(s.centroid).add(offset);
    s.hits = drawRays(s);
    this.#renderHud(ms);
    this.#renderStats();
    this.view.requestRender();
  }

  #renderHud(ms) {
    const s = this.active;
    const avg = s.times.reduce((a, b) => a + b, 0) / s.times.length;
    const timeEl = this.store.dom.$('stress-time');
    timeEl.textContent = `${ms.toFixed(2)} ms per update`;
    timeEl.dataset.ms = String(ms);
    timeEl.dataset.updates = String(s.updates ?? 0);
    this.store.dom.$('stress-sub').textContent = `updateAABBs(${s.k}) + castRays(${s.m} rays) over ${s.n} boxes · avg ${avg.toFixed(2)} ms · ${s.hits} hits`;
  }

  #renderStats() {
    const s = this.active;
    if (!s) return;
    const row = (k, v) => [el('dt', { text: k }), el('dd', { text: v })];
    const avg = s.times.length ? s.times.reduce((a, b) => a + b, 0) / s.times.length : 0;
    this.store.dom.$('stress-stats').replaceChildren(
      ...row('boxes / rays', `${s.n} / ${s.m}`),
      ...row('first cast (builds the BVH)', `${s.firstMs.toFixed(2)} ms`),
      ...row('update (last / avg of 30)', `${(s.times.at(-1) ?? 0).toFixed(2)} / ${avg.toFixed(2)} ms`),
      ...row('rays that hit', `${s.hits ?? 0}`),
      ...row('world memory', `${(s.world.bytes / 1024).toFixed(0)} KiB`),
      ...row('kernels', this.store.core.simd),
    );
  }

  #animate = () => {
    const s = this.active;
    if (!s || !s.animate) return;
    const t = performance.now() / 1000;
    const a = s.side * 0.2;
    s.offset.set(Math.sin(t * 0.9) * a, Math.sin(t * 1.3) * a * 0.5, Math.cos(t * 0.7) * a);
    this.update();
    requestAnimationFrame(this.#animate);
  };

  #restoreCamera(saved) {
    const { camera, orbit } = this.view;
    camera.position.copy(saved.position);
    camera.near = saved.near;
    camera.far = saved.far;
    camera.updateProjectionMatrix();
    orbit.target.copy(saved.target);
    orbit.update();
  }

  leave() {
    const s = this.active;
    this.active = null;
    if (s) {
      s.world.dispose();
      this.view.scene.remove(s.group);
      disposeTree(s.group);
      this.#restoreCamera(s.saved);
    }
    this.view.setScreenSized('stress', []);
    this.store.dom.host().classList.remove('stress');
    this.store.dom.$('view-help').replaceChildren(...this.defaultHelp);
    this.store.dom.$('stress-card').hidden = true;
    this.store.dom.$('stress-hud').hidden = true;
    this.store.dom.$('stress-parallel').replaceChildren();
    this.view.sceneGroup.visible = true;
    this.shapes.setLabelsVisible(true);
    this.onToggle(false);
    this.view.requestRender();
  }
}
