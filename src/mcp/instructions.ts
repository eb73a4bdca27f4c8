// The server's `instructions`: the workflow a model should follow, sent once at initialize.

export const SERVER_INSTRUCTIONS = `Tandem operates the desktop apps on the person's own computer while they are still at it. Every acting tool holds back their keyboard and mouse for the moment it runs, then gives them back and puts their cursor and front app back.

How to work:
1. Start with open_application_and_traverse {identifier} (or list_applications) to get the app's pid.
2. Read the compact summary (key: value lines). The full tree or diff is in the file it names: grep that file for what you need instead of reading it whole. Tree lines look like [Role] "name" value:"…" x:N y:N w:W h:H visible: the name is what the element is called (a field is called by its label), value what it holds (typed text, a number, a choice, checked/unchecked), shown only where it has one; a password field shows its name and never a value. An element's text matches either. If you cannot read local files, read the same files through the answer's resource links (resources/read), or send inline: true to get the tree or diff text and the screenshot in the answer.
3. Take coordinates from the tree (x, y, w, h), never from screenshot pixels. Look at the screenshot only to check the result.
4. Chain click → type → press in ONE call: click_and_traverse with text and pressKey, or steps (e.g. [{"action":"click","element":"Search"},{"action":"type","text":"hello"},{"action":"press","keyName":"return"}]). One call means one snapshot, one diff and one short interruption for the person.
5. When a response has app_switch, another app came to the front (a save dialog, a launched app): its tree is in the same response. Act on that pid next.
6. If the person presses Esc the call stops with status: cancelled. They took back control on purpose: do not retry blindly; ask them how to continue.
7. Errors say what to send instead. After "unknown pid" call list_applications; after a stale element_index or "not found" call refresh_traversal and grep the new file.
8. To fill a field, type_text {pid, element_index, text} inserts the text through accessibility where the field takes it (one edit, fast) and types keys otherwise; its typed_by line says which. press_key {pid, key, count} repeats a key (count 5 of backspace deletes five characters).
9. launch_app {name, args} starts an app with arguments (background: true keeps the person's window in front). kill_app {pid} closes one without losing unsaved work: when it answers status: asking, the app put up a question (e.g. "Save changes?") and nothing was pressed — ask the person before answering it or sending force: true, which may lose their work.`;
