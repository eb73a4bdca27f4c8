// Lets TypeScript accept the stylesheet import Vite bundles.
declare module '*.css';
