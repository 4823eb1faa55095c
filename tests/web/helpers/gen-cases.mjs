// Seeded generator of odd case files for the cross-runner tests: structurally
// valid files full of mistyped fields, odd numbers, odd strings and odd
// expectations, plus byte-level damage. Deterministic for a given seed.

export function makeRandom(seed) {
  let s = seed >>> 0 || 1;
  const next = () => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return s / 4294967296;
  };
  return { next, pick: (a) => a[Math.floor(next() * a.length)] };
}

const GOOD_NUMBERS = ['0', '-0', '1', '-1', '0.5', '2', '0.25', '-2.5', '3', '1.5', '0.1', '10', '-3', '1e-3', '1.75', '0.3333333'];
const ODD_NUMBERS = ['1e39', '-1e39', '1e-45', '1e-46', '3.4028235e38', '1.', '01', '-.5', '1e5', '1E-3', '"inf"', '"-inf"',
  '"nan"', '"x"', '"inf\\u0000x"', 'null', 'true', '[]', '{}', '64', '-64', '1.0000001', '123456789', '1e10', '7e-10',
  '16777217', '0.30000001192092896', '-1e-40'];
const STRINGS = ['"a"', '"b"', '"dup"', '"x\\u0000y"', '"\\u00e9t\\u00e9"', '"tab\\there"', '"q\\"uote"', '"\\u001f\\u007f"',
  `"${'é'.repeat(40)}"`, `"${'z'.repeat(80)}"`, '"\\ud83d\\ude00"', '"\\u12zz"', '"back\\\\slash"', '"sl\\/ash"', '""',
  '"\u0001raw\u0002"', '"new\\nline"', `"${'\\u0001'.repeat(70)}"`, `"${'€'.repeat(30)}"`];

export function generateCaseFile(seed) {
  const { next, pick } = makeRandom(seed);
  const num = () => (next() < 0.85 ? pick(GOOD_NUMBERS) : pick(ODD_NUMBERS));
  const vec = () => (next() < 0.9 ? `[${num()}, ${num()}, ${num()}]`
    : pick(['[1,2]', '[1,2,3,4]', '"v"', 'null', '{}', '[[1],2,3]']));
  const shape = () => {
    const t = next();
    if (t < 0.3) return `{"type": "aabb", "min": ${vec()}, "max": ${vec()}}`;
    if (t < 0.5) {
      const axes = next() < 0.8
        ? pick(['[[1,0,0],[0,1,0],[0,0,1]]', '[[0,1,0],[-1,0,0],[0,0,1]]', '[[0.6,0.8,0],[-0.8,0.6,0],[0,0,1]]'])
        : pick(['[[1,0,0],[0,1,0]]', '[[1,0,0],[0,1,0],[0,0,2]]', '"axes"', `[${vec()},${vec()},${vec()}]`]);
      return `{"type": "obb", "center": ${vec()}, "axes": ${axes}, "half": ${vec()}}`;
    }
    if (t < 0.7) return `{"type": "sphere", "center": ${vec()}, "radius": ${num()}}`;
    if (t < 0.88) return `{"type": "plane", "normal": ${vec()}, "d": ${num()}}`;
    return pick(['{"type": "cone"}', '{"type": 3}', '{}', '[]', 'null', `{"type": ${pick(STRINGS)}}`,
      '{"type": "AABB", "min": [0,0,0], "max": [1,1,1]}', '{"type": "aabb", "min": [0,0,0], "max": [1,1,1], "min": [2,2,2]}']);
  };
  const expect = () => {
    const field = () => pick([
      `"hit": ${pick(['true', 'false', '1', '"yes"'])}`, `"t": ${num()}`, `"t_enter": ${num()}`, `"t_exit": ${num()}`,
      `"point": ${vec()}`, `"normal": ${vec()}`, `"inside": ${pick(['true', 'false', 'null'])}`,
      `"error": ${pick(['true', 'false', '"zero"', '""', pick(STRINGS), '"must be"', 'null', '"not finite"'])}`]);
    const parts = [];
    const n = Math.floor(next() * 4);
    for (let i = 0; i < n; i++) parts.push(field());
    return next() < 0.05 ? pick(['null', '[]', '5']) : `{${parts.join(', ')}}`;
  };
  const oneCase = (i) => {
    if (next() < 0.03) return pick(['1', 'null', '"case"', '[]']);
    const fields = [];
    const r = next();
    fields.push(r < 0.7 ? `"id": "c${i}"` : r < 0.85 ? `"id": ${pick(STRINGS)}` : r < 0.9 ? `"id": ${pick(['1', 'null', '[]'])}` : '"note": 1');
    const q = next() < 0.95 ? pick(['raycast', 'raycast', 'linetest', 'closest_point', 'contains'])
      : pick(['cast', '', 'RAYCAST', 'x'.repeat(70), 'é'.repeat(33)]);
    fields.push(next() < 0.97 ? `"query": "${q}"` : `"query": ${pick(['1', 'null'])}`);
    if (q === 'raycast') {
      fields.push(next() < 0.95
        ? `"ray": {"origin": ${vec()}, "dir": ${vec()}${next() < 0.3 ? `, "tmax": ${num()}` : ''}}`
        : `"ray": ${pick(['null', '[]', '1'])}`);
    }
    if (q === 'linetest') fields.push(next() < 0.95 ? `"segment": {"a": ${vec()}, "b": ${vec()}}` : '"segment": 5');
    if (q === 'closest_point' || q === 'contains') fields.push(`"point": ${vec()}`);
    if (next() < 0.97) fields.push(`"shape": ${shape()}`);
    if (next() < 0.8) fields.push(`"expect": ${expect()}`);
    if (next() < 0.05) fields.push(`"id": "late${i}"`);
    return `{${fields.join(', ')}}`;
  };
  const n = 1 + Math.floor(next() * 30);
  const cases = [];
  for (let i = 0; i < n; i++) cases.push(oneCase(i % 7));
  let text = `{"format": "slabcast-cases/1", "cases": [\n${cases.join(',\n')}\n]}`;
  let bytes = Buffer.from(text, 'utf8');
  // Byte-level damage, now and then.
  const m = next();
  const at = () => Math.floor(next() * bytes.length);
  if (m < 0.06) {
    const p = at();
    bytes = Buffer.concat([bytes.subarray(0, p), bytes.subarray(p + 1)]);
  } else if (m < 0.1) {
    bytes = bytes.subarray(0, at());
  } else if (m < 0.12) {
    bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bytes]);
  } else if (m < 0.14) {
    bytes = Buffer.concat([bytes, Buffer.from(pick([' trailing garbage', '\0\0', ']]', '\n{"x": 1}']))]);
  } else if (m < 0.2) {
    const p = at();
    const junk = Buffer.from([pick([0x00, 0x01, 0x20, 0x7f, 0xff, 0xc3, 0x5c, 0x22, 0x2c, 0x5d, 0x7d, 0x30, 0x2d])]);
    bytes = Buffer.concat([bytes.subarray(0, p), junk, bytes.subarray(p)]);
  }
  text = undefined;
  return bytes;
}
