// The overlay's sentence, the same in every overlay (the X11 one the server draws, the app's
// renderer): what Tandem is doing, in which app, and that Esc gives control back. Written for
// the person at the keyboard, not for the model.

/** Longest app name shown: a window title used as a name must not push "press Esc" off the screen. */
export const MAX_OVERLAY_APP_CHARS = 40;

/** Longest element name shown in a question. */
export const MAX_OVERLAY_ELEMENT_CHARS = 60;

function cut(text: string, fallback: string, max: number): string {
  const chars = [...(text.trim() || fallback)];
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : chars.join('');
}

/** "Tandem is typing in Mousepad — press Esc to take back control". `verb` as stepVerb gives it ("Typing"). */
export function overlayText(verb: string, app: string): string {
  return `Tandem is ${verb.toLowerCase()} in ${cut(app, 'an app', MAX_OVERLAY_APP_CHARS)} — press Esc to take back control`;
}

/** The question before a confirm_before press: 'Tandem wants to press "Delete" in Mousepad — Enter to allow, Esc to refuse'. */
export function confirmQuestionText(element: string, app: string): string {
  return `Tandem wants to press "${cut(element, 'an element', MAX_OVERLAY_ELEMENT_CHARS)}" in ${cut(app, 'an app', MAX_OVERLAY_APP_CHARS)} — Enter to allow, Esc to refuse`;
}
