/**
 * Files a command holds while it runs (a batch's journal lock) and must not leave behind when
 * the process ends abruptly. stdout failing (a full disk, `> /dev/full`, a closed pipe) ends the
 * process at once from the main thread (output/direct-output.ts), and a batch runs in a worker
 * thread (batch-thread.ts) whose own `finally` never runs then: the lock stayed, naming a
 * process that no longer exists, until the next run judged it stale (and were the PID reused
 * by then, judged it held).
 *
 * So each such file is recorded with the text it was created with, in the main thread (a
 * worker passes its records up; batch-thread.ts hands them to adoptHeldFile), and the main
 * thread's `exit` removes those still holding that text. A file whose text changed is another
 * run's (it took a stale lock over) and stays.
 */
import type { MessagePort } from 'node:worker_threads';
import { readOwnText } from './own-files.js';

const fs = process.getBuiltinModule('node:fs');

/** What a worker thread posts to the main thread when it takes or releases a held file. */
export interface HeldFileMessage {
  heldFile: { path: string; text: string; held: boolean };
}

const held = new Map<string, string>();
let removingAtExit = false;
/** Set in the batch thread only (batch-thread.ts): where its records go instead of `held`. */
let mainThread: MessagePort | null = null;

/** The batch thread: records go to the main thread, which removes the files if the process ends first. */
export function reportHeldFilesTo(port: MessagePort): void {
  mainThread = port;
}

/** `path`, created with `text`, is removed at exit unless released first. */
export function holdFile(path: string, text: string): void {
  record({ heldFile: { path, text, held: true } });
}

/** `path` was removed (or handed on) by its holder: leave it alone at exit. */
export function releaseFile(path: string, text: string): void {
  record({ heldFile: { path, text, held: false } });
}

/** Main thread: a worker's message, if it is about a held file (others are left alone). */
export function adoptHeldFile(message: unknown): void {
  const file = (message as Partial<HeldFileMessage> | null)?.heldFile;
  if (typeof file?.path === 'string' && typeof file.text === 'string') record({ heldFile: file });
}

function record(message: HeldFileMessage): void {
  if (mainThread) {
    mainThread.postMessage(message);
    return;
  }
  const { path, text } = message.heldFile;
  if (!message.heldFile.held) {
    if (held.get(path) === text) held.delete(path);
    return;
  }
  held.set(path, text);
  if (!removingAtExit) {
    removingAtExit = true;
    process.on('exit', removeHeldFiles);
  }
}

function removeHeldFiles(): void {
  for (const [path, text] of held) {
    try {
      // Read as every file of the user's is (own-files.ts): never through a link, never waiting on a FIFO.
      if (readOwnText(path, 'a lock file') === text) fs.unlinkSync(path);
    } catch {
      // gone already, or unreadable: nothing of ours to remove
    }
  }
}
