/** esbuild bundles the app's stylesheet when main.tsx imports it. */
declare module '*.css';
