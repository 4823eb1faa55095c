// The demo's third-person camera: it orbits the player's head (yaw, pitch) at DISTANCE, and a
// sphere of radius CAMERA_RADIUS cast from the head towards where the camera wants to be
// (slabcast/three's castSphere) pulls it in front of any wall in between, so the camera never
// passes through one. It comes back out smoothly once the way is clear.
import { Vector3 } from 'three';

export const DISTANCE = 6;
export const CAMERA_RADIUS = 0.25;
const MIN_DISTANCE = 0.6;
const PITCH_MIN = -0.35;
const PITCH_MAX = 1.25;

/** A follow camera for world (a ThreeWorld) and camera (a PerspectiveCamera); exclude: the player. */
export function createFollowCamera(world, camera, exclude) {
  const view = { yaw: 0.6, pitch: 0.35, distance: DISTANCE, blocked: false };
  const back = new Vector3();
  const opts = { exclude, maxDistance: DISTANCE };
  const stats = { queries: 0 };
  return {
    view,
    stats,
    /** Turns the view by (dyaw, dpitch) radians (pitch kept between its limits). */
    turn(dyaw, dpitch) {
      view.yaw += dyaw;
      view.pitch = Math.min(PITCH_MAX, Math.max(PITCH_MIN, view.pitch + dpitch));
    },
    /** Sets the view (yaw, pitch radians). */
    set(yaw, pitch) {
      view.yaw = yaw;
      view.pitch = Math.min(PITCH_MAX, Math.max(PITCH_MIN, pitch));
    },
    /** The forward direction on the ground (where "up" on the keys walks), into out. */
    forward(out) {
      return out.set(-Math.sin(view.yaw), 0, -Math.cos(view.yaw));
    },
    /** Places the camera behind head (a Vector3) for a frame of dt seconds (0: no smoothing). */
    update(head, dt) {
      const cp = Math.cos(view.pitch);
      back.set(Math.sin(view.yaw) * cp, Math.sin(view.pitch), Math.cos(view.yaw) * cp);
      stats.queries = 1;
      const hit = world.castSphere(head, back, CAMERA_RADIUS, opts);
      // stop 5 cm before the contact; never closer than MIN_DISTANCE (inside the player's head)
      const free = hit === null ? DISTANCE : Math.max(MIN_DISTANCE, hit.distance - 0.05);
      view.blocked = hit !== null;
      // pulled in at once (never through a wall), let out gently
      view.distance = free < view.distance || dt === 0 ? free : Math.min(free, view.distance + (free - view.distance) * Math.min(1, 6 * dt));
      camera.position.copy(head).addScaledVector(back, view.distance);
      camera.lookAt(head);
      camera.updateMatrixWorld();
    },
  };
}
