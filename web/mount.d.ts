// Types of slabcast/playground: the playground inside an element of your page (docs/playground.md).
import type { LoadOptions } from './slabcast.js';
import type { SceneInput, ViewSettingsInput } from './repro.js';

export interface MountOptions extends ViewSettingsInput {
  /** Where slabcast.wasm is (as loadSlabcast takes it); default: beside this module. */
  wasm?: LoadOptions['wasm'];
  /** The URL of the playground page whose body is the markup; default: web/index.html beside this module. */
  markup?: string | URL;
}

export interface PlaygroundHandle {
  /** The element made inside the one given (removed by destroy()). */
  element: HTMLElement;
  /** The playground's store: read store.state and store.ui; change them through its actions. */
  store: {
    readonly state: unknown;
    readonly ui: unknown;
    setUi(patch: ViewSettingsInput, opts?: object): void;
    subscribe(listener: (change: { action: string }) => void): () => void;
  };
  /** Remove the playground, its listeners and its WebGL context. Calling it again does nothing. */
  destroy(): void;
}

/** The playground inside `element`, showing `scene` with the view settings of `options`.
 * Rejects with an Error naming what is wrong. Any number can be mounted on one page. */
export function mountPlayground(element: Element, scene: SceneInput, options?: MountOptions): Promise<PlaygroundHandle>;
