// A TypeScript consumer of the packed slabcast package: type-checked (tsc --noEmit)
// by tests/web/package.test.mjs with several moduleResolution settings. Every line
// marked @ts-expect-error must be an error, and everything else must check, so the
// types are neither too loose nor too strict.
import { loadSlabcast, SlabcastError, truncateUtf8 } from 'slabcast';
import { checkCases, FORMAT, parseCaseFile, runCases } from 'slabcast/cases';
import type { CheckSummary } from 'slabcast/cases';
import type {
  Aabb, Capsule, CastAllResult, CastResult, CastTarget, FloatBatch, LoadOptions, Obb, ObjectKind, Plane, QueryOptions, Ray, SweepResult,
  RaycastHit, RaycastMiss, RaycastResult, Segment, Shape, Slabcast, Sphere, Vec3, Vec3Input, World,
} from 'slabcast';

// The API must not have decayed to `any` (which would make every check below pass).
type IsAny<T> = 0 extends 1 & T ? true : false;
const slabcastIsTyped: IsAny<Slabcast> = false;
const loadIsTyped: IsAny<typeof loadSlabcast> = false;

export async function main(): Promise<number> {
  const options: LoadOptions = { wasm: new URL('slabcast.wasm', 'file:///somewhere/') };
  const fromBytes: LoadOptions = { wasm: new Uint8Array(8) };
  const sc: Slabcast = await loadSlabcast();
  void options; void fromBytes; void slabcastIsTyped; void loadIsTyped;
  // The case runner, a separate entry (slabcast/cases).
  const file = new TextEncoder().encode(`{"format": "${FORMAT}", "cases": []}`);
  const summary: CheckSummary = checkCases(runCases(sc, parseCaseFile(file, 'empty.json')));
  const passed: number = summary.passed;
  // @ts-expect-error: the mode is 'run' or 'check'
  void (0 as unknown as typeof import('slabcast/cases')).runCaseFile(sc, 'lint', 'x.json');
  void passed;

  const ray: Ray = { origin: [-3, 0.5, 0.25], dir: [2, 0, 0] };
  const short: Ray = { origin: new Float32Array(3), dir: [1, 0, 0], tmax: 0.5 };
  const box: Aabb = { type: 'aabb', min: [-1, -1, -1], max: [1, 1, 1] };
  const obb: Obb = { type: 'obb', center: [0, 0, 0], axes: [[1, 0, 0], [0, 1, 0], [0, 0, 1]], half: [1, 2, 3] };
  const ball: Sphere = { type: 'sphere', center: [0, 0, 0], radius: 1 };
  const plane: Plane = { type: 'plane', normal: [0, 1, 0], d: 0 };
  const pill: Capsule = { type: 'capsule', a: [0, 0, 0], b: [0, 1.5, 0], radius: 0.5 };
  // @ts-expect-error a capsule needs its radius
  const noRadius: Capsule = { type: 'capsule', a: [0, 0, 0], b: [0, 1, 0] };
  void noRadius;
  const shapes: Shape[] = [box, obb, ball, plane, pill];

  const r: RaycastResult = sc.raycast(ray, box);
  // @ts-expect-error t exists only on a hit: narrow on r.hit first
  void r.t;
  let t = -1;
  if (r.hit) {
    const hit: RaycastHit = r;
    const point: Vec3 = hit.point;
    const normal: Vec3 = r.normal;
    t = r.t + r.t_enter + r.t_exit + point[0] + normal[0];
  } else {
    const miss: RaycastMiss = r;
    void miss;
  }
  void sc.raycast(short, ball);

  const seg: Segment = { a: [0, 0, 0], b: [1, 1, 1] };
  const crosses: boolean = sc.linetest(seg, obb).hit;
  const nearest: Vec3 = sc.closestPoint([5, 0, 0], ball).point;
  const inside: boolean = sc.contains([0, 0, 0] as Vec3Input, box).inside;
  const message: string = sc.statusMessage(1);
  const simd: string = sc.simd;
  const memory: WebAssembly.Memory = sc.memory;
  void crosses; void nearest; void inside; void message; void simd; void memory; void shapes;

  const world: World = sc.createWorld();
  const first: number = world.addAABBs(new Float32Array([0, 0, 0, 1, 1, 1, 4, 0, 0, 5, 1, 1]));
  world.addSpheres([10, 0, 0, 1]);
  world.addOBBs(new Float64Array(15));
  world.updateAABBs(1, new Float32Array([4, 0, 0, 5, 2, 1]));
  const rays: FloatBatch = new Float32Array([-2, 0.5, 0.5, 1, 0, 0, Infinity]);
  const cast: CastResult = world.castRays(rays);
  const target: CastTarget = { t: new Float32Array(1), index: new Int32Array(1), normal: new Float32Array(3) };
  world.castRays(rays, target);
  world.castSegments(new Float32Array([-2, 0.5, 0.5, 2, 0.5, 0.5]));
  const all: CastAllResult = world.castRayAll(rays);
  const hits: number = all.count;
  const any: Uint8Array = world.anyHit(rays);
  const index: number | undefined = cast.index[0];
  const count: number = world.count;
  const disposed: boolean = world.disposed;
  // Filters, removal, enabled flags and masks.
  const filter: QueryOptions = { mask: 0b101, exclude: new Int32Array([0]), inside: 'exit' };
  world.castRays(rays, null, filter);
  world.anyHit(rays, undefined, { inside: 'skip' });
  world.castRayAll(rays, undefined, { mask: ~1 });
  world.setMasks(0, new Uint32Array([1, 2]));
  world.setEnabled(0, new Uint8Array([1, 0]));
  world.remove(1);
  const kind: ObjectKind | undefined = world.kindOf(1);
  // @ts-expect-error: 'outside' is not an inside rule
  world.castRays(rays, null, { inside: 'outside' });
  void kind;
  // Sweeps, overlaps, nearest objects.
  const swept: SweepResult = world.castSpheres(new Float32Array([0, 0, 0, 1, 0, 0, 10, 0.5]));
  world.castBoxes([0, 0, 0, 1, 0, 0, 10, 0.5, 0.5, 0.5], { point: new Float32Array(3) }, { mask: 1 });
  // Capsules: objects (a, b, radius), sweeps (a, b, dir, tmax, radius), overlaps.
  const capsule: number = world.addCapsules(new Float32Array([0, 0, 5, 0, 2, 5, 0.5]));
  world.updateCapsules(capsule, [0, 0, 6, 0, 2, 6, 0.5]);
  const capsuleSwept: SweepResult = world.castCapsules(new Float32Array([0, -1, 0, 0, 1, 0, 0, 0, 1, 10, 0.25]), null, { inside: 'skip' });
  world.castCapsulesBruteForce([0, -1, 0, 0, 1, 0, 0, 0, 1, 10, 0.25]);
  const inCapsule: number = world.overlapCapsule([0, 0, 0], [0, 0, 9], 1, new Int32Array(4));
  world.overlapBruteForce('capsule', [0, 0, 0, 0, 0, 9, 1], null);
  void capsuleSwept; void inCapsule;
  const within: number = world.overlapAABB([0, 0, 0], [1, 1, 1], new Int32Array(4));
  world.overlapSphere([0, 0, 0], 2, null);
  world.overlapOBB(new Float32Array(15), new Int32Array(1));
  world.overlapFrustum(new Float32Array(24), new Int32Array(1), { exclude: new Int32Array([0]) });
  const closestTo = world.closestObjects([0, 0, 0], Infinity);
  const nearestIndex: Int32Array = closestTo.index;
  // @ts-expect-error: an overlap writes indices into an Int32Array
  world.overlapAABB([0, 0, 0], [1, 1, 1], new Float32Array(4));
  void swept; void within; void nearestIndex;
  world[Symbol.dispose]();
  world.dispose();
  void first; void hits; void any; void index; void count; void disposed;

  try {
    sc.raycast({ origin: [0, 0, 0], dir: [0, 0, 0] }, ball);
  } catch (e) {
    if (e instanceof SlabcastError) {
      const field: string | undefined = e.field;
      const status: number | undefined = e.status;
      const text: string = e.message;
      void field; void status; void text;
    }
  }
  const err = new SlabcastError('x', { field: 'ray.origin' });
  const asError: Error = err;
  void asError;
  void truncateUtf8('abc', 2);

  // @ts-expect-error 'cube' is not a shape type
  sc.raycast(ray, { type: 'cube', min: [0, 0, 0], max: [1, 1, 1] });
  // @ts-expect-error a ray needs a dir
  sc.raycast({ origin: [0, 0, 0] }, box);
  // @ts-expect-error castRays takes floats, not strings
  world.castRays(['a']);
  return t;
}
