import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { shellWord } from '../../src/cli/util/shell-word.js';

describe('shellWord (ids in the commands hints suggest)', () => {
  it('leaves plain tokens as they are', () => {
    for (const id of ['3f0c2a4e-8b1d-4c2e-9f3a-1b2c3d4e5f60', 'imp_3f0c2a4e8b1d4c369a512d0c', 'a.b:c@d+e/f=g']) expect(shellWord(id)).toBe(id);
  });

  it.skipIf(process.platform === 'win32')('quotes anything else so that a POSIX shell reads it back as one word, running nothing', () => {
    for (const value of ['$(touch /nonexistent/x)', '`id`', "it's; rm -rf ~", 'a b', '{a,b}', '~root', '"$HOME"', 'x\ny']) {
      const echoed = execFileSync('sh', ['-c', `printf '%s' ${shellWord(value)}`], { encoding: 'utf8' });
      expect(echoed).toBe(value);
    }
  });
});
