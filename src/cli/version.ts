// Replaced at build time by esbuild (scripts/build.mjs); source runs (tests) see the fallback.
declare const __MSGCTL_VERSION__: string | undefined;

export const VERSION: string =
  typeof __MSGCTL_VERSION__ === 'string' ? __MSGCTL_VERSION__ : '0.0.0-dev';
