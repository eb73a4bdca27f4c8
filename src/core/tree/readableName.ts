// An element's label as a person reads it on screen, from what the toolkit reports. Toolkits
// build accessible names that no person sees: GTK calculators' buttons come out as "1 1" (the
// label twice: the button's own label and its label child's) or as their tooltip with the
// shortcut, "Pi [Ctrl+P]", while the button shows "π". Backends give the facts (the name, the
// description — a tooltip, on most toolkits — and the text of the element's label children);
// the policy is here, once.

export interface NameFacts {
  /** The accessible name ('' when the toolkit gave none or only its class name). */
  name: string;
  /** The accessible description (GTK and Qt put the tooltip there). */
  description: string;
  /** Text of the element's label children, what it shows (its visible label). */
  childLabels: readonly string[];
  /** A button-like element: one whose label children are its visible label. */
  pressable: boolean;
}

/** A shortcut hint closing a tooltip: " [Ctrl+P]", " (Ctrl+Shift+Z)", " [⌘S]". */
const SHORTCUT_HINT = /\s*[[(](?:(?:Ctrl|Control|Shift|Alt|AltGr|Super|Meta|Cmd|Command|Option|Fn|⌘|⌥|⇧|⌃)\s*\+?\s*)+[^\])]{1,12}[\])]$/i;

/** "1 1" → "1" when "1" is what the element shows (a label child or its tooltip says so). */
function undoubled(name: string, facts: NameFacts): string | null {
  if (name.length % 2 === 0) return null;
  const half = name.slice(0, (name.length - 1) / 2);
  if (!half || name !== `${half} ${half}`) return null;
  return facts.childLabels.includes(half) || facts.description === half ? half : null;
}

/** The label a person reads on the element, from the facts its toolkit reports. */
export function readableName(facts: NameFacts): string {
  const name = facts.name.trim();
  const shown = facts.pressable ? facts.childLabels.filter((text) => text.trim() !== '') : [];
  if (name) {
    const half = undoubled(name, facts);
    if (half !== null) return half;
    // The tooltip standing in as the name while the button shows its own label: that label.
    if (name === facts.description.trim() && shown.length === 1 && shown[0] !== name) return shown[0];
    if (name === facts.description.trim()) return name.replace(SHORTCUT_HINT, '') || name;
    return name;
  }
  if (shown.length === 1) return shown[0];
  const description = facts.description.trim();
  return description.replace(SHORTCUT_HINT, '') || description;
}
