// Replaced at build time by esbuild (scripts/build.mjs); source runs (tests) see the fallback.
declare const __MSGCTL_VERSION__: string | undefined;

export const VERSION: string =
  typeof __MSGCTL_VERSION__ === 'string' ? __MSGCTL_VERSION__ : '0.0.0-dev';

/** The User-Agent of every request msgctl sends (the service and the sandbox's control endpoints alike). */
export const USER_AGENT = `msgctl/${VERSION} (node ${process.version}; ${process.platform})`;
