// The element|element_index|role target shared by the accessibility-action tools.
import { elementIndexParam, nonEmptyText } from '../params.js';

export const elementTargetShape = {
  element: nonEmptyText('element').optional().describe('Text of the target element: part of its name (a field\'s label) or of its value, case-insensitive, e.g. "Bold". Send this or element_index.'),
  element_index: elementIndexParam()
    .optional()
    .describe('Index of the target element in the latest tree of this pid (the #N its tree or diff line starts with).'),
  role: nonEmptyText('role').optional().describe('Role filter for the search, case-insensitive, e.g. "text", "checkbox", "button".'),
};
