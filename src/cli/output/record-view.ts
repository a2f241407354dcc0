/**
 * One record as a person reads it: `label: value` lines, values aligned after
 * the longest label, long values wrapped under themselves. No box, no rules
 * (a screen reader reads every one of those characters), labels never cut.
 * On a terminal too narrow to give values room beside the labels, each value
 * goes on the line after its label, indented.
 */
import { displayWidth, wrapWidth } from './text-width.js';

export interface RecordLine {
  label: string;
  /** Already made safe for the terminal (cell()/terminalSafe); may hold newlines (a message body). */
  value: string;
}

/** Values narrower than this beside their labels would wrap into a ragged column: they go below instead. */
const MIN_VALUE_WIDTH = 24;

export function renderRecord(lines: RecordLine[], width: number, labelStyle: (s: string) => string = (s) => s): string {
  const labelWidth = Math.max(0, ...lines.map((l) => displayWidth(l.label) + 1));
  const beside = width - labelWidth - 1 >= MIN_VALUE_WIDTH;
  let out = '';
  for (const { label, value } of lines) {
    const name = `${label}:`;
    if (beside) {
      const wrapped = wrapWidth(value, width - labelWidth - 1);
      const indent = ' '.repeat(labelWidth + 1);
      out += labelStyle(name) + ' '.repeat(labelWidth - displayWidth(name) + 1) + wrapped.join(`\n${indent}`) + '\n';
    } else {
      out += labelStyle(name) + '\n' + wrapWidth(value, Math.max(8, width - 2)).map((l) => `  ${l}`).join('\n') + '\n';
    }
  }
  return out;
}
