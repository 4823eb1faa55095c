// Type-checks slabcast/repro and slabcast/playground as a consumer sees them.
import { decode, encode, reproLink, toCaseFile, toScene, VERSION, type Scene, type ViewSettings } from 'slabcast/repro';
import { mountPlayground, type PlaygroundHandle } from 'slabcast/playground';
import type { Slabcast } from 'slabcast';

const url: string = reproLink('https://slabcast.github.io/slabcast/', {
  shapes: [{ type: 'aabb', min: [0, 0, 0], max: [1, 1, 1] }],
  rays: [{ origin: new Float32Array([-1, 0.5, 0.5]), dir: [1, 0, 0] }],
}, { view: 'top', panels: { hits: false } });
const scene: Scene = toScene({ shapes: [], rays: [] });
const d = decode(new URL(url).hash);
if (d.ok) {
  const ui: ViewSettings = d.ui;
  const again: string = encode(d.state, ui);
  console.log(again.length, ui.camera?.zoom);
} else {
  const why: string = d.error;
  console.log(why);
}
export function caseFile(sc: Slabcast): string {
  return toCaseFile(scene, sc.raycast);
}
export async function mount(el: HTMLElement): Promise<PlaygroundHandle> {
  const handle = await mountPlayground(el, scene, { handles: 'locked', embed: true, wasm: '/slabcast.wasm' });
  handle.store.setUi({ step: 2 });
  return handle;
}
console.log(VERSION);
