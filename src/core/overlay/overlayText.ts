// The overlay's sentence, the same in every overlay (the X11 one the server draws, the app's
// renderer): what Tandem is doing, in which app, and that Esc gives control back. Written for
// the person at the keyboard, not for the model.

/** Longest app name shown: a window title used as a name must not push "press Esc" off the screen. */
export const MAX_OVERLAY_APP_CHARS = 40;

/** "Tandem is typing in Mousepad — press Esc to take back control". `verb` as stepVerb gives it ("Typing"). */
export function overlayText(verb: string, app: string): string {
  const chars = [...(app.trim() || 'an app')];
  const name = chars.length > MAX_OVERLAY_APP_CHARS ? `${chars.slice(0, MAX_OVERLAY_APP_CHARS - 1).join('')}…` : chars.join('');
  return `Tandem is ${verb.toLowerCase()} in ${name} — press Esc to take back control`;
}
