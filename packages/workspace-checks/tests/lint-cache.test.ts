import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandResult } from './support/run-command.js';
import { TempClone } from './support/temp-clone.js';

// design/workspace-checks.md, "Lint cache": a rule change reaches every lint cache entry it could change.

const RULE_FILE = 'packages/eslint-plugin/src/rules/no-raw-handle-id.ts';
/** The rule's default allow list; emptied, the rule judges models' own handle-ID module. */
const DEFAULT_ALLOW = "allow: ['**/handle-id*.ts', '**/handles/**'],";

let clone: TempClone;
let firstRun: CommandResult;
let replay: CommandResult;
let afterRuleChange: CommandResult;

/** nx prints `> nx run <project>:<target>  [local cache]` for a replayed task. */
const replayed = (result: CommandResult, task: string): boolean =>
  new RegExp(`nx run ${task.replace(/[/@:]/g, '\\$&')}\\s+\\[(?:local|existing outputs match the) cache`).test(result.stdout);

beforeAll(async () => {
  clone = await TempClone.create('lint-cache');
  firstRun = await clone.nx(['run', '@ipamkit/models:lint', '--outputStyle=static']);
  replay = await clone.nx(['run', '@ipamkit/models:lint', '--outputStyle=static']);
  const rule = clone.read(RULE_FILE);
  if (!rule.includes(DEFAULT_ALLOW)) throw new Error(`${RULE_FILE} no longer has ${DEFAULT_ALLOW}; update this test`);
  clone.write(RULE_FILE, rule.replace(DEFAULT_ALLOW, 'allow: [],'));
  const rebuild = await clone.nx(['run', '@ipamkit/eslint-plugin:build', '--outputStyle=static']);
  if (rebuild.exitCode !== 0) throw new Error(`rebuilding the plugin failed:\n${rebuild.stdout}\n${rebuild.stderr}`);
  afterRuleChange = await clone.nx(['run-many', '-t', 'lint', '-p', '@ipamkit/models', '--outputStyle=static']);
}, 900_000);

afterAll(() => {
  clone.remove();
});

describe('the lint cache after an eslint-plugin rule change', () => {
  it('holds a pass for models before the change', () => {
    expect(firstRun.exitCode, `${firstRun.stdout}${firstRun.stderr}`).toBe(0);
    expect(replay.exitCode, `${replay.stdout}${replay.stderr}`).toBe(0);
    expect(replayed(replay, '@ipamkit/models:lint')).toBe(true);
  });

  it('misses, re-lints models and fails on what the changed rule now flags', () => {
    expect(replayed(afterRuleChange, '@ipamkit/models:lint')).toBe(false);
    expect(afterRuleChange.exitCode).not.toBe(0);
    expect(afterRuleChange.stdout).toMatch(/src\/handles\/handle-ids\.ts/);
    expect(afterRuleChange.stdout).toContain('ipamkit/no-raw-handle-id');
  });
});
