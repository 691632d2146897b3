import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import plugin, { rules } from '../src/index.js';
import { DOCS_BASE_URL } from '../src/utils/create-rule.js';

const docsDir = fileURLToPath(new URL('../docs/rules/', import.meta.url));
const docNames = readdirSync(docsDir)
  .filter((f) => f.endsWith('.md'))
  .map((f) => f.slice(0, -'.md'.length))
  .sort();
const ruleNames = Object.keys(rules).sort();

describe('rule documentation', () => {
  it('has a doc page for every rule and a rule for every doc page', () => {
    expect(docNames).toEqual(ruleNames);
  });

  describe.each(ruleNames)('%s', (name) => {
    const rule = rules[name as keyof typeof rules];
    const doc = readFileSync(`${docsDir}${name}.md`, 'utf8');

    it('points meta.docs.url at its doc page', () => {
      expect(rule.meta.docs?.url).toBe(`${DOCS_BASE_URL}${name}.md`);
    });

    it('titles the page with the rule name and its description', () => {
      expect(doc.split('\n')[0]).toBe(`# \`ipamkit/${name}\``);
      expect(doc).toContain(rule.meta.docs?.description ?? 'missing description');
    });

    it.each(['## Incorrect', '## Correct', '## Options', '## When not to use it', '## Design note'])('has the section %s', (section) => {
      expect(doc).toContain(section);
    });

    it('shows ❌ and ✅ examples', () => {
      expect(doc).toContain('❌');
      expect(doc).toContain('✅');
    });

    it('names every message id it can report', () => {
      for (const id of Object.keys(rule.meta.messages)) expect(doc).toContain(`\`${id}\``);
    });
  });
});

describe('plugin', () => {
  it('exports its rules and a recommended config that turns all of them on', () => {
    expect(plugin.rules).toBe(rules);
    expect(Object.keys(plugin.configs.recommended.rules).sort()).toEqual(ruleNames.map((n) => `ipamkit/${n}`));
    expect(Object.values(plugin.configs.recommended.rules)).toEqual(ruleNames.map(() => 'error'));
  });
});
