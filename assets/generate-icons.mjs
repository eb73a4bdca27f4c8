#!/usr/bin/env node
// Renders the SVG sources in this folder to the PNGs Electron and electron-builder use.
// Run after editing an SVG: node assets/generate-icons.mjs (the PNGs are committed).
import sharp from 'sharp';
import { fileURLToPath } from 'node:url';

const here = (name) => fileURLToPath(new URL(name, import.meta.url));
const outputs = [
  ['trayTemplate.svg', 'trayTemplate.png', 16],
  ['trayTemplate.svg', 'trayTemplate@2x.png', 32],
  ['tray.svg', 'tray.png', 32],
  ['icon.svg', 'icon.png', 1024],
];
for (const [source, target, size] of outputs) {
  await sharp(here(source), { density: 72 * Math.ceil(size / 16) }).resize(size, size).png().toFile(here(target));
  console.error(`assets/${target} (${size}×${size})`);
}
