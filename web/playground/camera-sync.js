// The camera in the view settings: when an orbit (drag or wheel) ends, the camera's
// position, target and zoom go to the store (store.setUi({camera})), so that links carry
// them; a camera that comes from a link is put on the view exactly (no orbit update,
// which would round it); framing the scene (Reset, an import, a link without a camera)
// clears it (camera: null means "frame the scene").

/** The view's camera as view settings. */
export function readCamera(view) {
  const { camera, orbit } = view;
  return {
    position: camera.position.toArray(),
    target: orbit.target.toArray(),
    zoom: camera.zoom,
  };
}

/** Put a camera of the view settings on the view, exactly. */
export function applyCamera(view, { position, target, zoom }) {
  const { camera, orbit } = view;
  camera.position.fromArray(position);
  orbit.target.fromArray(target);
  camera.zoom = zoom;
  const dist = camera.position.distanceTo(orbit.target);
  camera.near = Math.max(dist / 500, 0.01);
  camera.far = Math.max(dist * 20, 100);
  camera.lookAt(orbit.target);
  camera.updateProjectionMatrix();
  view.requestRender();
}

export class CameraSync {
  /** view: the View (with its orbit); store: the Store. */
  constructor({ view, store }) {
    Object.assign(this, { view, store });
  }

  listen() {
    this.view.orbit.addEventListener('end', () => {
      this.store.setUi({ camera: readCamera(this.view) }, { camera: true });
    });
  }

  /** After a store change. */
  onChange(change) {
    const { store } = this;
    if (change.action === 'setUi' && change.fromLink) {
      if (store.ui.camera) applyCamera(this.view, store.ui.camera);
    } else if (change.fit && !change.fromLink && store.ui.camera !== null) {
      store.setUi({ camera: null });
    }
  }
}
