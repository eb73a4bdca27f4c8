// Every tool the server offers, in the order tools/list shows them: written out here (not read
// from the registry) so a tool that goes missing or moves fails the tests that use this list.
export const TOOL_NAMES = [
  'open_application_and_traverse',
  'click_and_traverse',
  'type_and_traverse',
  'press_key_and_traverse',
  'scroll_and_traverse',
  'refresh_traversal',
  'set_value_and_traverse',
  'press_ax_and_traverse',
  'set_selected_and_traverse',
  'list_applications',
  'list_windows',
  'get_window_state',
  'zoom',
  'get_cursor_position',
  'check_permissions',
  'click',
  'double_click',
  'right_click',
  'hotkey',
  'bring_to_front',
];
