// Faithful JavaScript ports of textbook ray-box code, bugs included, for docs/edge-cases.md:
// a C# slab-method tutorial ("seed 000"), the Game Physics Cookbook ("seed 002") and an
// OpenGL ES engine's ray class ("seed 004"). Every function names the code it ports. Where the
// seed computes in float, every operation is rounded to float32 with Math.fround (one rounding
// per C / C# operation: for +, -, *, / and sqrt of float32 operands, rounding the double result
// to float32 gives the correctly rounded float32 result, as the original would).
//
// Inputs use slabcast's shapes (ray {origin, dir}, aabb {min, max}, sphere {center, radius},
// plane {normal, d}, segment {a, b}); each port converts them the way a user of that code would.
// The ray's direction is passed as given (no normalizing constructor is run) unless the seed's
// own function normalizes it.

const f = Math.fround;

// ---------------------------------------------------------------------------------------------
// Seed 000 (a C# ray-AABB tutorial), "The Algorithm": C#
//   public static float Raycast(Ray ray, AABB aabb)
// float arithmetic. Min / Max are taken to be System.Math.Min / Max (the seed does not define
// them); for float arguments they return NaN when either argument is NaN, exactly as JS
// Math.min / Math.max do. This is what makes the function return NaN for a zero direction
// component with the origin on that slab's plane (a known bug of the tutorial).
// Returns the float the C# function returns: -1 for "no intersection", else t (which may be NaN
// or Infinity).

/** @returns {number} */
export function seed000Raycast(ray, aabb) {
  const [px, py, pz] = ray.origin.map(f);
  const [nx, ny, nz] = ray.dir.map(f);
  const [minX, minY, minZ] = aabb.min.map(f);
  const [maxX, maxY, maxZ] = aabb.max.map(f);
  const t1 = f(f(minX - px) / nx);
  const t2 = f(f(maxX - px) / nx);
  const t3 = f(f(minY - py) / ny);
  const t4 = f(f(maxY - py) / ny);
  const t5 = f(f(minZ - pz) / nz);
  const t6 = f(f(maxZ - pz) / nz);
  const Max = Math.max;
  const Min = Math.min;
  const tmin = Max(Max(Min(t1, t2), Min(t3, t4)), Min(t5, t6));
  const tmax = Min(Min(Max(t1, t2), Max(t3, t4)), Max(t5, t6));
  // if tmax < 0, ray (line) is intersecting AABB, but whole AABB is behing us
  if (tmax < 0) return -1;
  // if tmin > tmax, ray doesn't intersect AABB
  if (tmin > tmax) return -1;
  if (tmin < 0) return tmax;
  return tmin;
}

// ---------------------------------------------------------------------------------------------
// Seed 002: Game Physics Cookbook chapter 10. The chapter text we had is
// cut off before the code; the book's code is gszauer/GamePhysicsCookbook, Code/Geometry3D.cpp
// and Code/vectors.cpp at commit 88780be4ec736449dce7e962aad35b8a10fced20 (the version
// docs/conventions.md cites). float arithmetic; fminf / fmaxf return the other argument when one
// is NaN (C99), unlike Math.min / Math.max.

const FLT_EPSILON = 2 ** -23;
const COOKBOOK_TINY = f(0.00001);

function fminf(a, b) {
  if (Number.isNaN(a)) return b;
  if (Number.isNaN(b)) return a;
  return a < b ? a : b;
}

function fmaxf(a, b) {
  if (Number.isNaN(a)) return b;
  if (Number.isNaN(b)) return a;
  return a > b ? a : b;
}

/** Geometry3D.cpp: #define CMP(x, y) (fabsf(x - y) <= FLT_EPSILON * fmaxf(1.0f, fmaxf(fabsf(x), fabsf(y)))) */
function CMP(x, y) {
  return Math.abs(f(x - y)) <= f(FLT_EPSILON * fmaxf(1, fmaxf(Math.abs(x), Math.abs(y))));
}

const v3 = (a) => a.map(f);
const sub = (a, b) => [f(a[0] - b[0]), f(a[1] - b[1]), f(a[2] - b[2])];
const add = (a, b) => [f(a[0] + b[0]), f(a[1] + b[1]), f(a[2] + b[2])];
const scale = (a, s) => [f(a[0] * s), f(a[1] * s), f(a[2] * s)];
/** vectors.cpp Dot: l.x * r.x + l.y * r.y + l.z * r.z, left to right. */
const dot = (a, b) => f(f(f(a[0] * b[0]) + f(a[1] * b[1])) + f(a[2] * b[2]));
/** vectors.cpp Magnitude / Normalized: v * (1.0f / sqrtf(Dot(v, v))). */
const normalized = (v) => scale(v, f(1 / f(Math.sqrt(dot(v, v)))));

/** Geometry3D.cpp FromMinMax: AABB((min + max) * 0.5f, (max - min) * 0.5f). */
function cookbookAabb(box) {
  const min = v3(box.min);
  const max = v3(box.max);
  return { position: scale(add(min, max), 0.5), size: scale(sub(max, min), 0.5) };
}

/** Geometry3D.cpp GetMin / GetMax. */
function getMinMax(aabb) {
  const p1 = add(aabb.position, aabb.size);
  const p2 = sub(aabb.position, aabb.size);
  return {
    min: [fminf(p1[0], p2[0]), fminf(p1[1], p2[1]), fminf(p1[2], p2[2])],
    max: [fmaxf(p1[0], p2[0]), fmaxf(p1[1], p2[1]), fmaxf(p1[2], p2[2])],
  };
}

/**
 * Geometry3D.cpp: bool Raycast(const AABB& aabb, const Ray& ray, RaycastResult* outResult).
 * A direction component within CMP of 0 is replaced by 0.00001f.
 * @returns {{hit: boolean, t: number}} (t = -1 on a miss, as ResetRaycastResult leaves it)
 */
export function seed002RaycastAabb(ray, box) {
  const aabb = cookbookAabb(box);
  const { min, max } = getMinMax(aabb);
  const o = v3(ray.origin);
  const d = v3(ray.dir);
  const div = (i) => (CMP(d[i], 0) ? COOKBOOK_TINY : d[i]);
  const t1 = f(f(min[0] - o[0]) / div(0));
  const t2 = f(f(max[0] - o[0]) / div(0));
  const t3 = f(f(min[1] - o[1]) / div(1));
  const t4 = f(f(max[1] - o[1]) / div(1));
  const t5 = f(f(min[2] - o[2]) / div(2));
  const t6 = f(f(max[2] - o[2]) / div(2));
  const tmin = fmaxf(fmaxf(fminf(t1, t2), fminf(t3, t4)), fminf(t5, t6));
  const tmax = fminf(fminf(fmaxf(t1, t2), fmaxf(t3, t4)), fmaxf(t5, t6));
  // if tmax < 0, ray is intersecting AABB but entire AABB is behing it's origin
  if (tmax < 0) return { hit: false, t: -1 };
  // if tmin > tmax, ray doesn't intersect AABB
  if (tmin > tmax) return { hit: false, t: -1 };
  let tResult = tmin;
  // If tmin is < 0, tmax is closer
  if (tmin < 0) tResult = tmax;
  return { hit: true, t: tResult };
}

/**
 * Geometry3D.cpp: bool Raycast(const Sphere& sphere, const Ray& ray, RaycastResult* outResult)
 * ("ray.direction is assumed to be normalized"). No test of t < 0.
 */
export function seed002RaycastSphere(ray, sphere) {
  const o = v3(ray.origin);
  const d = v3(ray.dir);
  const e = sub(v3(sphere.center), o);
  const r = f(sphere.radius);
  const rSq = f(r * r);
  const eSq = dot(e, e);
  const a = dot(e, d);
  const bSq = f(eSq - f(a * a));
  const ff = f(Math.sqrt(Math.abs(f(rSq - bSq))));
  let t = f(a - ff);
  // No collision has happened
  if (f(rSq - f(eSq - f(a * a))) < 0) return { hit: false, t: -1 };
  // Ray starts inside the sphere
  else if (eSq < rSq) t = f(a + ff);
  return { hit: true, t };
}

/**
 * Geometry3D.cpp: bool Raycast(const Plane& plane, const Ray& ray, RaycastResult* outResult).
 * One-sided: nd >= 0 is a miss. The Cookbook plane is Dot(normal, x) = distance, as slabcast's.
 */
export function seed002RaycastPlane(ray, plane) {
  const o = v3(ray.origin);
  const d = v3(ray.dir);
  const n = v3(plane.normal);
  const nd = dot(d, n);
  const pn = dot(o, n);
  // nd must be negative, and not 0
  if (nd >= 0) return { hit: false, t: -1 };
  const t = f(f(f(plane.d) - pn) / nd);
  // t must be positive
  if (t >= 0) return { hit: true, t };
  return { hit: false, t: -1 };
}

/**
 * Geometry3D.cpp: bool Linetest(const AABB& aabb, const Line& line). Casts the ray
 * (start, Normalized(end - start)) and compares t * t with LengthSq(line).
 */
export function seed002LinetestAabb(segment, box) {
  const start = v3(segment.a);
  const end = v3(segment.b);
  // Ray ray; ray.origin = line.start; ray.direction = Normalized(line.end - line.start);
  const ray = { origin: start, dir: normalized(sub(end, start)) };
  const rc = seed002RaycastAabb(ray, box);
  if (!rc.hit) return false;
  const t = rc.t;
  const lengthSq = dot(sub(start, end), sub(start, end));
  return t >= 0 && f(t * t) <= lengthSq;
}

/**
 * Geometry3D.cpp: bool Linetest(const Plane& plane, const Line& line). A segment parallel to the
 * plane (CMP(nAB, 0)) is a miss, even when it lies in the plane.
 */
export function seed002LinetestPlane(segment, plane) {
  const start = v3(segment.a);
  const ab = sub(v3(segment.b), start);
  const n = v3(plane.normal);
  const nA = dot(n, start);
  const nAB = dot(n, ab);
  if (CMP(nAB, 0)) return false;
  const t = f(f(f(plane.d) - nA) / nAB);
  return t >= 0 && t <= 1;
}

// ---------------------------------------------------------------------------------------------
// Seed 004 (an OpenGL ES engine's ray class): C++
//   std::pair<bool, T> intersects(const AxisAlignedBox<T>& box) const
// with T = float. The seed does not show tvec3's operator> / operator<; they are taken to be
// componentwise (all three components), i.e. "the origin is strictly inside the box", which is
// how the seed's comment (点在包围盒里面) and docs/conventions.md read it.
// Returns [hit, lowt] like the original's pair.

export function seed004Intersects(ray, box) {
  const o = v3(ray.origin);
  const d = v3(ray.dir);
  const min = v3(box.min);
  const max = v3(box.max);
  let lowt = 0;
  let hit = false;
  // 点在包围盒里面 (the point is inside the box)
  if (o[0] > min[0] && o[1] > min[1] && o[2] > min[2] && o[0] < max[0] && o[1] < max[1] && o[2] < max[2]) {
    return [true, 0];
  }
  // Check each face in turn, only check closest 3: (axis, bound, test of origin, test of dir)
  const faces = [
    [0, min, o[0] <= min[0] && d[0] > 0],
    [0, max, o[0] >= max[0] && d[0] < 0],
    [1, min, o[1] <= min[1] && d[1] > 0],
    [1, max, o[1] >= max[1] && d[1] < 0],
    [2, min, o[2] <= min[2] && d[2] > 0],
    [2, max, o[2] >= max[2] && d[2] < 0],
  ];
  for (const [axis, bound, test] of faces) {
    if (!test) continue;
    const t = f(f(bound[axis] - o[axis]) / d[axis]);
    if (t >= 0) {
      // Substitute t back into ray and check bounds and dist
      const hitpoint = add(o, scale(d, t));
      let inside = true;
      for (let k = 0; k < 3; k++) {
        if (k === axis) continue;
        if (!(hitpoint[k] >= min[k] && hitpoint[k] <= max[k])) inside = false;
      }
      if (inside && (!hit || t < lowt)) {
        hit = true;
        lowt = t;
      }
    }
  }
  return [hit, lowt];
}
