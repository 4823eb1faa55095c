// The stress mode's scene: n boxes of size 0.5..2.5 spread uniformly in a cube of side
// 4*cbrt(n) (constant density) and rays from random points of the cube in random unit
// directions (tmax infinite). Seeded (xorshift32), so a given size always looks the same. The
// benchmark's scene family, made here in JS: the product wasm holds no benchmark code.

/** xorshift32 from a fixed seed; u() is uniform in [0, 1) with 24 bits. */
function generator(seed) {
  let s = seed >>> 0;
  return () => {
    s ^= s << 13; s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5; s >>>= 0;
    return (s >>> 8) / 16777216;
  };
}

/** { boxes: Float32Array (6 per box: min, max), rays: Float32Array (7 per ray) }. */
export function stressScene(n, nrays) {
  const u = generator(0x12345678);
  const side = 4 * Math.cbrt(n);
  const boxes = new Float32Array(6 * n);
  for (let i = 0; i < n; i++) {
    for (let a = 0; a < 3; a++) {
      const c = u() * side;
      const h = 0.25 + u();
      boxes[6 * i + a] = c - h;
      boxes[6 * i + 3 + a] = c + h;
    }
  }
  const rays = new Float32Array(7 * nrays);
  for (let i = 0; i < nrays; i++) {
    let d;
    let len2;
    do {
      d = [u() * 2 - 1, u() * 2 - 1, u() * 2 - 1];
      len2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
    } while (len2 > 1 || len2 < 0.01);
    const inv = 1 / Math.sqrt(len2);
    for (let a = 0; a < 3; a++) {
      rays[7 * i + a] = u() * side;
      rays[7 * i + 3 + a] = d[a] * inv;
    }
    rays[7 * i + 6] = Infinity;
  }
  return { boxes, rays };
}
