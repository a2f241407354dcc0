/**
 * A help topic: `msgctl help <name>` prints `text` (wrapped to the terminal by
 * help/render.ts: unindented lines are prose, `  term  description` lines are
 * items, lines under an "Examples:" header are left whole). One file per
 * topic in help/topics/, listed in help/registry.ts.
 */
export interface HelpTopic {
  name: string;
  /** One line, for the list of topics. */
  summary: string;
  text: string;
}
