// Types of slabcast/repro: the playground's pure codec (links and case files) and
// reproLink(), for turning a query that went wrong into a link (docs/playground.md).
import type { RaycastResult, Ray, Shape, Vec3 } from './slabcast.js';

/** The slabcast version, e.g. "0.1.0" (case files record it as "generator"). */
export const VERSION: string;
/** The newest link version: encode() writes it (3) for a scene with a capsule, version 2 otherwise
 * (links of every earlier version still open). */
export const LINK_VERSION: 3;
/** The most shapes a playground scene holds. */
export const MAX_SHAPES: 64;
/** The most rays a playground scene holds. */
export const MAX_RAYS: 32;

/** A playground scene: every number a float32 value (Math.fround leaves it unchanged). */
export interface Scene {
  shapes: Shape[];
  rays: Array<{ origin: Vec3; dir: Vec3; tmax: number }>;
  selected: { ray: number; shape: number };
}

/** What a game has: shapes and rays as slabcast's JS API takes them; numbers are rounded to
 * float32, a missing tmax is Infinity, a missing selected picks the first ray and shape. */
export interface SceneInput {
  shapes: readonly Shape[];
  rays: readonly Ray[];
  selected?: { ray: number; shape: number };
}

/** The playground's view settings (web/playground/ui-state.mjs). */
export interface ViewSettings {
  view: '3d' | 'top' | 'front' | 'side';
  /** 0: no tutorial step open; k: step k (at most 64). */
  step: number;
  /** locked: nothing can be dragged or edited. */
  handles: 'free' | 'locked';
  panels: { toolbar: boolean; hits: boolean; tutorial: boolean };
  /** null: frame the scene. */
  camera: null | { position: Vec3; target: Vec3; zoom: number };
  /** embedded: no page chrome. */
  embed: boolean;
}

/** Settings given to reproLink: any fields, merged over the defaults (panels key by key). */
export type ViewSettingsInput = Partial<Omit<ViewSettings, 'panels'>> & { panels?: Partial<ViewSettings['panels']> };

/** What is wrong with a scene, or null when it is valid. */
export function validateState(state: unknown): string | null;

/** The link fragment '#v2.<base64url>' ('#v3.' with a capsule) of a scene and its view settings (default: the
 * defaults). Throws RangeError for an invalid scene or invalid settings. */
export function encode(state: Scene, ui?: ViewSettings): string;

/** Reads a link fragment (a string with or without '#', or a Location-like {hash}); never
 * throws. A version 1 link gives the default view settings. */
export function decode(input: string | { hash: string }):
  | { ok: true; state: Scene; ui: ViewSettings }
  | { ok: false; error: string };

/** A slabcast-cases/1 file with one raycast case per ray x shape, "observed" holding what
 * `raycast` returned and no "expect" (the reporter sets it), "generator": "slabcast <version>". */
export function toCaseFile(state: Scene, raycast: (ray: Ray, shape: Shape) => RaycastResult): string;

/** A scene from a case file's raycast cases; never throws. */
export function fromCaseFile(input: string | ArrayBuffer | Uint8Array):
  | { ok: true; state: Scene; skipped: number; invalid: number; overLimit: number; notes: string[] }
  | { ok: false; error: string };

/** A valid scene from what a game has (numbers rounded to float32). Throws TypeError naming what is wrong. */
export function toScene(scene: SceneInput): Scene;

/** base (an http or https URL without a fragment) + '#v2.…' ('#v3.…' with a capsule) for `scene`. Throws TypeError
 * naming the argument that is wrong. */
export function reproLink(base: string, scene: SceneInput, ui?: ViewSettingsInput): string;
