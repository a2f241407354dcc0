/** How help is laid out on a stream: its width on a terminal (else 80 columns), doc links into the installed docs. */
import { sep } from 'node:path';
import { installedDocsDir } from '../util/package-root.js';
import type { HelpLayout } from './render.js';

export function helpLayout(stream: { isTTY?: boolean; columns?: number }): HelpLayout {
  const docsDir = installedDocsDir();
  return { width: stream.isTTY && stream.columns ? stream.columns : 80, docsDir: docsDir ?? undefined, separator: sep };
}
