// slabcast demo: a third-person capsule character in a city of boxes, rotated boxes, spheres and
// capsules, every collision answered by slabcast/three (docs/game-dev.md, "The demo"):
//   - the character: controller.js (castCapsule: move and slide, steps, ground, gravity);
//   - the camera: camera.js (castSphere from the head: never through a wall);
//   - "in view": overlapFrustum(camera) each frame;
//   - a click or tap picks and highlights: intersectFirst(raycaster, { exclude: player });
//   - keys, joystick and drag: input.js; the city: city.js.
// No physics engine, none of three.js's examples' collision code. The HUD (top left) shows the
// slabcast queries of the last frame and the milliseconds the frame's game step took (moving the
// character and camera, world.update(), the frustum count, picking), averaged over 250 ms.
// window.__demo is the browser test's handle (tests/web/demo.browser.test.mjs): pause the
// animation loop, then step(dt, input) frames one by one, deterministically.
import {
  BoxGeometry, CapsuleGeometry, Color, DirectionalLight, Fog, Group, HemisphereLight, Mesh,
  MeshStandardMaterial, PerspectiveCamera, Raycaster, Scene, Vector2, Vector3, WebGLRenderer,
} from 'three';
import { loadSlabcast } from '../slabcast.js';
import { createThreeWorld } from '../three.js';
import { LANDMARKS, buildCity } from './city.js';
import { HALF, RADIUS, SKIN, createController } from './controller.js';
import { createFollowCamera } from './camera.js';
import { createInput } from './input.js';

const $ = (id) => document.getElementById(id);
const LOOK_SPEED = 0.005; // radians per dragged pixel

/** The player: a capsule body (a CapsuleGeometry: a capsule in the world) and a visor in front (-z). */
function makePlayer() {
  const player = new Group();
  player.name = 'player';
  const body = new Mesh(new CapsuleGeometry(RADIUS, 2 * HALF, 6, 16), new MeshStandardMaterial({ color: new Color('#f08c2e'), roughness: 0.55 }));
  body.name = 'player body';
  const visor = new Mesh(new BoxGeometry(0.42, 0.14, 0.16), new MeshStandardMaterial({ color: new Color('#243447'), roughness: 0.3 }));
  visor.name = 'player visor';
  visor.position.set(0, HALF + 0.08, -RADIUS + 0.05);
  player.add(body, visor);
  return player;
}

function makeScene(canvasHost) {
  const renderer = new WebGLRenderer({ antialias: true });
  renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2));
  canvasHost.appendChild(renderer.domElement);
  const scene = new Scene();
  scene.background = new Color('#b9cde4');
  scene.fog = new Fog('#b9cde4', 70, 150);
  scene.add(new HemisphereLight('#eef4ff', '#6d6657', 1.6));
  const sun = new DirectionalLight('#fff4e0', 1.8);
  sun.position.set(40, 80, 25);
  scene.add(sun);
  const camera = new PerspectiveCamera(60, 1, 0.1, 150);
  return { renderer, scene, camera };
}

/**
 * The HUD: record() after each game step; show(force) refreshes it with the averages of the steps
 * since the last refresh, at most every 250 ms (force: now).
 */
function createHud(stats, picked) {
  const hud = { queries: $('hud-queries'), ms: $('hud-ms'), view: $('hud-view'), picked: $('hud-picked') };
  const acc = { n: 0, q: 0, ms: 0, since: performance.now() };
  const record = () => {
    acc.n++;
    acc.q += stats.queries;
    acc.ms += stats.ms;
  };
  const show = (force) => {
    const now = performance.now();
    if (acc.n === 0 || (!force && now - acc.since < 250)) return;
    hud.queries.textContent = (acc.q / acc.n).toFixed(1);
    hud.ms.textContent = (acc.ms / acc.n).toFixed(2);
    hud.view.textContent = `${stats.inView} of ${stats.objects}`;
    hud.picked.textContent = picked.name;
    acc.n = 0; acc.q = 0; acc.ms = 0; acc.since = now;
  };
  return { record, show };
}

async function main() {
  const sc = await loadSlabcast();
  const { renderer, scene, camera } = makeScene($('view'));
  const city = buildCity();
  scene.add(city.group);
  const player = makePlayer();
  player.position.set(0, HALF + RADIUS + SKIN, 0);
  scene.add(player);
  scene.updateMatrixWorld();
  const world = createThreeWorld(sc, { objects: [city.group, player] });
  const pos = player.position;
  const controller = createController(world, pos, player);
  const follow = createFollowCamera(world, camera, player);
  const input = createInput({
    view: $('view'), stick: $('stick'), knob: $('knob'), jumpButton: $('jump'),
    onTurn: (dx, dy) => follow.turn(-dx * LOOK_SPEED, dy * LOOK_SPEED),
  });

  const visible = [];
  const frustumOpts = { target: visible, exclude: player };
  const raycaster = new Raycaster();
  const ndc = new Vector2();
  const head = new Vector3();
  const fwd = new Vector3();
  const highlight = new MeshStandardMaterial({ color: new Color('#ffd43b'), emissive: new Color('#8a5a00'), roughness: 0.4 });
  const picked = { mesh: null, material: null, name: 'nothing' };
  const stats = { queries: 0, ms: 0, inView: 0, objects: city.count, frames: 0 };

  /** Highlights what a ray through ndc (x, y in -1..1) hits first, the player excluded; returns its name. */
  function pick(x, y) {
    ndc.set(x, y);
    raycaster.setFromCamera(ndc, camera);
    const hit = world.intersectFirst(raycaster, { exclude: player });
    if (picked.mesh !== null) picked.mesh.material = picked.material;
    picked.mesh = null;
    picked.name = 'nothing';
    if (hit !== null && hit.object !== null) {
      picked.mesh = hit.object;
      picked.material = hit.object.material;
      hit.object.material = highlight;
      picked.name = `${hit.object.name} (${world.kindOf(hit.index)}, ${hit.distance.toFixed(1)} m)`;
    }
    return hit === null || hit.object === null ? null : hit.object.name;
  }

  /** One frame of the game: input (world-space {x, z, jump}, or the live input), moves, queries. */
  function step(dt, given) {
    const t0 = performance.now();
    let move;
    let jump;
    if (given) {
      move = { x: given.x ?? 0, z: given.z ?? 0 };
      jump = given.jump === true;
    } else {
      const m = input.move();
      follow.forward(fwd);
      move = { x: fwd.x * m.forward - fwd.z * m.right, z: fwd.z * m.forward + fwd.x * m.right };
      jump = input.jump;
      input.jump = false;
    }
    controller.step(dt, move, jump);
    if (move.x !== 0 || move.z !== 0) player.rotation.y = Math.atan2(-move.x, -move.z);
    player.updateMatrixWorld();
    world.update();
    head.set(pos.x, pos.y + HALF + 0.6 * RADIUS, pos.z);
    follow.update(head, dt);
    world.overlapFrustum(camera, frustumOpts);
    let queries = controller.stats.queries + follow.stats.queries + 1;
    if (input.pick !== null) {
      pick(input.pick.x, input.pick.y);
      input.pick = null;
      queries++;
    }
    stats.queries = queries;
    stats.ms = performance.now() - t0;
    stats.inView = visible.length;
    stats.frames++;
    hud.record();
    return snapshot();
  }

  const snapshot = () => ({
    position: [pos.x, pos.y, pos.z], onGround: controller.state.onGround, ground: controller.state.ground?.name ?? null,
    queries: stats.queries, ms: stats.ms, inView: stats.inView, picked: picked.name,
  });

  function resize() {
    const w = window.innerWidth;
    const h = window.innerHeight;
    renderer.setSize(w, h, false);
    camera.aspect = w / h;
    camera.updateProjectionMatrix();
  }
  window.addEventListener('resize', resize);
  resize();

  const hud = createHud(stats, picked);

  const loop = { paused: false, last: performance.now() };
  function frame(now) {
    const dt = Math.min(0.05, Math.max(0, (now - loop.last) / 1000));
    loop.last = now;
    if (!loop.paused) {
      step(dt);
      hud.show(false);
    }
    renderer.render(scene, camera);
    requestAnimationFrame(frame);
  }
  step(0);
  hud.show(true);
  renderer.render(scene, camera);
  requestAnimationFrame(frame);

  window.__demo = testHandle({ world, scene, camera, player, pos, controller, follow, city, visible, step, pick, snapshot, hud, renderer, loop });
  document.body.dataset.ready = 'true';
}

/** window.__demo: the browser test's handle on the running demo (c: the demo's parts). */
function testHandle(c) {
  const { world, scene, camera, player, pos, controller, follow, city, visible, step, pick, snapshot, hud, renderer, loop } = c;
  return {
    world, scene, camera, player, landmarks: LANDMARKS, constants: { RADIUS, HALF, SKIN },
    pause() { loop.paused = true; },
    resume() { loop.paused = false; loop.last = performance.now(); },
    /** One frame of dt seconds: input { x, z, jump } (world space), or the live keys / joystick. */
    step(dt = 1 / 60, given = undefined) { return step(dt, given); },
    /** Renders the current frame and refreshes the HUD. */
    render() { hud.show(true); renderer.render(scene, camera); },
    /** Puts the capsule's centre at (x, y, z), at rest in the air. */
    teleport(x, y, z) {
      pos.set(x, y, z);
      controller.state.vy = 0;
      controller.state.onGround = false;
      player.updateMatrixWorld();
      world.update();
    },
    view(yaw, pitch) { follow.set(yaw, pitch); },
    pick,
    snapshot,
    /** The player's capsule: { a, b, radius } (world). */
    capsule: () => ({ a: [pos.x, pos.y - HALF, pos.z], b: [pos.x, pos.y + HALF, pos.z], radius: RADIUS }),
    /** The names of what the player's capsule overlaps (slabcast's overlapCapsule, the player excluded). */
    overlaps: () => world.overlapCapsule(new Vector3(pos.x, pos.y - HALF, pos.z), new Vector3(pos.x, pos.y + HALF, pos.z), RADIUS, { exclude: player }).map((r) => r.object.name),
    /** What the frustum count saw: the camera's matrices, and each city mesh's matrix, local box and sphere, counted or not. */
    frustumData() {
      const counted = new Set(visible.map((r) => r.object));
      const objects = [];
      city.group.traverse((o) => {
        if (!o.isMesh) return;
        const g = o.geometry;
        if (g.boundingBox === null) g.computeBoundingBox();
        if (g.boundingSphere === null) g.computeBoundingSphere();
        objects.push({
          name: o.name, counted: counted.has(o), matrix: o.matrixWorld.elements.slice(),
          box: [...g.boundingBox.min.toArray(), ...g.boundingBox.max.toArray()],
          sphere: [...g.boundingSphere.center.toArray(), g.boundingSphere.radius],
        });
      });
      return { projection: camera.projectionMatrix.elements.slice(), inverse: camera.matrixWorldInverse.elements.slice(), objects, count: visible.length };
    },
  };
}

main().catch((e) => {
  const box = $('loading');
  box.classList.add('failed');
  box.textContent = `The demo could not start: ${e && e.message ? e.message : e}`;
  console.error(e);
});
