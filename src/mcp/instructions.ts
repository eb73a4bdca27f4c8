// The server's `instructions`: the workflow a model should follow, sent once at initialize. A
// session offers one tool profile (driver — the default —, reference or all), and the text describes only the
// tools it offers: a workflow whose tools are absent is left out.

const INTRO = `Tandem operates the desktop apps on the person's own computer while they are still at it. Every acting tool holds back their keyboard and mouse for the moment it runs, then gives them back and puts their cursor and front app back — unless it runs in the background.`;

/** The `_and_traverse` workflow (profile reference). */
const REFERENCE_WORKFLOW = `How to work:
1. Start with open_application_and_traverse {identifier} (or list_applications) to get the app's pid.
2. Read the compact summary (key: value lines). The full tree or diff is in the file it names: grep that file for what you need instead of reading it whole. Tree lines look like #N [Role] "name" value:"…" x:N y:N w:W h:H visible, and diff lines carry the same #N: N is the element_index to send (valid in the next call); the name is what the element is called (a field is called by its label), value what it holds (typed text, a number, a choice, checked/unchecked), shown only where it has one; a password field shows its name and never a value. An element's text matches either. If you cannot read local files, read the same files through the answer's resource links (resources/read), or send inline: true to get the tree or diff text and the screenshot in the answer.
3. Take coordinates from the tree (x, y, w, h), never from screenshot pixels. Look at the screenshot only to check the result.
4. Chain click → type → press in ONE call: click_and_traverse with text and pressKey, or steps (e.g. [{"action":"click","element":"Search"},{"action":"type","text":"hello"},{"action":"press","keyName":"return"}]). One call means one snapshot, one diff and one short interruption for the person.
5. When a response has app_switch, another app came to the front (a save dialog, a launched app): its tree is in the same response. Act on that pid next.
6. If the person presses Esc the call stops with status: cancelled. They took back control on purpose: do not retry blindly; ask them how to continue.
7. Errors say what to send instead. After "unknown pid" call list_applications; after a stale element_index or "not found" call refresh_traversal and grep the new file.`;

/** The driver-style workflow (profile driver, the default). */
const DRIVER_WORKFLOW = `How to work:
1. launch_app {name, args} starts an app and answers with its pid and its tree (file, screenshot); list_windows gives the pids and window_ids of apps already running.
2. get_window_state {pid} reads the app's tree: element lines starting with #N (N is the element_index, on tree and diff lines alike), plus a screenshot; send query to find one element without reading the whole tree.
3. Act by element_index, or by x,y in screen points exactly as the tree prints them (x:N y:N), never from screenshot pixels: click (button "right", count 2), scroll, drag {from, to}, type_text {element_index, text}, press_key {key, modifiers, count}. set_value, set_selected and element_action act through accessibility, without the pointer. Each is guarded (Esc cancels) and answers with what changed.
4. A sequence known in advance (click a field, type, press return) goes in ONE run_steps call, its steps named as the tools name their fields ({"action":"press","key":"return"}): one snapshot, one diff, one short interruption for the person.
5. For small things, zoom into a region and click with from_zoom: true in the zoom image's pixels. bring_to_front leaves an app in front for the person; the acting tools put their front app back.
6. If the person presses Esc the call stops with status: cancelled. They took back control on purpose: do not retry blindly; ask them how to continue.
7. type_text inserts through accessibility where the field takes it and types keys otherwise; its typed_by line says which, and when the field kept other text. replace: true replaces all the field holds (a Save dialog's file name, whose stem alone is selected).
8. kill_app {pid} closes an app without losing unsaved work: when it answers status: asking, nothing was pressed — ask the person before answering it or sending force: true.`;

/** What an agent needs in dialogs and after slow actions, whichever acting tools are offered. */
const DIALOGS_AND_SETTLING = `Dialogs and answers:
- A dialog of the app you act on (Save As, Open, a question) is part of that app: it shows up in the answer's diff as added elements under a [Dialog] or [FileChooser] line, with the same pid, not as app_switch. Act on it with the same pid; when it closes, the diff shows it removed.
- To set a file name in a save dialog: the name field holds a proposed name, often partly selected. Press ctrl+a in it first, then type the name (or a full path), then click the dialog's Save button: after a typed path, Return may only close the completion list.
- An answer is taken once the app has settled (its tree quiet, its window done painting). settled: no means it was still changing when the wait ran out: refresh before relying on what you read. An app that answers only after a pause may need the person's settle_quiet_ms raised.
- A press on an element the person listed in confirm_before (Send, Pay, Delete, Submit…; get_config shows the list) waits for their Enter; error declined means they refused and nothing was pressed: ask them, never reach it another way.`;

/** Background calls: the person keeps working while the agent acts through accessibility. */
const BACKGROUND = `Working beside the person: prefer background: true for steps on elements — a click on an element (its default action), setting a value, selecting, an element's own action, text into a named field (inserted, never typed as keys) — and waits. Such a call does not take the front, the pointer or the keyboard: the person keeps typing in their own window and loses nothing. A step that needs real input (keys, a click at a point, a right or double click, a scroll, a drag, text into the focused field) is refused with background: true, naming the step, before anything is done: send it without background then (it runs in the foreground, holding their input for a moment). The answer says background: yes when the call ran that way; with the person's background_default setting on, calls that do not say run that way wherever every step allows it.`;

const CONFIG_LINE = `Settings: get_config shows them (the watchdog, inline answers and their image size, artifact retention, the tool profile, background by default) and where each comes from; set_config changes them for the person, from the next call on: change them when the person asks.`;

/** The instructions for a session offering `offered` (tool names). */
export function serverInstructions(offered: ReadonlySet<string>): string {
  const parts = [INTRO];
  if (offered.has('open_application_and_traverse')) parts.push(REFERENCE_WORKFLOW);
  if (offered.has('get_window_state')) parts.push(DRIVER_WORKFLOW);
  if (offered.has('click_and_traverse') || offered.has('click')) parts.push(DIALOGS_AND_SETTLING, BACKGROUND);
  if (offered.has('get_config')) parts.push(CONFIG_LINE);
  return parts.join('\n\n');
}
