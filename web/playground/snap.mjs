// Snapping to a grid: whether handles snap while dragged (3D and 2D) and the grid size,
// which is also the step of the arrow keys. Pure: no DOM.

/** Grid sizes offered. */
export const GRID_SIZES = Object.freeze([0.01, 0.05, 0.1, 0.25, 0.5, 1]);

export class Snap {
  enabled = false;
  size = 0.25;

  /** Turn snapping on or off. */
  setEnabled(on) {
    if (typeof on !== 'boolean') throw new Error('snap: enabled must be true or false');
    this.enabled = on;
  }

  /** Set the grid size (one of GRID_SIZES). */
  setSize(size) {
    if (!GRID_SIZES.includes(size)) throw new Error(`snap: the grid size must be one of ${GRID_SIZES.join(', ')}, got ${String(size)}`);
    this.size = size;
  }

  /** x on the grid (as a float32) when snapping is on, else x unchanged. */
  value(x) {
    if (!this.enabled || !Number.isFinite(x)) return x;
    // size * round(x / size), rounded to 6 decimals first so that a 0.1 grid gives the
    // float32 nearest 0.3, not the one nearest 0.30000000000000004.
    const k = Math.round(x / this.size);
    return Math.fround(Number((k * this.size).toFixed(6)));
  }
}
