// Rendering: the three.js renderer and label renderer, the scene with its lights and
// groups, the camera (and its orbit controls), the render loop, objects kept at a
// constant size on screen, and framing the camera on a scene.

import * as THREE from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import { CSS2DRenderer } from 'three/addons/renderers/CSS2DRenderer.js';
import { along, vec3 } from './three-kit.js';

const _v = new THREE.Vector3();
const _v2 = new THREE.Vector3();

export class View {
  /** The 3D view inside `container` (the #stage element). */
  constructor(container) {
    this.container = container;
    this.#createRenderers();
    this.#createScene();
    this.camera = new THREE.PerspectiveCamera(42, 1, 0.05, 2000);
    this.camera.position.set(4, 9, 15);
    this.sceneGroup = new THREE.Group(); // the normal scene (hidden in stress mode)
    this.shapeGroup = new THREE.Group();
    this.rayGroup = new THREE.Group();
    this.slabGroup = new THREE.Group();
    this.sceneGroup.add(this.shapeGroup, this.rayGroup, this.slabGroup);
    this.scene.add(this.sceneGroup);
    /** The orbit controls, made by addOrbit() (after every other pointer listener). */
    this.orbit = null;
    /** key -> [object, radius in CSS pixels]: objects kept at a constant size on screen. */
    this.screenSized = new Map();
    this.beforeRender = [];
    this.renderPending = false;
  }

  #createRenderers() {
    const renderer = new THREE.WebGLRenderer({ antialias: true, alpha: true });
    renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2));
    renderer.setClearColor(0x000000, 0);
    renderer.toneMapping = THREE.NeutralToneMapping;
    const canvas = renderer.domElement;
    canvas.setAttribute('aria-hidden', 'true');
    // Not a tab stop of its own: the view around it (#stage, keyboard.js) takes the keys.
    canvas.tabIndex = -1;
    this.container.prepend(canvas);
    const labelRenderer = new CSS2DRenderer();
    labelRenderer.domElement.className = 'labels';
    canvas.after(labelRenderer.domElement);
    this.renderer = renderer;
    this.canvas = canvas;
    this.labelRenderer = labelRenderer;
  }

  #createScene() {
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
    this.scene = scene;
  }

  /** Orbiting with the mouse. Made last: listeners on the canvas run in the order they were
   * added, so a grabbed gizmo or handle wins over orbiting. */
  addOrbit() {
    const orbit = new OrbitControls(this.camera, this.canvas);
    orbit.enableDamping = false;
    orbit.addEventListener('change', this.requestRender);
    this.orbit = orbit;
    return orbit;
  }

  /** Keep `list` ([object, radius in CSS pixels] pairs) at a constant size on screen;
   * replaces what was registered under `key`. */
  setScreenSized(key, list) {
    this.screenSized.set(key, list);
  }

  /** World units per CSS pixel at `pos`. */
  worldPerPixel(pos) {
    const h = this.canvas.clientHeight || 1;
    const dist = _v2.copy(pos).sub(this.camera.position).length();
    return (2 * dist * Math.tan(THREE.MathUtils.degToRad(this.camera.fov / 2))) / h;
  }

  requestRender = () => {
    if (this.renderPending) return;
    this.renderPending = true;
    requestAnimationFrame(() => {
      this.renderPending = false;
      this.renderNow();
    });
  };

  renderNow() {
    for (const fn of this.beforeRender) fn();
    for (const list of this.screenSized.values()) {
      for (const [obj, px] of list) {
        if (!obj.visible) continue;
        obj.getWorldPosition(_v);
        obj.scale.setScalar(px * this.worldPerPixel(_v));
      }
    }
    this.renderer.render(this.scene, this.camera);
    this.labelRenderer.render(this.scene, this.camera);
    this.#declutter();
  }

  /** No two labels over each other ("box 1", "ray 2", "plane 4"): a label that would overlap one
   * already kept (the selected first, then rays, then shapes) is hidden for this frame. */
  #declutter() {
    const spans = [...this.labelRenderer.domElement.querySelectorAll('.label3d')];
    const rank = (s) => (s.classList.contains('selected') ? 0 : s.classList.contains('ray') ? 1 : 2);
    spans.sort((a, b) => rank(a) - rank(b));
    const kept = [];
    for (const s of spans) {
      const r = s.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      const clash = kept.some((k) => r.left < k.right + 2 && k.left < r.right + 2 && r.top < k.bottom + 1 && k.top < r.bottom + 1);
      s.style.visibility = clash ? 'hidden' : '';
      s.dataset.hidden = clash ? 'overlap' : '';
      if (!clash) kept.push(r);
    }
  }

  resize = () => {
    const w = Math.max(this.container.clientWidth, 1);
    const h = Math.max(this.container.clientHeight, 1);
    this.renderer.setSize(w, h, false);
    this.labelRenderer.setSize(w, h);
    this.camera.aspect = w / h;
    this.camera.updateProjectionMatrix();
    this.renderNow();
  };

  /** Client (CSS pixel) coordinates of the world point p, and whether it is on screen. */
  project(p) {
    const rect = this.canvas.getBoundingClientRect();
    const v = p.clone().project(this.camera);
    return {
      x: rect.left + ((v.x + 1) / 2) * rect.width,
      y: rect.top + ((1 - v.y) / 2) * rect.height,
      onScreen: v.z > -1 && v.z < 1 && Math.abs(v.x) <= 1 && Math.abs(v.y) <= 1,
    };
  }

  /** Frame the scene `state`: every box and sphere, every ray's origin and tip, for the
   * view's aspect (a tall phone screen backs the camera off until they all fit). */
  fitCamera(state) {
    const sphere = sceneBounds(state).getBoundingSphere(new THREE.Sphere());
    const camera = this.camera;
    const radius = Math.min(Math.max(sphere.radius, 2), 1e4);
    const fov = THREE.MathUtils.degToRad(camera.fov);
    const fit = Math.min(fov, 2 * Math.atan(Math.tan(fov / 2) * camera.aspect));
    let dist = (radius / Math.sin(fit / 2)) * 0.85;
    const dirn = new THREE.Vector3(0.22, 0.5, 1).normalize();
    const keyPoints = state.rays.flatMap((r) => [vec3(r.origin), along(r, 1)]);
    for (let k = 0; k < 24; k++) {
      this.#placeCamera(sphere.center, dirn, dist);
      const inside = keyPoints.every((p) => {
        const v = p.clone().project(camera);
        return Math.abs(v.x) <= 0.9 && Math.abs(v.y) <= 0.9 && v.z < 1;
      });
      if (inside) break;
      dist *= 1.1;
    }
  }

  #placeCamera(center, dirn, dist) {
    const camera = this.camera;
    camera.position.copy(center).addScaledVector(dirn, dist);
    camera.near = Math.max(dist / 500, 0.01);
    camera.far = dist * 20;
    camera.updateProjectionMatrix();
    if (this.orbit) {
      this.orbit.target.copy(center);
      this.orbit.update();
    } else {
      camera.lookAt(center);
    }
    camera.updateMatrixWorld();
  }
}

/** A box around every box, sphere and capsule and every ray's origin and tip (planes are endless). */
function sceneBounds(state) {
  const box = new THREE.Box3();
  for (const s of state.shapes) {
    if (s.type === 'aabb') box.expandByPoint(vec3(s.min)).expandByPoint(vec3(s.max));
    else if (s.type === 'obb') {
      const r = Math.hypot(...s.half);
      box.expandByPoint(vec3(s.center).addScalar(r)).expandByPoint(vec3(s.center).addScalar(-r));
    } else if (s.type === 'sphere') {
      box.expandByPoint(vec3(s.center).addScalar(s.radius)).expandByPoint(vec3(s.center).addScalar(-s.radius));
    } else if (s.type === 'capsule') {
      for (const p of [s.a, s.b]) box.expandByPoint(vec3(p).addScalar(s.radius)).expandByPoint(vec3(p).addScalar(-s.radius));
    }
  }
  for (const r of state.rays) box.expandByPoint(vec3(r.origin)).expandByPoint(along(r, 1));
  if (box.isEmpty()) box.set(new THREE.Vector3(-3, -3, -3), new THREE.Vector3(3, 3, 3));
  return box;
}
