// An exact reference for "does a closed ball meet a convex polytope", in rational arithmetic
// (tests/oracle/exact.mjs), written independently of src/sc_ball.c: no multipliers, no signs
// of Lagrange conditions. The polytope's point nearest the centre is the projection of the
// centre onto the affine hull of the face that holds it, and that hull is cut out by at most
// three independent face planes; so the nearest point is among the projections of the centre
// onto every such intersection of 0 to 3 planes, and it is the nearest of those that lie in the
// polytope. Each projection is solved by Gaussian elimination on rationals.
import { Q0, fromDouble, qadd, qcmp, qdiv, qmul, qneg, qsign, qsub } from '../../oracle/exact.mjs';

const qdot = (a, b) => qadd(qadd(qmul(a[0], b[0]), qmul(a[1], b[1])), qmul(a[2], b[2]));

/** An OBB (floats) as the six half-spaces n.x <= b of its slabs |a_i.(x - center)| <= half_i. */
export function obbHalfspaces(center, axes, half) {
  const c = center.map(fromDouble);
  const hs = [];
  for (let i = 0; i < 3; i++) {
    const a = axes[i].map(fromDouble);
    const ac = qdot(a, c);
    const h = fromDouble(half[i]);
    hs.push({ n: a, b: qadd(ac, h) });
    hs.push({ n: a.map(qneg), b: qsub(h, ac) });
  }
  return hs;
}

/** Planes (nx, ny, nz, d: inside where n.x + d >= 0; floats) as half-spaces -n.x <= d. */
export function planeHalfspaces(planes) {
  const hs = [];
  for (let k = 0; k < planes.length; k += 4) {
    hs.push({ n: [0, 1, 2].map((i) => qneg(fromDouble(planes[k + i]))), b: fromDouble(planes[k + 3]) });
  }
  return hs;
}

/** Solves the k x k system M z = v over the rationals; null when M is singular. */
function solve(M, v) {
  const k = v.length;
  const A = M.map((row, i) => [...row, v[i]]);
  for (let col = 0; col < k; col++) {
    let p = col;
    while (p < k && qsign(A[p][col]) === 0) p++;
    if (p === k) return null;
    [A[col], A[p]] = [A[p], A[col]];
    for (let r = 0; r < k; r++) {
      if (r === col || qsign(A[r][col]) === 0) continue;
      const f = qdiv(A[r][col], A[col][col]);
      for (let c = col; c <= k; c++) A[r][c] = qsub(A[r][c], qmul(f, A[col][c]));
    }
  }
  return A.map((row, i) => qdiv(row[k], row[i]));
}

function subsets(m, size, start = 0, acc = [], out = []) {
  if (acc.length === size) { out.push([...acc]); return out; }
  for (let i = start; i < m; i++) { acc.push(i); subsets(m, size, i + 1, acc, out); acc.pop(); }
  return out;
}

/** The exact squared distance from the point c (floats) to the polytope, or null when it is empty. */
export function dist2(hs, center) {
  const c = center.map(fromDouble);
  const inside = (x) => hs.every((h) => qcmp(qdot(h.n, x), h.b) <= 0);
  let best = null;
  for (let size = 0; size <= 3; size++) {
    for (const S of subsets(hs.length, size)) {
      // x = c + sum mu_j n_j with n_i.x = b_i for i in S: Gram(S) mu = b_S - N_S c
      const G = S.map((i) => S.map((j) => qdot(hs[i].n, hs[j].n)));
      const rhs = S.map((i) => qsub(hs[i].b, qdot(hs[i].n, c)));
      const mu = size === 0 ? [] : solve(G, rhs);
      if (mu === null) continue;
      const x = [0, 1, 2].map((e) => S.reduce((s, i, j) => qadd(s, qmul(mu[j], hs[i].n[e])), c[e]));
      if (!inside(x)) continue;
      const d = [0, 1, 2].map((e) => qsub(x[e], c[e]));
      const d2v = qdot(d, d);
      if (best === null || qcmp(d2v, best) < 0) best = d2v;
    }
  }
  return best;
}

/** Whether the closed ball meets the polytope, exactly. */
export function ballMeets(hs, center, radius) {
  const d = dist2(hs, center);
  if (d === null) return false;
  const r = fromDouble(radius);
  return qcmp(d, qmul(r, r)) <= 0;
}

export { Q0 };
