// Files the packaged app keeps outside app.asar (electron-builder.yml `asarUnpack`) are loaded
// from app.asar.unpacked by their real path. Used for the macOS guard's worker thread: a
// worker_threads Worker gets its own Node environment, and Electron's asar support for ES modules
// in workers is not something its documentation promises (it has broken before — electron
// issues 22446, 40211, 45896), so the worker and every module it imports are unpacked and the
// Worker is pointed at the real files. Outside a packaged app the URL is returned unchanged.

const PACKED = /\/app\.asar\//;

export function outsideAsar(url: URL): URL {
  return PACKED.test(url.pathname) ? new URL(url.href.replace(/\/app\.asar\//, '/app.asar.unpacked/')) : url;
}
