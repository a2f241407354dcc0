/**
 * Text from the service or from a file, made safe to show a person.
 *
 * Patients write message bodies and (through inbound SMS) their own names, so
 * any string that came from data can hold terminal control sequences: ESC
 * starts CSI/OSC sequences that retitle the terminal, write the clipboard or
 * clear the screen; C1 controls (U+0080–U+009F, U+009B is a one-character CSI)
 * do the same on terminals that honour 8-bit controls; bidi overrides and
 * isolates make text read differently from what it is; invisible characters
 * (zero-width ones, tag characters U+E0000–E007F that can spell a hidden
 * message, variation selectors that can carry hidden bytes, fillers such as
 * U+3164 or U+2800 that look like nothing or like a space) hide what text
 * holds. Every such character becomes a visible escape (`\x1b`, `\u202e`,
 * `\u{e0041}`) instead of reaching the terminal. The CLI's own colour codes
 * are added after this, so they stay.
 *
 * `--json` escapes the same characters as `\uXXXX` when it is written to a
 * terminal (jsonForTerminal): the value a JSON reader gets is the same, only
 * the bytes differ. Piped JSON is left byte-exact. `wellFormedJson` makes sure
 * a JSON document is one every reader accepts (a lone surrogate becomes U+FFFD).
 */

// The one set, by Unicode property where one fits (so it follows Node's Unicode version):
//   \p{Cc}  C0 controls, DEL, C1 controls;
//   \p{Cf}  every format character: soft hyphen, bidi marks, embeddings, overrides and isolates,
//           zero-width space/joiners, word joiner, invisible operators, U+206A–206F, BOM,
//           interlinear annotation, tag characters;
//   \p{DI}  Default_Ignorable_Code_Point, what Unicode says renders as nothing: U+034F, the
//           Hangul fillers U+115F/1160/3164/FFA0, Khmer U+17B4/17B5, Mongolian selectors,
//           variation selectors U+FE00–FE0F and U+E0100–E01EF, U+E0000–E0FFF;
//   \p{Zl} \p{Zp}  line and paragraph separators (they break a line like a newline);
//   U+2800  the braille blank, which looks like a space but is not one;
//   \p{Cs}  a surrogate that is not half of a pair (not Unicode at all).
// Tab, LF and CR are the callers' to keep or escape (terminalSafe's keepLines).
// Except: U+FE0E/U+FE0F right after an emoji (❤️, #️⃣), where they only choose text or
// colour presentation. A reaction is stored in that form, and escaping it would garble every
// heart; anywhere else (after a letter, or one after another) they could only hide data.
//
// Made on first use, not when the module loads: the bundle builds it with `new RegExp` (the
// target's regexp lowering), and building these property classes costs every command's
// start-up ~1 ms, though most never show text from data (piped --json, a dry run).
let unsafePattern: RegExp | undefined;
function unsafe(): RegExp {
  unsafePattern ??= /(?![\t\n\r])(?!(?<=\p{Emoji})[\uFE0E\uFE0F](?<!\p{Emoji}[\uFE0E\uFE0F]{2}))[\p{Cc}\p{Cf}\p{DI}\p{Zl}\p{Zp}\p{Cs}\u2800]/gu;
  return unsafePattern;
}
const TAB_NEWLINE = /[\t\n\r]/g;
/**
 * Whether text holds anything but printable ASCII, tab, LF and CR: only then can the unsafe set
 * match. Most text a command prints is plain ASCII, and building the property classes above
 * (and the garbage it leaves) cost a dry run ~5 ms of its start-up (bench/compare-revisions.mjs).
 */
const NOT_PLAIN_ASCII = /[^\x20-\x7e\t\n\r]/;

function visible(ch: string): string {
  const code = ch.codePointAt(0)!;
  if (code < 0x100) return `\\x${code.toString(16).padStart(2, '0')}`;
  return code < 0x10000 ? `\\u${code.toString(16).padStart(4, '0')}` : `\\u{${code.toString(16)}}`;
}

/**
 * One line of text: every control and invisible formatting character becomes
 * a visible escape. With `keepLines`, newlines and tabs stay (a multi-line
 * message); a lone CR is escaped either way, since it rewrites the line.
 */
export function terminalSafe(text: string, options: { keepLines?: boolean } = {}): string {
  const escaped = NOT_PLAIN_ASCII.test(text) ? text.replace(unsafe(), visible) : text;
  if (options.keepLines) return escaped.replace(/\r(?!\n)/g, '\\r');
  return escaped.replace(TAB_NEWLINE, visible);
}

/**
 * JSON text for a terminal: every character of the unsafe set (above) written as a JSON
 * escape (`\u009b`, `\u202e`, a pair `\udb40\udc41` for a tag character). Valid on the
 * whole text: these characters can only stand inside JSON strings (JSON's own whitespace
 * is space, tab, CR and LF, which JSON.stringify never leaves raw in a string and this
 * keeps), so a reader gets exactly the same value. A lone surrogate is left to wellFormedJson.
 */
export function jsonForTerminal(json: string): string {
  if (!NOT_PLAIN_ASCII.test(json)) return json;
  return json.replace(unsafe(), (ch) => {
    if (/^\p{Cs}$/u.test(ch)) return ch;
    let out = '';
    for (let i = 0; i < ch.length; i++) out += `\\u${ch.charCodeAt(i).toString(16).padStart(4, '0')}`;
    return out;
  });
}

/**
 * JSON text with every `\uD800`–`\uDFFF` escape that is not half of a pair
 * replaced by `\ufffd`. JSON.stringify writes a lone surrogate as such an
 * escape, and a service may send one; jq 1.6 stops at it ("Invalid
 * \uXXXX\uXXXX surrogate pair escape"), other readers fail or guess.
 */
export function wellFormedJson(json: string): string {
  if (!/\\u[dD][89a-fA-F]/.test(json)) return json;
  let out = '';
  let copied = 0;
  for (let i = json.indexOf('\\'); i !== -1 && i < json.length; i = json.indexOf('\\', i)) {
    if (json[i + 1] !== 'u') {
      i += 2; // any other escape, including an escaped backslash
      continue;
    }
    const unit = parseInt(json.slice(i + 2, i + 6), 16);
    if (unit >= 0xd800 && unit <= 0xdbff && json[i + 6] === '\\' && json[i + 7] === 'u') {
      const low = parseInt(json.slice(i + 8, i + 12), 16);
      if (low >= 0xdc00 && low <= 0xdfff) {
        i += 12;
        continue;
      }
    }
    if (unit >= 0xd800 && unit <= 0xdfff) {
      out += json.slice(copied, i) + '\\ufffd';
      copied = i + 6;
    }
    i += 6;
  }
  return copied === 0 ? json : out + json.slice(copied);
}

/** JSON.stringify whose text every JSON reader accepts (see wellFormedJson). */
export function stringifyWellFormed(value: unknown, space?: number): string {
  return wellFormedJson(JSON.stringify(value, null, space));
}

/**
 * A value as one table/TSV cell: no tabs or newlines (each run becomes a
 * space), no control or invisible formatting characters (visible escapes,
 * terminal-text.ts), empty for null.
 */
export function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  return terminalSafe(text.replace(/[\t\r\n]+/g, ' '));
}

/** What jsonOnTerminal wraps: a stream with the parts Output uses (output.ts's OutStream). */
interface TextSink {
  write(chunk: string | Uint8Array, callback?: (err?: Error | null) => void): boolean;
  once(event: 'drain', listener: () => void): unknown;
  isTTY?: boolean;
  columns?: number;
}

/**
 * `--json` output as written: on a terminal, every write goes through jsonForTerminal
 * (the stream carries nothing but JSON Lines then); anywhere else the stream itself,
 * so piped JSON stays byte-exact.
 */
export function jsonOnTerminal<T extends TextSink>(out: T): T | TextSink {
  if (!out.isTTY) return out;
  return {
    isTTY: true,
    columns: out.columns,
    write: (chunk, callback) => out.write(jsonForTerminal(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8')), callback),
    once: (event, listener) => out.once(event, listener),
  };
}
