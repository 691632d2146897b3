import { describe, expect, it } from 'vitest';
import { parseSelector } from '../../src/selector/parse-selector.js';

const labels = { app: 'web', tier: 'frontend', empty: '', 'kubernetes.io/os': 'linux', version: 'v1.2.3' };

describe('evaluating a selector', () => {
  it.each([
    ['', true],
    ['   ', true],
    ['all()', true],
    ['global()', true],
    ['has(app)', true],
    ['has(empty)', true],
    ['has(missing)', false],
    ['!has(missing)', true],
    ['!has(app)', false],
    ['app == "web"', true],
    ["app == 'web'", true],
    ['app == "db"', false],
    ['missing == ""', false],
    ['empty == ""', true],
    ['app != "db"', true],
    ['app != "web"', false],
    ['missing != "x"', true],
    ['app in {"web", "db"}', true],
    ['app in {"db"}', false],
    ['app in {}', false],
    ['missing in {"web"}', false],
    ['app in {"db", "web",}', true],
    ["app in {'db' , 'web' , }", true],
    ['app not in {"db"}', true],
    ['app notin {"web"}', false],
    ['app not   in {"web"}', false],
    ['missing not in {"web"}', true],
    ['app not in {}', true],
    ['version contains ".2."', true],
    ['version contains "9"', false],
    ['missing contains ""', false],
    ['version starts with "v1"', true],
    ['version startswith "v2"', false],
    ['version ends with ".3"', true],
    ['version endswith ".4"', false],
    ['missing ends with ""', false],
    ['kubernetes.io/os == "linux"', true],
    ['app == "web" && tier == "frontend"', true],
    ['app == "web" && tier == "backend"', false],
    ['app == "db" || tier == "frontend"', true],
    ['app == "db" || tier == "backend"', false],
  ])('%j over the sample labels is %s', (selector, expected) => {
    expect(parseSelector(selector).evaluate(labels)).toBe(expected);
  });

  describe('precedence and negation', () => {
    it.each([
      // && binds tighter than ||: true || (false && false) = true; (true || false) && false would be false.
      ['has(app) || has(x) && has(y)', true],
      ['has(x) && has(y) || has(app)', true],
      ['(has(app) || has(x)) && has(y)', false],
      // ! binds to one operation only.
      ['!has(x) && has(app)', true],
      ['!has(app) && has(app)', false],
      ['!has(app) || has(app)', true],
      ['!(has(app) && has(x))', true],
      ['!(has(app) || has(x))', false],
      ['!app == "web"', false],
      ['!app == "db"', true],
      ['!!has(app)', true],
      ['!!!has(app)', false],
      ['! ! has(app)', true],
      ['!(!(has(app)))', true],
      ['((((has(app)))))', true],
      ['has(x) || has(y) || has(app)', true],
      ['has(app) && has(tier) && !has(x)', true],
    ])('%j is %s', (selector, expected) => {
      expect(parseSelector(selector).evaluate(labels)).toBe(expected);
    });
  });

  it('matches only own labels, never prototype properties', () => {
    expect(parseSelector('has(constructor)').evaluate({})).toBe(false);
    expect(parseSelector('has(__proto__)').evaluate({})).toBe(false);
    expect(parseSelector('toString != "x"').evaluate({})).toBe(true);
  });

  it('reuses a parsed selector across label maps', () => {
    const selector = parseSelector('tier in {"frontend", "edge"} && !has(deprecated)');
    expect(selector.evaluate({ tier: 'edge' })).toBe(true);
    expect(selector.evaluate({ tier: 'edge', deprecated: 'yes' })).toBe(false);
    expect(selector.evaluate({})).toBe(false);
  });
});
