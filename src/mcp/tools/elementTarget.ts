// The element|element_index|role target shared by the accessibility-action tools.
import { elementIndexParam, nonEmptyText, ROLE_DESCRIPTION } from '../params.js';

export const elementTargetShape = {
  element: nonEmptyText('element').optional().describe('Part of its name or value (any case). Or element_index.'),
  element_index: elementIndexParam().optional().describe('The #N of its line in the latest tree or diff of this pid.'),
  role: nonEmptyText('role').optional().describe(ROLE_DESCRIPTION),
};
