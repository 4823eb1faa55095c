// Types of slabcast/figure: a small interactive slab figure for prose (docs/figure.md).
import type { LoadOptions, SlabcastError, Vec3 } from './slabcast.js';
import type { Scene, SceneInput } from './repro.js';

export { SlabcastError };

type Axis = 'x' | 'y' | 'z';
type VecName = 'origin' | 'dir' | 'min' | 'max' | 'point' | 'normal';

/** The names a readout (data-figure-value) can show. */
export type ReadoutName =
  | 'hit' | 'reason' | 't' | 't_enter' | 't_exit'
  | `t${Axis}_enter` | `t${Axis}_exit`
  | `t${Axis}_wall_min` | `t${Axis}_wall_max`
  | 'enter_axis' | 'exit_axis'
  | `${VecName}.${Axis}`;

/** Every readout name, in the order of docs/figure.md. */
export const READOUT_NAMES: readonly ReadoutName[];

/** The readout values: numbers (float32, as the core holds them), booleans, strings; null: none. */
export type FigureValues = {
  hit: boolean;
  reason: 'hit' | 'no-overlap' | 'parallel-outside' | 'behind' | 'beyond-tmax';
  enter_axis: Axis | null;
  exit_axis: Axis | null;
} & { [K in Exclude<ReadoutName, 'hit' | 'reason' | 'enter_axis' | 'exit_axis'>]: number | null };

/** How a handle may move: true (free in the view's plane), false (no handle), along an axis, or along a line. */
export type HandleSpec = boolean | { axis: Axis } | { line: { point: Vec3; dir: Vec3 } };

/** A goal's condition: a function of the values, or readout names to values ({min, max}: a range). */
export type GoalCondition =
  | ((values: FigureValues, figure: { scene: Scene; result: unknown; explanation: unknown }) => boolean)
  | ({ t_enter_equals_t_exit?: boolean } & { [K in ReadoutName]?: number | boolean | string | null | { min: number; max: number } });

export interface FigureOptions {
  /** A loaded slabcast API to use; default: one module shared by every figure of the page, loaded when the first starts. */
  sc?: { raycast: Function };
  /** Where slabcast.wasm is (as loadSlabcast takes it); default: beside this module. */
  wasm?: LoadOptions['wasm'];
  /**
   * The plane shown: 'xy' (default), 'xz' or 'yz'; the first letter runs rightwards, the second upwards.
   * '3d': a three.js view of the box, the ray, entry and exit, for looking (no handles; a drag turns
   * it after a click into the figure). three.js (imported as 'three') loads only when a 3D figure starts.
   */
  view?: 'xy' | 'xz' | 'yz' | '3d';
  /** Which handles there are and how they move; default: all four, free. With view '3d': none (only false is allowed). */
  handles?: { origin?: HandleSpec; dir?: HandleSpec; min?: HandleSpec; max?: HandleSpec };
  /** Snap dragged and keyed coordinates to a grid of this step ('integer': 1); default: no snap. */
  snap?: number | 'integer' | false;
  /** The arrow keys' step (Shift: ten steps); default: the snap step, else 0.1. */
  step?: number;
  /** A condition the figure checks, and its label ("Try it: ..."). */
  goal?: { label: string; when: GoalCondition };
  /** The plane rectangle shown at first (the view's two coordinates); default: the box, the origin and dir's tip. Not with view '3d'. */
  bounds?: { min: [number, number]; max: [number, number] };
  /** The figure's own verdict and interval numbers (default true). */
  readout?: boolean;
  /** The key of colors and marks (default true). */
  legend?: boolean;
  /** Whether the wheel may zoom after a click into the figure, or with Ctrl (default true). */
  zoom?: boolean;
  /** The figure's accessible name. */
  label?: string;
  /** 'visible' (default): start when the element first comes near the viewport; 'now': at once. */
  start?: 'visible' | 'now';
}

export interface FigureHandle {
  /** The element made inside the one given (removed by destroy()). */
  readonly element: HTMLElement;
  /** Resolves once the figure is drawn (or destroyed first); rejects with a SlabcastError when it cannot start. */
  readonly ready: Promise<void>;
  /** The readout values now (null before the figure started). */
  readonly values: FigureValues | null;
  /** The scene now (a copy). */
  readonly scene: Scene;
  /** Whether the goal holds now. */
  readonly goalReached: boolean;
  /** Back to the scene the figure was mounted with. */
  reset(): void;
  /** Remove the figure, its observers and listeners; the element loses data-figure. Again: nothing. */
  destroy(): void;
}

/** Events dispatched on the element given (they bubble). */
export interface FigureEventMap {
  figurechange: CustomEvent<{ values: FigureValues }>;
  figuregoal: CustomEvent<{ label: string; values: FigureValues }>;
}

/** A slab figure in `element` explaining scene.rays[selected.ray] against scene.shapes[selected.shape]
 * (an AABB). Throws SlabcastError naming a bad element, scene or option, and leaves the message
 * shown in the element. */
export function mountFigure(element: Element, scene: SceneInput, options?: FigureOptions): FigureHandle;
