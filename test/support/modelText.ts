// What the model reads for a thrown error: the MCP layer's isError text (the fact from core plus
// src/mcp's next move). Unit tests of core and the backends check the words through this, since
// core itself writes facts only.
import { errorResult } from '../../src/mcp/errors.js';

export function modelText(error: unknown): string {
  const item = errorResult(error).content[0];
  return item?.type === 'text' ? item.text : '';
}
