// A git revision of msgctl in a worktree of its own, built by its own scripts/build.mjs, sharing
// this checkout's node_modules through a link: what the benches comparing two revisions run.
// POSIX only (git worktrees with a symlinked node_modules).
import { spawnSync } from 'node:child_process';
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { benchEnv, ROOT } from './common.mjs';

/**
 * @param {string} rev
 * @param {string} root where the worktree goes (must not exist)
 * @returns {{ bin: string, root: string, commit: string }}
 */
export function buildRevision(rev, root) {
  const added = spawnSync('git', ['-C', ROOT, 'worktree', 'add', '--detach', root, rev], { encoding: 'utf8' });
  if (added.status !== 0) throw new Error(`git worktree add ${rev} failed: ${added.stderr}`);
  symlinkSync(join(ROOT, 'node_modules'), join(root, 'node_modules'));
  const built = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: root, encoding: 'utf8', env: benchEnv() });
  if (built.status !== 0) throw new Error(`build of ${rev} failed: ${built.stderr}`);
  const commit = spawnSync('git', ['-C', root, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).stdout.trim();
  return { bin: join(root, 'bin', 'msgctl.js'), root, commit };
}

/** @param {string} root a worktree buildRevision made */
export function removeRevision(root) {
  spawnSync('git', ['-C', ROOT, 'worktree', 'remove', '--force', root]);
}
