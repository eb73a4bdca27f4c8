import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ROLE, isCheckableRole, isTextRole, roleName, toPascalRole } from '../../native/linux/atspiRoles.js';
import { STATE, hasState, stateNames } from '../../native/linux/atspiStates.js';

test('should turn AT-SPI role names into PascalCase roles', () => {
  assert.equal(toPascalRole('push button'), 'PushButton');
  assert.equal(toPascalRole('page tab list'), 'PageTabList');
  assert.equal(toPascalRole('label'), 'Label');
  assert.equal(toPascalRole('check-box'), 'CheckBox');
  assert.equal(toPascalRole('  '), 'Unknown');
});

test('should name role values as AT-SPI does', () => {
  assert.equal(roleName(43), 'push button');
  assert.equal(roleName(40), 'password text');
  assert.equal(roleName(29), 'label');
  assert.equal(roleName(23), 'frame');
  assert.equal(roleName(75), 'application');
  assert.equal(roleName(9999), 'unknown');
  assert.equal(ROLE.passwordText, 40);
  assert.equal(ROLE.pushButton, 43);
});

test('should classify text and checkable roles', () => {
  assert.ok(isTextRole(61)); // text
  assert.ok(isTextRole(79)); // entry
  assert.ok(!isTextRole(ROLE.passwordText));
  assert.ok(!isTextRole(43));
  assert.ok(isCheckableRole(ROLE.checkBox));
  assert.ok(!isCheckableRole(ROLE.pushButton));
});

test('should read state bits from both state words', () => {
  // A GTK3 menu item: enabled, selectable, sensitive, visible; not showing.
  const menuItem = [1094713600, 0];
  assert.deepEqual(stateNames(menuItem), ['enabled', 'selectable', 'sensitive', 'visible']);
  assert.ok(hasState(menuItem, STATE.sensitive));
  assert.ok(!hasState(menuItem, STATE.showing));
  // Bit 31 needs an unsigned shift; bits ≥ 32 live in the second word.
  assert.ok(hasState([0x80000000, 0], STATE.managesDescendants));
  assert.ok(hasState([0, 1 << (STATE.readOnly - 32)], STATE.readOnly));
  assert.ok(!hasState([], STATE.focused));
});
