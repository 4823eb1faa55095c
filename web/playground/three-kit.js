// three.js building blocks shared by the 3D modules: the shared geometries, fat lines,
// HTML labels, vectors from the scene's [x, y, z] arrays, and freeing what a subtree holds.

import * as THREE from 'three';
import { CSS2DObject } from 'three/addons/renderers/CSS2DRenderer.js';
import { Line2 } from 'three/addons/lines/Line2.js';
import { LineGeometry } from 'three/addons/lines/LineGeometry.js';
import { LineMaterial } from 'three/addons/lines/LineMaterial.js';
import { el } from './dom.js';
import { PLANE_SIZE } from './look.js';

/** Geometries shared by many meshes (never disposed). */
export const GEO = {
  box: new THREE.BoxGeometry(1, 1, 1),
  sphere: new THREE.SphereGeometry(1, 48, 32),
  handle: new THREE.SphereGeometry(1, 24, 16),
  ring: new THREE.TorusGeometry(1, 0.3, 10, 32),
  disc: new THREE.CylinderGeometry(1, 1, 0.25, 24),
  plane: new THREE.PlaneGeometry(PLANE_SIZE, PLANE_SIZE),
};
GEO.boxEdges = new THREE.EdgesGeometry(GEO.box);
const SHARED = new Set(Object.values(GEO));

export const vec3 = (a) => new THREE.Vector3(a[0], a[1], a[2]);
/** The point of `ray` at parameter t: origin + t·dir. */
export const along = (ray, t) => vec3(ray.origin).addScaledVector(vec3(ray.dir), t);

/** Orient a ring / disc (whose axis is local y for the disc, z for the torus) along the ray. */
export function orientAlong(obj, dir, axis) {
  obj.quaternion.setFromUnitVectors(axis, vec3(dir).normalize());
}

export function lineMaterial(color, width, opts = {}) {
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

export function makeLine(material) {
  const line = new Line2(new LineGeometry(), material);
  line.geometry.setPositions([0, 0, 0, 0, 0, 1]);
  line.computeLineDistances();
  line.frustumCulled = false;
  return line;
}

export function setLine(line, a, b) {
  line.geometry.setPositions([a.x, a.y, a.z, b.x, b.y, b.z]);
  line.computeLineDistances();
}

export function makeLabel(text, className, color) {
  const outer = document.createElement('div');
  const inner = el('span', { class: `label3d ${className}`, text });
  if (color) inner.style.borderColor = color;
  outer.append(inner);
  const obj = new CSS2DObject(outer);
  obj.center.set(0.5, 1);
  obj.inner = inner;
  return obj;
}

/** Free the geometries (except the shared ones), materials and label elements below obj. */
export function disposeTree(obj) {
  obj.traverse((o) => {
    if (o.geometry && !SHARED.has(o.geometry)) o.geometry.dispose();
    if (o.material) (Array.isArray(o.material) ? o.material : [o.material]).forEach((m) => m.dispose());
    if (o.isCSS2DObject) o.element.remove();
  });
}
