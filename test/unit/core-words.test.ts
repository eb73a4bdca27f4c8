// Core and the backends state facts; the words that tell the model what to do (tool names,
// "Use…", "Send…") are written in src/mcp only (docs/architecture.md, Who says what). This test
// reads every string literal under src/core and src/backends and fails on a tool name or advice.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { TOOL_NAMES } from '../mcp/toolNames.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');

/**
 * Person-facing remedies the architecture doc leaves where they are (Who says what): the doctor's
 * check remedies, which `tandem doctor` prints to the person, may tell them to open an app through
 * Tandem's tools. Each entry is a file and the start of the one literal allowed there.
 */
const ALLOWED: ReadonlyArray<{ file: string; starts: string }> = [
  { file: 'src/core/apps/readability.ts', starts: 'Restart these apps while Tandem runs' },
  { file: 'src/backends/linux/x11Checks.ts', starts: 'Use an X server with XInput 2.2' },
];

/** Tool names that are plain English words ("zoom", "click") count only where they read as a call. */
const WORD_TOOLS = TOOL_NAMES.filter((name) => !name.includes('_'));
const SNAKE_TOOLS = TOOL_NAMES.filter((name) => name.includes('_'));

const ADVICE: RegExp[] = [
  // An imperative addressed to the caller at the start of a sentence: "Use click instead."
  /(^|[.:;!?—]\s+|\(\s*)(use|send|call|pass|try|retry|take|pick|ask|say|split|give)\s/i,
  /\b(call|use|send|pass|try)\s+(it\s+)?(again|instead|first)\b/i,
  /\binstead\b\s*[.)]?$/i,
  new RegExp(`\\b(${WORD_TOOLS.join('|')})\\s*\\{`),
  new RegExp(`\\b(call|use|with|try)\\s+(${WORD_TOOLS.join('|')})\\b`, 'i'),
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [full] : [];
  });
}

/** The text of every string and template literal in a file (template parts joined by ` `). */
function literals(file: string): Array<{ line: number; text: string }> {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: Array<{ line: number; text: string }> = [];
  const visit = (node: ts.Node): void => {
    let text: string | undefined;
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) text = node.text;
    else if (ts.isTemplateExpression(node)) text = [node.head.text, ...node.templateSpans.map((span) => span.literal.text)].join(' … ');
    // Module specifiers name files, not tools.
    if (text !== undefined && !(ts.isImportDeclaration(node.parent) || ts.isExportDeclaration(node.parent))) {
      found.push({ line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1, text });
    }
    if (!ts.isTemplateExpression(node)) ts.forEachChild(node, visit);
    else node.templateSpans.forEach((span) => visit(span.expression));
  };
  visit(source);
  return found;
}

/** What in a literal addresses the model, or null. */
export function modelAddress(text: string): string | null {
  for (const name of SNAKE_TOOLS) if (new RegExp(`\\b${name}\\b`).test(text)) return `tool name ${name}`;
  for (const pattern of ADVICE) {
    const match = pattern.exec(text);
    if (match) return `advice "${match[0].trim()}"`;
  }
  return null;
}

test('the scan catches a tool name or advice in a literal', () => {
  assert.ok(modelAddress('Use click instead.'));
  assert.ok(modelAddress('that index is stale: call refresh_traversal'));
  assert.ok(modelAddress('The element has no position. Send mode "auto".'));
  assert.equal(modelAddress('pid 42 has no window 7.'), null);
  assert.equal(modelAddress('clicked [button] "OK" at 10,20'), null);
});

test('src/core and src/backends name no tool and give the model no advice', () => {
  const offences: string[] = [];
  for (const dir of ['src/core', 'src/backends']) {
    for (const file of sourceFiles(path.join(ROOT, dir))) {
      const relative = path.relative(ROOT, file).split(path.sep).join('/');
      for (const { line, text } of literals(file)) {
        // A literal that is exactly a tool name is the call record's identifier (engine.ts), not words.
        if ((TOOL_NAMES as readonly string[]).includes(text)) continue;
        if (ALLOWED.some((allowed) => allowed.file === relative && text.startsWith(allowed.starts))) continue;
        const why = modelAddress(text);
        if (why) offences.push(`${relative}:${line}: ${why}: ${JSON.stringify(text.slice(0, 120))}`);
      }
    }
  }
  assert.deepEqual(offences, [], `words for the model belong in src/mcp:\n${offences.join('\n')}`);
});
