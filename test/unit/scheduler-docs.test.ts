/**
 * The scheduler examples of docs/platforms.md, read as the schedulers read
 * them (issue 29 item 2, issue 32 item 4): the launchd plist is a well-formed
 * property list whose PATH has both Homebrew prefixes and whose calendar has
 * both runs; the Task Scheduler XML is well-formed and runs missed or sleeping
 * runs, without a console window. test/e2e/installed.test.ts runs the cron
 * and launchd commands under the scheduler's environment.
 */
import { describe, expect, it } from 'vitest';
import { codeBlocks, parseCrontab, parsePlist } from '../helpers/doc-blocks.js';

const JOB = 'msgctl --profile clinic send --csv tomorrow.csv --template-file reminder.txt --json >> sent.jsonl 2>> reminders.log';

describe('cron', () => {
  it('sets a PATH ahead of cron\'s /usr/bin:/bin and runs the batch at 18:30 and 19:30; scripting.md shows the same', () => {
    const [crontab, absolute] = codeBlocks('docs/platforms.md', 'crontab');
    const { variables, jobs } = parseCrontab(crontab!);
    expect(variables.PATH).toBe('/usr/local/bin:/usr/bin:/bin');
    expect(jobs).toEqual([`cd /srv/reminders && ${JOB}`, `cd /srv/reminders && ${JOB}`]);
    expect(crontab).toMatch(/^30 18 \* \* \* /m);
    expect(crontab).toMatch(/^30 19 \* \* \* /m);
    expect(parseCrontab(absolute!).jobs[0]).toMatch(/^cd \/srv\/reminders && \/usr\/local\/bin\/node \/usr\/local\/lib\/node_modules\/msgctl\/bin\/msgctl\.js --profile clinic send/);
    const scripting = parseCrontab(codeBlocks('docs/scripting.md', 'crontab')[0]!);
    expect(scripting).toEqual({ variables, jobs });
  });
});

describe('launchd', () => {
  it('is a well-formed plist with PATH for both Homebrew prefixes, a working directory and both calendar runs', async () => {
    const xml = codeBlocks('docs/platforms.md', 'xml').find((b) => b.includes('<plist'))!;
    const plist = (await parsePlist(xml)) as Record<string, any>;
    expect(plist.Label).toBe('org.example.reminders');
    const path = (plist.EnvironmentVariables.PATH as string).split(':');
    expect(path.slice(0, 2)).toEqual(['/opt/homebrew/bin', '/usr/local/bin']);
    expect(path).toEqual(expect.arrayContaining(['/usr/bin', '/bin']));
    expect(plist.WorkingDirectory).toMatch(/^\/Users\/[^$~]+$/);
    expect(plist.ProgramArguments).toEqual(['/bin/sh', '-c', JOB]);
    expect(plist.StartCalendarInterval).toEqual([{ Hour: 18, Minute: 30 }, { Hour: 19, Minute: 30 }]);
  });
});

describe('Task Scheduler', () => {
  it('is well-formed; runs a missed run when it can, wakes the PC, shows no console window, runs the same command', async () => {
    const xml = codeBlocks('docs/platforms.md', 'xml').find((b) => b.includes('<Task'))!;
    const { XMLParser, XMLValidator } = await import('fast-xml-parser');
    expect(XMLValidator.validate(xml)).toBe(true);
    const task = new XMLParser({ ignoreAttributes: false, parseTagValue: false }).parse(xml).Task;
    expect(task['@_xmlns']).toBe('http://schemas.microsoft.com/windows/2004/02/mit/task');
    expect(task.Settings).toMatchObject({ StartWhenAvailable: 'true', WakeToRun: 'true', DisallowStartIfOnBatteries: 'false', StopIfGoingOnBatteries: 'false', MultipleInstancesPolicy: 'IgnoreNew' });
    expect(task.Settings.ExecutionTimeLimit).toMatch(/^PT\d+H$/);
    // "Run whether user is logged on or not", password stored: in the background (no window), with Credential Manager.
    expect(task.Principals.Principal.LogonType).toBe('Password');
    const triggers = task.Triggers.CalendarTrigger as { StartBoundary: string; ScheduleByDay: { DaysInterval: string } }[];
    expect(triggers.map((t) => t.StartBoundary.slice(11))).toEqual(['18:30:00', '19:30:00']);
    expect(triggers.every((t) => t.ScheduleByDay.DaysInterval === '1')).toBe(true);
    expect(task.Actions.Exec).toEqual({ Command: 'cmd.exe', Arguments: `/c ${JOB}`, WorkingDirectory: 'C:\\Reminders' });
  });
});
