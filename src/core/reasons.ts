// The cases of each error code that need their own next move: `details.reason` of a TandemError,
// as a closed union per code. Core and the backends name the case; src/mcp/errors.ts writes the
// words for each (GUIDANCE_BY_REASON is a total record over `ReasonKey`), so a reason without
// words, or words for a reason no code can carry any more, fails the build.

export interface ReasonsByCode {
  'bad-input':
    | 'pid'
    | 'window-id'
    | 'no-query'
    | 'no-tree'
    | 'key'
    | 'modifier'
    | 'zoom-region'
    | 'zoom-pixel'
    | 'value-rejected'
    | 'number-expected'
    | 'key-not-on-keyboard'
    | 'line-breaks-in-single-line'
    | 'protected-pid'
    | 'no-settings'
    | 'config-unreadable'
    | 'command-runner'
    | 'app-target'
    | 'no-app-named'
    | 'no-steps'
    | 'step-kind'
    | 'wait-too-long'
    | 'action-unknown';
  'unknown-app': 'no-window-app' | 'no-program' | 'open-failed';
  /** exited-at-launch: the started process exited (an error code or a signal) before any window of it appeared. */
  'app-gone': 'exited-at-launch';
  'not-responding': never;
  'guard-lost': 'secure-input';
  /** The guard could not be engaged, so nothing was done. */
  'guard-unavailable': 'secure-input' | 'guard-thread-stuck';
  'not-found': 'no-window' | 'no-zoom' | 'outside-window' | 'no-position' | 'hidden-in-view' | 'scroll-limit' | 'vanished' | 'no-accessible-window' | 'missing' | 'blocked-by-dialog' | 'ambiguous' | 'window-in-the-way' | 'point-reaches-other';
  'not-accessible': 'not-registered' | 'no-content';
  /** reused: the element the index was shown for is gone and the index now names another. */
  'stale-element': 'reused';
  changed: never;
  unsupported:
    | 'no-position'
    | 'not-on-screen'
    | 'no-position-to-type'
    | 'window-off-screen'
    | 'device-grabbed'
    | 'value-refused'
    | 'selection-refused'
    | 'radio-off'
    | 'no-composite'
    | 'element-property'
    | 'element-action'
    | 'not-implemented'
    | 'no-target'
    | 'not-editable'
    | 'no-editable-text'
    /** The toolkit answers text set through accessibility with success and drops it (Gecko): refused before sending. */
    | 'insertion-ignored'
    /** Typing as keys (not asked for: the field takes no insertion) needs a click on a field with no position on screen. */
    | 'no-position-for-keys'
    /** replace by keys: the field did not take the focus, so the select-all key was not pressed. */
    | 'focus-not-in-field'
    | 'client-unknown'
    | 'refused'
    /** A step of a background call needs real input (keys, the pointer): nothing was done. */
    | 'background-needs-input';
  /** person-only: a setting only the person may change (confirm_before). */
  permission: 'artifacts-dir' | 'accessibility-off' | 'screen-recording-off' | 'config-dir' | 'symlink' | 'foreign' | 'person-only';
  timeout: 'open-no-app' | 'open-no-tree';
  /** details.by: who cancelled (the case of a cancellation is who asked for it). */
  cancelled: 'person' | 'caller';
  watchdog: never;
  /** Who answered the question before a confirm_before press: the person's Esc, or the watchdog while they said nothing. */
  declined: 'esc' | 'watchdog';
  paused: never;
  busy: never;
  internal: never;
}

export type ReasonCode = keyof ReasonsByCode;

/** Any code's case. */
export type Reason = ReasonsByCode[ReasonCode];

/** A case with its code, `code/reason`: the key src/mcp writes words under. */
export type ReasonKey = { [C in ReasonCode]: `${C}/${ReasonsByCode[C]}` }[ReasonCode];
