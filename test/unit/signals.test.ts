import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { handleSignals, terminatingSignals } from '../../src/cli/signals.js';

function wired(platform: NodeJS.Platform) {
  const emitter = new EventEmitter();
  const controller = new AbortController();
  const exits: number[] = [];
  handleSignals(emitter, controller, (code) => exits.push(code), platform);
  return { emitter, controller, exits };
}

describe('signals', () => {
  it.each(['SIGTERM', 'SIGHUP'])('%s ends the command like SIGTERM (exit 143 path)', (name) => {
    const { emitter, controller, exits } = wired('linux');
    emitter.emit(name);
    expect(controller.signal.aborted).toBe(true);
    expect(controller.signal.reason).toMatchObject({ name: 'AbortError', signal: 'SIGTERM', received: name });
    expect(exits).toEqual([]);
  });

  it('SIGBREAK (Ctrl-Break, console closed) ends it too on Windows', () => {
    const { emitter, controller } = wired('win32');
    emitter.emit('SIGBREAK');
    expect(controller.signal.reason).toMatchObject({ signal: 'SIGTERM', received: 'SIGBREAK' });
    expect(terminatingSignals('linux')).not.toContain('SIGBREAK');
  });

  it('Ctrl-C aborts once, and a second Ctrl-C exits 130 at once', () => {
    const { emitter, controller, exits } = wired('darwin');
    emitter.emit('SIGINT');
    expect(controller.signal.reason).toMatchObject({ name: 'AbortError', message: 'Interrupted' });
    expect(exits).toEqual([]);
    emitter.emit('SIGINT');
    expect(exits).toEqual([130]);
  });

  it('a later SIGHUP does not replace the reason of the first signal', () => {
    const { emitter, controller } = wired('linux');
    emitter.emit('SIGTERM');
    emitter.emit('SIGHUP');
    expect(controller.signal.reason).toMatchObject({ received: 'SIGTERM' });
  });
});
