import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { copyValue } from '../src/engine/copy-value.js';

class Owner {
  constructor(readonly pod: string) {}
}

// What structuredClone makes of a value, for comparison: copyValue must agree on everything but
// object identity (shared references are copied twice).
const jsonish = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.constant(undefined),
    fc.boolean(),
    fc.double(),
    fc.bigInt({ min: -(1n << 70n), max: 1n << 70n }),
    fc.string(),
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(fc.string(), tie('value'), { maxKeys: 5 }),
    fc.date({ noInvalidDate: true }),
    fc.array(fc.tuple(fc.string(), tie('value')), { maxLength: 3 }).map((entries) => new Map(entries)),
    fc.string().map((pod) => new Owner(pod)),
  ),
})).value;

describe('copyValue', () => {
  it('copies plain data deeply: equal, never the same objects', () => {
    const value = { cidr: '10.0.0.0/26', allocations: [0, null], attributes: [{ handleId: 'h', activeOwnerAttrs: { pod: 'p' } }], seq: 2n ** 64n };
    const copy = copyValue(value);
    expect(copy).toStrictEqual(value);
    expect(copy).not.toBe(value);
    expect(copy.attributes[0]).not.toBe(value.attributes[0]);
    expect(copy.attributes[0]?.activeOwnerAttrs).not.toBe(value.attributes[0]?.activeOwnerAttrs);
  });

  it('shares deeply frozen plain objects when asked to, and copies everything else', () => {
    const frozen = Object.freeze({ handleId: 'h', activeOwnerAttrs: Object.freeze({ pod: 'p' }) });
    const shallow = Object.freeze({ handleId: 'h', activeOwnerAttrs: { pod: 'p' } });
    const list = Object.freeze(['a']);
    const value = { attributes: [frozen, shallow], list };
    const shared = copyValue(value, true);
    expect(shared).toStrictEqual(value);
    expect(shared.attributes).not.toBe(value.attributes);
    expect(shared.attributes[0]).toBe(frozen);
    expect(shared.attributes[1]).not.toBe(shallow);
    expect(shared.attributes[1]?.activeOwnerAttrs).not.toBe(shallow.activeOwnerAttrs);
    expect(shared.list).not.toBe(list);
    expect(copyValue(value).attributes[0]).not.toBe(frozen);
  });

  it('walks a deeply frozen object once: later copies share it without looking inside', () => {
    // A proxy that counts every look inside the frozen attribute (its keys, members and prototype).
    let looks = 0;
    const counting: ProxyHandler<object> = {
      ownKeys: (target) => (looks++, Reflect.ownKeys(target)),
      getOwnPropertyDescriptor: (target, key) => (looks++, Reflect.getOwnPropertyDescriptor(target, key)),
      get: (target, key, receiver) => (looks++, Reflect.get(target, key, receiver) as unknown),
      getPrototypeOf: (target) => (looks++, Reflect.getPrototypeOf(target)),
    };
    const attribute = new Proxy(Object.freeze({ handleId: 'h', activeOwnerAttrs: Object.freeze({ pod: 'p' }) }), counting);
    const first = copyValue({ attributes: [attribute] }, true);
    expect(first.attributes[0]).toBe(attribute);
    expect(looks).toBeGreaterThan(0);
    looks = 0;
    const second = copyValue({ attributes: [attribute], more: [attribute] }, true);
    expect(second.attributes[0]).toBe(attribute);
    expect(second.more[0]).toBe(attribute);
    expect(looks).toBe(0);
    // Not frozen all the way down: never remembered, so copied every time.
    const shallow = Object.freeze({ handleId: 'h', activeOwnerAttrs: { pod: 'p' } });
    expect(copyValue({ a: shallow }, true).a).not.toBe(shallow);
    expect(copyValue({ a: shallow }, true).a).not.toBe(shallow);
  });

  it('keeps a __proto__ key as an own data property and bigints as they are', () => {
    const copy = copyValue(JSON.parse('{"__proto__":{"x":1},"n":[null,true,"s"]}') as Record<string, unknown>);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(['__proto__', 'n']);
    expect(copy.__proto__).toEqual({ x: 1 });
    expect(copyValue({ seq: 2n ** 64n })).toEqual({ seq: 2n ** 64n });
  });

  it('keeps holes and gives a null-prototype object the plain prototype, as structuredClone does', () => {
    // eslint-disable-next-line no-sparse-arrays -- the hole is the point
    const holey = [1, , 3];
    expect(1 in copyValue(holey)).toBe(false);
    expect(copyValue(holey)).toStrictEqual(structuredClone(holey));
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { a: 1 });
    expect(Object.getPrototypeOf(copyValue(bare))).toBe(Object.prototype);
  });

  it('leaves Maps, Dates and class instances to structuredClone', () => {
    const value = { at: new Date(Date.UTC(2026, 0, 2)), byIp: new Map([['10.0.0.1', { n: 1n }]]), owner: new Owner('p') };
    const copy = copyValue(value);
    expect(copy).toStrictEqual(structuredClone(value));
    expect(copy.at).toBeInstanceOf(Date);
    expect(copy.at).not.toBe(value.at);
    expect(copy.byIp).toBeInstanceOf(Map);
    expect(copy.byIp.get('10.0.0.1')).not.toBe(value.byIp.get('10.0.0.1'));
    expect(Object.getPrototypeOf(copy.owner)).toBe(Object.prototype);
  });

  it('fails on a function as structuredClone does, and copies a cycle as it does', () => {
    expect(() => copyValue({ f: () => 1 })).toThrow(expect.objectContaining({ name: 'DataCloneError' }) as Error);
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic['self'] = { back: cyclic };
    const copy = copyValue(cyclic);
    expect((copy['self'] as Record<string, unknown>)['back']).toBe(copy);
  });

  it('agrees with structuredClone on random values', () => {
    fc.assert(
      fc.property(jsonish, (value) => {
        expect(copyValue(value)).toStrictEqual(structuredClone(value));
      }),
      { numRuns: 1000 },
    );
  });
});
