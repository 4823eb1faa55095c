// The rays in 3D: for each ray its origin and tip handles, the line up to its hit and
// past it, the hit point and normal, the t_enter / t_exit rings, the tmax disc and a label.

import * as THREE from 'three';
import { RAY_DRAW_LENGTH, rayColor, rayName } from './look.js';
import { GEO, along, disposeTree, lineMaterial, makeLabel, makeLine, orientAlong, setLine, vec3 } from './three-kit.js';

const Z = new THREE.Vector3(0, 0, 1);
const Y = new THREE.Vector3(0, 1, 0);

/** A draggable sphere; a bigger invisible sphere (its picker) makes it easy to grab. */
function addPicker(handle, userData) {
  handle.userData.handle = userData;
  const picker = new THREE.Mesh(GEO.handle, new THREE.MeshBasicMaterial({ visible: false }));
  picker.scale.setScalar(1.9);
  picker.userData.handle = userData;
  handle.add(picker);
  handle.userData.picker = picker;
}

/** A sphere with a darker back-face rim around it. */
function rimmedSphere(material, rimColor, rimScale) {
  const sphere = new THREE.Mesh(GEO.handle, material);
  const rim = new THREE.Mesh(GEO.handle, new THREE.MeshBasicMaterial({ color: rimColor, side: THREE.BackSide }));
  rim.scale.setScalar(rimScale);
  sphere.add(rim);
  return sphere;
}

function createRayEntry(i) {
  const color = rayColor(i);
  const group = new THREE.Group();
  const c = new THREE.Color(color);
  const origin = new THREE.Mesh(GEO.handle, new THREE.MeshStandardMaterial({ color: c, roughness: 0.35 }));
  const tipColor = c.clone().lerp(new THREE.Color(0xffffff), 0.6);
  const tip = rimmedSphere(new THREE.MeshStandardMaterial({ color: tipColor, roughness: 0.35 }), c, 1.3);
  addPicker(origin, { kind: 'origin', ray: i });
  addPicker(tip, { kind: 'tip', ray: i });
  const solid = makeLine(lineMaterial(color, 4));
  const rest = makeLine(lineMaterial(color, 2.2, { dashed: true, opacity: 0.55, dashSize: 0.22, gapSize: 0.16 }));
  const hitMarker = rimmedSphere(new THREE.MeshStandardMaterial({ color: 0xffffff, roughness: 0.3, emissive: 0x333333 }), 0x1f2933, 1.35);
  const normal = new THREE.ArrowHelper(new THREE.Vector3(0, 1, 0), new THREE.Vector3(), 0.8, 0x1f2933, 0.22, 0.12);
  const enter = new THREE.Mesh(GEO.ring, new THREE.MeshBasicMaterial({ color: 0x1f2933 }));
  const exit = new THREE.Mesh(GEO.ring, new THREE.MeshBasicMaterial({ color: 0x97a3af }));
  const tmax = new THREE.Mesh(GEO.disc, new THREE.MeshStandardMaterial({ color: 0x44505c }));
  const label = makeLabel(rayName(i), 'ray', color);
  group.add(solid, rest, origin, tip, hitMarker, normal, enter, exit, tmax, label);
  return { group, origin, tip, solid, rest, hitMarker, normal, enter, exit, tmax, label };
}

/** Show marker m at parameter t of the ray when t is finite and not behind the origin. */
function showAt(m, ray, t) {
  m.visible = Number.isFinite(t) && t >= 0;
  if (m.visible) {
    m.position.copy(along(ray, t));
    orientAlong(m, ray.dir, Z);
  }
}

/** The line to the hit, the dimmer stretch after it, the hit point, normal, entry and exit. */
function placeHit(e, ray, r, tDraw) {
  const origin = vec3(ray.origin);
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
  showAt(e.enter, ray, r.t_enter);
  showAt(e.exit, ray, r.t_exit);
}

/** A miss: all dim, up to tDraw. */
function placeMiss(e, ray, tDraw) {
  e.solid.visible = false;
  e.rest.visible = true;
  setLine(e.rest, vec3(ray.origin), along(ray, tDraw));
  e.hitMarker.visible = false;
  e.normal.visible = false;
  e.enter.visible = false;
  e.exit.visible = false;
}

export class RayMeshes {
  constructor(view) {
    this.view = view;
    /** entries[i]: the objects of ray i. */
    this.entries = [];
  }

  rebuild(count) {
    for (const e of this.entries) {
      this.view.rayGroup.remove(e.group);
      disposeTree(e.group);
    }
    this.entries = Array.from({ length: count }, (_, i) => createRayEntry(i));
    for (const e of this.entries) this.view.rayGroup.add(e.group);
    const sized = [];
    for (const e of this.entries) {
      sized.push([e.origin, 7], [e.tip, 5.5], [e.hitMarker, 5], [e.enter, 6], [e.exit, 6], [e.tmax, 7]);
    }
    this.view.setScreenSized('rays', sized);
  }

  /** Place ray i from its record and its nearest hit {shape, result}. */
  place(i, ray, nearest, selected) {
    const e = this.entries[i];
    const r = (nearest ?? { shape: -1, result: { hit: false } }).result;
    const dirLen = Math.hypot(ray.dir[0], ray.dir[1], ray.dir[2]);
    e.origin.position.copy(vec3(ray.origin));
    e.tip.position.copy(along(ray, 1));
    // Drawn length: to the hit, then a dimmer stretch; a miss is all dim, up to tmax.
    const tDraw = Math.min(ray.tmax, Math.max(RAY_DRAW_LENGTH / dirLen, r.hit ? r.t * 1.15 + 1 / dirLen : 0));
    if (r.hit) placeHit(e, ray, r, tDraw);
    else placeMiss(e, ray, tDraw);
    e.tmax.visible = Number.isFinite(ray.tmax);
    if (e.tmax.visible) {
      e.tmax.position.copy(along(ray, ray.tmax));
      orientAlong(e.tmax, ray.dir, Y);
    }
    e.solid.material.linewidth = selected ? 5.5 : 4;
    e.label.position.copy(vec3(ray.origin));
    e.label.inner.textContent = rayName(i);
    e.label.inner.classList.toggle('selected', selected);
  }

  /** Rebuild when the number of rays changed (or `structure` is set), then place every ray. */
  sync(state, nearest, structure) {
    if (structure || this.entries.length !== state.rays.length) this.rebuild(state.rays.length);
    state.rays.forEach((ray, i) => this.place(i, ray, nearest[i], state.selected.ray === i));
  }

  /** The invisible pickers of every origin and tip handle. */
  pickers() {
    const out = [];
    for (const r of this.entries) out.push(r.origin.userData.picker, r.tip.userData.picker);
    return out;
  }
}
