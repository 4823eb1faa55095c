// Hostile hand-overs of a batch for world-model.test.mjs: a Float32Array over a resizable
// ArrayBuffer (shrunk, or detached, by a getter on the options object after the batch was first
// seen), a detached buffer, a subclass whose length lies, Proxies around the array or the options.
// handOver says which answers are acceptable: a SlabcastError (when errorOk) or the answer for the
// items really present, counted in `counts` (before or after the getter ran).

class LyingLength extends Float32Array {
  get length() { return 1e9; }
}

function resizableOf(floats) {
  const buf = new ArrayBuffer(floats.length * 4, { maxByteLength: floats.length * 4 + 64 });
  const a = new Float32Array(buf);
  a.set(floats);
  return { buf, a };
}

/** Options (possibly null) as an object whose getters call hook() before answering. */
function withHook(options, hook) {
  const o = {};
  for (const key of ['mask', 'exclude', 'inside']) {
    const v = options ? options[key] : undefined;
    Object.defineProperty(o, key, { enumerable: true, get() { hook(); return v; } });
  }
  return o;
}

/**
 * The batch (and options) to pass for hostility mode, for floats (a Float32Array of n items of
 * `per` floats). Returns {data, options, counts, errorOk}: counts lists the item counts whose
 * answer is acceptable.
 */
export function handOver(mode, floats, per, options, takesOptions) {
  const n = floats.length / per;
  const plain = { options, counts: [n], errorOk: false };
  switch (mode) {
    case 'array': return { ...plain, data: Array.from(floats) };
    case 'f64': return { ...plain, data: new Float64Array(floats) };
    case 'resizable': return { ...plain, data: resizableOf(floats).a };
    case 'subclass': {
      const a = new LyingLength(floats.length);
      a.set(floats);
      Object.defineProperty(a, 'length', { value: floats.length + 7 });
      return { ...plain, data: a };
    }
    case 'detach': {
      const { buf, a } = resizableOf(floats);
      structuredClone(buf, { transfer: [buf] });
      return { data: a, options, counts: [0], errorOk: true };
    }
    case 'shrink':
    case 'detachLate': {
      const { buf, a } = resizableOf(floats);
      if (!takesOptions) return { ...plain, data: a };
      const k = mode === 'shrink' ? Math.max(0, n - 1) : 0;
      let done = false;
      const hook = () => {
        if (done) return;
        done = true;
        if (mode === 'shrink') buf.resize(k * per * 4);
        else structuredClone(buf, { transfer: [buf] });
      };
      return { data: a, options: withHook(options, hook), counts: [n, k], errorOk: true };
    }
    case 'proxyArray': return { data: new Proxy(Array.from(floats), {}), options, counts: [n], errorOk: true };
    case 'proxyOptions': return { data: floats.slice(), options: new Proxy(options ?? {}, {}), counts: [n], errorOk: true };
    default: return { ...plain, data: floats.slice() };
  }
}
