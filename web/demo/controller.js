// The demo's character controller: a kinematic capsule moved only by slabcast/three's
// castCapsule (no physics engine). The capsule is the points within RADIUS of the vertical
// segment centre +- (0, HALF, 0); it keeps a gap of at most SKIN to whatever it rests on or
// slides along, and never touches anything:
//   - move and slide: cast the capsule along the move; stop SKIN (measured along the contact
//     normal) short of the first contact, remove the normal component from what is left of the
//     move, and cast again (ITERATIONS times at most);
//   - steps: a horizontal move blocked by a wall-like contact is tried again lifted by
//     STEP_HEIGHT, then put down (a downward cast); kept when it gets further and lands on
//     something walkable (contact normal y >= WALKABLE);
//   - ground: a short downward cast each frame (falling: the fall's length; standing: up to
//     SNAP, which keeps the capsule on the ground walking down a step) finds the ground, snaps to
//     it, and says whether the capsule stands. A contact whose normal is too steep may still be
//     the edge of something walkable (the rounded bottom resting on a step's edge): a short ray
//     (intersectFirst) straight down just past the contact, into the support, tells: a box's top
//     face answers with an upward normal, a wall or a ball's side does not;
//   - gravity: the vertical speed grows by GRAVITY * dt while nothing is under the capsule.
// Every query of a step is counted in stats.queries (the demo's "queries per frame").
import { Raycaster, Vector3 } from 'three';

export const RADIUS = 0.35;
export const HALF = 0.55; // half the segment: the capsule is 2 * (HALF + RADIUS) = 1.8 m tall
export const SKIN = 0.02;
export const STEP_HEIGHT = 0.45;
export const SNAP = 0.3;
export const WALKABLE = 0.7;
export const SPEED = 5;
export const GRAVITY = 22;
export const JUMP_SPEED = 7.5;
export const ITERATIONS = 4;

/**
 * The casts of a capsule controller on world (a ThreeWorld), skipping exclude, counted in
 * stats.queries: { cast, sweep, supports, slide }.
 */
function createSweeper(world, exclude, stats) {
  const a = new Vector3();
  const b = new Vector3();
  const dir = new Vector3();
  const opts = { exclude, maxDistance: 0 };
  const probe = new Raycaster(new Vector3(), new Vector3(0, -1, 0), 0, 0.1);
  const probeOpts = { exclude };

  /** The first contact of the capsule at p moving by d (length len), or null. */
  function cast(p, d, len) {
    a.set(p.x, p.y - HALF, p.z);
    b.set(p.x, p.y + HALF, p.z);
    opts.maxDistance = len + SKIN;
    stats.queries++;
    return world.castCapsule(a, b, RADIUS, d, opts);
  }

  /**
   * Moves p by d (changed in place to what is left, slid along the contact), stopping SKIN short
   * of the first contact; returns the contact or null (p moved all of d).
   */
  function sweep(p, d) {
    const len = d.length();
    if (len < 1e-7) {
      d.set(0, 0, 0);
      return null;
    }
    dir.copy(d).divideScalar(len);
    const hit = cast(p, dir, len);
    if (hit === null || hit.distance > len + SKIN) {
      p.add(d);
      d.set(0, 0, 0);
      return null;
    }
    const n = hit.normal;
    const cos = -dir.dot(n); // > 0: moving towards the contact
    const travel = cos > 1e-6 ? Math.min(len, Math.max(0, hit.distance - SKIN / cos)) : 0;
    p.addScaledVector(dir, travel);
    d.addScaledVector(dir, -travel);
    d.addScaledVector(n, -d.dot(n)); // (a zero normal, touching at the start: nothing left to slide)
    if (n.x === 0 && n.y === 0 && n.z === 0) d.set(0, 0, 0);
    return hit;
  }

  /**
   * Whether the downward contact hit (of the capsule centred at p) can carry the capsule: a
   * walkable normal, or a ray down from 5 cm above the contact, 1 cm further from the capsule's
   * axis, meets a walkable face within 10 cm.
   */
  function supports(p, hit) {
    if (hit.normal.y >= WALKABLE) return true;
    const q = hit.point;
    const dx = q.x - p.x;
    const dz = q.z - p.z;
    const l = Math.hypot(dx, dz);
    if (l < 1e-6) return false;
    probe.ray.origin.set(q.x + (0.01 * dx) / l, q.y + 0.05, q.z + (0.01 * dz) / l);
    stats.queries++;
    const under = world.intersectFirst(probe, probeOpts);
    return under !== null && under.worldNormal.y >= WALKABLE;
  }

  /** Move and slide: returns whether a wall-like contact (normal y < WALKABLE) blocked it. */
  function slide(p, d) {
    let blocked = false;
    for (let i = 0; i < ITERATIONS; i++) {
      const hit = sweep(p, d);
      if (hit === null) break;
      if (hit.normal.y < WALKABLE) blocked = true;
      if (d.lengthSq() < 1e-12) break;
    }
    return blocked;
  }

  return { cast, sweep, supports, slide };
}

/**
 * A controller for world (a ThreeWorld) whose capsule is centred at position (a Vector3 the
 * controller moves); exclude: what the casts skip (the player's own meshes).
 */
export function createController(world, position, exclude) {
  const rest = new Vector3();
  const saved = new Vector3();
  const down = new Vector3(0, -1, 0);
  const stats = { queries: 0 };
  const state = { vy: 0, onGround: false, ground: null };
  const { cast, sweep, supports, slide } = createSweeper(world, exclude, stats);

  /** Horizontal move by (dx, dz), stepping onto low things when blocked on the ground. */
  function walk(p, dx, dz) {
    if (dx === 0 && dz === 0) return;
    saved.copy(p);
    rest.set(dx, 0, dz);
    const blocked = slide(p, rest);
    if (!blocked || !state.onGround) return;
    const plain = Math.hypot(p.x - saved.x, p.z - saved.z);
    const q = saved.clone();
    rest.set(0, STEP_HEIGHT, 0);
    sweep(q, rest);
    const lifted = q.y - saved.y;
    rest.set(dx, 0, dz);
    slide(q, rest);
    rest.set(0, -(lifted + SKIN), 0);
    const land = sweep(q, rest);
    const further = Math.hypot(q.x - saved.x, q.z - saved.z);
    if (land !== null && further > plain + 1e-3 && supports(q, land)) p.copy(q);
  }

  /** Vertical move and ground detection. */
  function fall(p, dt, wasOnGround) {
    if (state.vy > 0) {
      rest.set(0, state.vy * dt, 0);
      if (sweep(p, rest) !== null) state.vy = 0; // a ceiling
      state.onGround = false;
      state.ground = null;
      return;
    }
    const drop = -state.vy * dt;
    const reach = Math.max(drop, wasOnGround ? SNAP : 0);
    const hit = cast(p, down, reach);
    if (hit !== null && hit.normal.y > 0 && supports(p, hit)) {
      p.y -= Math.max(0, hit.distance - SKIN / hit.normal.y);
      state.vy = 0;
      state.onGround = true;
      state.ground = hit.object;
      return;
    }
    // nothing walkable below within reach: fall (sliding off anything steep)
    state.onGround = false;
    state.ground = null;
    rest.set(0, -drop, 0);
    slide(p, rest);
  }

  return {
    stats,
    state,
    /** One step of dt seconds; move: a world-space direction {x, z} (length <= 1), jump: a boolean. */
    step(dt, move, jump) {
      const p = position;
      stats.queries = 0;
      const wasOnGround = state.onGround;
      if (jump && state.onGround) state.vy = JUMP_SPEED;
      state.vy -= GRAVITY * dt;
      if (state.onGround && state.vy < 0) state.vy = 0;
      walk(p, move.x * SPEED * dt, move.z * SPEED * dt);
      if (state.onGround && state.vy === 0) state.vy = -GRAVITY * dt; // press on the ground
      fall(p, dt, wasOnGround);
    },
  };
}
