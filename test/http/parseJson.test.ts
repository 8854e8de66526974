import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, parseJson } from '../../src/http/parseJson.js';

const parse = (text: string | Buffer) => parseJson(typeof text === 'string' ? Buffer.from(text) : text);
const SURROGATE = { ok: false, detail: 'body: a string holds a lone surrogate' };

describe('parseJson', () => {
  it('refuses a lone surrogate escape in any case of hex, in a value or a key, at any depth', () => {
    expect(parse('{"a":"x\\uD800"}')).toEqual(SURROGATE);
    expect(parse('{"a":[{"b":"\\udfff"}]}')).toEqual(SURROGATE);
    expect(parse('{"\\uDbFf":1}')).toEqual(SURROGATE);
  });

  it('accepts a surrogate pair, an escaped backslash before "ud800", and raw bytes that are not UTF-8', () => {
    expect(parse('{"a":"\\ud83d\\ude00"}')).toEqual({ ok: true, value: { a: '\u{1F600}' } });
    expect(parse('{"a":"\\\\ud800"}')).toEqual({ ok: true, value: { a: '\\ud800' } });
    // ED A0 80 would encode U+D800 (CESU-8): decoding makes it replacement characters, which are text.
    const raw = Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}')]);
    expect(parse(raw)).toMatchObject({ ok: true });
  });

  it('checks the depth whether or not the text has an escape', () => {
    const deep = `${'['.repeat(MAX_JSON_DEPTH + 1)}${']'.repeat(MAX_JSON_DEPTH + 1)}`;
    expect(parse(deep)).toEqual({ ok: false, detail: `body: JSON nested deeper than ${MAX_JSON_DEPTH}` });
    expect(parse(`${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}`)).toMatchObject({ ok: true });
  });
});
