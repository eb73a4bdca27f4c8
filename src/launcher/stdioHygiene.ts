// In stdio server mode a stray console.log (ours or a dependency's) would corrupt the JSON-RPC
// stream the client reads, so console output that would go to stdout is sent to stderr instead.

export function routeConsoleToStderr(): void {
  const toStderr = console.error.bind(console);
  // Reassigning (not calling) console.log/info/debug is exactly what this function is for.
  // eslint-disable-next-line no-console
  console.log = toStderr;
  // eslint-disable-next-line no-console
  console.info = toStderr;
  // eslint-disable-next-line no-console
  console.debug = toStderr;
}
