// Every number and length a caller can send is bounded, in one place: the MCP schemas check
// them first (with a message stating the limit), core checks them again before anything is
// allocated or sent (defence in depth: the engine has other callers), and nothing below ever
// allocates in proportion to a number it did not check. The README lists them.

export const LIMITS = {
  /** |x| and |y| of a point, in screen points: any desktop fits with room to spare. */
  coordinate: 100_000,
  /** width/height of a target rectangle, in points. */
  size: 100_000,
  /** Wheel lines per scroll (a page is ~3–20 lines; 1,000 crosses any list). */
  scrollLines: 1_000,
  /** Characters typed by one type step (a 40,000-character text fits). */
  typedChars: 100_000,
  /** Characters of a value set through the accessibility API. */
  valueChars: 100_000,
  /** Characters of an element's value read into a tree (as long as one call may type); a longer one is cut and marked. */
  readValueChars: 100_000,
  /** Steps in one call. */
  steps: 50,
  /** One wait step, in ms (all waits of a call must also fit its watchdog). */
  waitMs: 5_000,
  /** Characters of an element's text, a role, an app identifier or a path in a query. */
  queryChars: 1_000,
  /** Characters of a key name. */
  keyNameChars: 64,
  /** Modifier keys held at once. */
  modifiers: 8,
  /** The largest pid Linux hands out (pid_max 2^22) and macOS (99,999) both fit. */
  pid: 4_194_304,
  /** element_index: far above any tree Tandem reads in full. */
  elementIndex: 1_000_000,
} as const;

export type LimitName = keyof typeof LIMITS;
