import fc from 'fast-check'
import { describe, expect, it, vi } from 'vitest'
import {
  escapeControls,
  listenForWorkerSecrets,
  MAX_REDACT_DEPTH,
  REDACTED,
  Redactor,
  runRedactor,
  secretSpellings,
  SpellingIndex,
} from '../../../../helpers/client/evidence/redact'
import {
  base64Contexts,
  leakForms,
  mimeContexts,
  mimeWrap,
  withoutLineBreaks,
} from '../../../../scripts/hostile/encodings'

const JWT = 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJlLXZhbHVl'

describe('Redactor', () => {
  it('masks registered secrets and any JWT in text', () => {
    const r = new Redactor()
    r.addSecret('demo-pass-4821')
    expect(r.text(`password demo-pass-4821 token ${JWT}`)).toBe(`password ${REDACTED} token [REDACTED-JWT]`)
  })

  it('ignores values too short to be secrets', () => {
    const r = new Redactor()
    r.addSecret('ab')
    expect(r.text('abc')).toBe('abc')
  })

  it('masks secret-looking keys in JSON, deeply, and keeps other fields', () => {
    const r = new Redactor()
    const out = r.json({
      id: 's1',
      secret: { key: 'k' },
      nested: [{ password: 'p', access_token: 't', refresh_token: 'r', url: 'http://x' }],
      success: true,
    })
    expect(out).toEqual({
      id: 's1',
      secret: REDACTED,
      nested: [{ password: REDACTED, access_token: REDACTED, refresh_token: REDACTED, url: 'http://x' }],
      success: true,
    })
  })

  it(
    'learns a secret where it first masks it under its name (a webhook secret, a token), and masks it in every ' +
      'other text',
    () => {
      const r = new Redactor()
      const key = '163e9a0c5b7d4f21a8e6c3b9d0f7a2e4'
      expect(
        r.json({
          id: 's1',
          secret: { algorithm: 'hmac-sha256', key },
          access_token: 'opaque-token-abcdef',
          token_type: 'Bearer',
          nextPageToken: 'cursor-0123456789',
          password: 'short',
        }),
      ).toMatchObject({ secret: REDACTED, access_token: REDACTED })
      expect(r.text(`signed with ${key}, ${Buffer.from(key).toString('base64')}; opaque-token-abcdef`)).toBe(
        `signed with ${REDACTED}, ${REDACTED}; ${REDACTED}`,
      )
      // what describes a secret, a pagination cursor, a token type and a value under 8 characters are not learned
      expect(r.text('hmac-sha256 Bearer cursor-0123456789 short')).toBe('hmac-sha256 Bearer cursor-0123456789 short')
      expect(r.size).toBe(2)
    },
  )

  it('masks credential headers but keeps the scheme', () => {
    const r = new Redactor()
    expect(r.headers({ Authorization: `Bearer ${JWT}`, cookie: 'a=b', 'x-tenant-id': 'acme' })).toEqual({
      Authorization: `Bearer ${REDACTED}`,
      cookie: REDACTED,
      'x-tenant-id': 'acme',
    })
  })

  it('masks registered secrets inside non-secret fields', () => {
    const r = new Redactor()
    r.addSecret('whsec-123456')
    expect(r.json({ note: 'key is whsec-123456' })).toEqual({ note: `key is ${REDACTED}` })
  })

  it('masks a secret in its common encodings: JSON-escaped, URL-encoded, HTML-escaped, base64 and base64url', () => {
    const pw = 'p@ss "w<o>rd"/+&ü'
    const r = new Redactor()
    r.addSecret(pw)
    const spellings = [
      JSON.stringify(pw),
      JSON.stringify(JSON.stringify(pw)),
      encodeURIComponent(pw),
      encodeURIComponent(pw).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()),
      pw.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;'),
      Buffer.from(pw).toString('base64'),
      Buffer.from(pw).toString('base64url'),
    ]
    for (const s of spellings) expect(r.text(`echo: ${s} end`), s).not.toContain(s.replace(/^"|"$/g, '').slice(2, -2))
  })

  it('masks a secret inside a longer base64 text, whatever its alignment (Basic credentials)', () => {
    const r = new Redactor()
    r.addSecret('canary-password-77')
    for (const user of ['a', 'ab', 'abc']) {
      const basic = Buffer.from(`${user}:canary-password-77`).toString('base64')
      const out = r.text(`Authorization: Basic ${basic}`)
      expect(Buffer.from(out.split(' ').pop()!, 'base64').toString()).not.toContain('password-7')
      expect(out).toContain(REDACTED)
    }
  })

  it('masks each part of a registered JWT when echoed on its own', () => {
    const r = new Redactor()
    r.addSecret(JWT)
    const [, payload, signature] = JWT.split('.')
    expect(r.text(`payload ${payload} signature ${signature}`)).toBe(`payload ${REDACTED} signature ${REDACTED}`)
  })

  it('keeps __proto__ and constructor keys as plain keys without touching any prototype', () => {
    const r = new Redactor()
    const parsed = JSON.parse(
      '{"__proto__": {"polluted": 1}, "constructor": {"prototype": {"x": 1}}, "a": 1}',
    ) as object
    const out = r.json(parsed) as Record<string, unknown>
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype)
    expect(JSON.stringify(out)).toBe('{"__proto__":{"polluted":1},"constructor":{"prototype":{"x":1}},"a":1}')
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it('stops at a bounded depth instead of exhausting the stack', () => {
    let deep: unknown = 'leaf'
    for (let i = 0; i < 100_000; i += 1) deep = [deep]
    const out = JSON.stringify(new Redactor().json(deep))
    expect(out).toContain(`deeper than ${MAX_REDACT_DEPTH} levels`)
  })

  it('escapes control characters (ANSI escapes, carriage returns) and keeps newlines and tabs', () => {
    expect(escapeControls('\u001b[32mverdict CONFORMS\u001b[0m\rX\n\tok')).toBe(
      '\\u001b[32mverdict CONFORMS\\u001b[0m\\u000dX\n\tok',
    )
  })
})

describe('SpellingIndex', () => {
  it('changes a text exactly when a search per string finds one of the strings, wherever they sit', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'é', '%'), minLength: 4, maxLength: 12 }), {
          maxLength: 6,
        }),
        fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'é', '%'), maxLength: 60 }),
        (spellings, text) => {
          expect(new SpellingIndex(spellings).replaceIn(text, '#') !== text).toBe(
            spellings.some((s) => text.includes(s)),
          )
        },
      ),
      { numRuns: 500, seed: 7 },
    )
  })

  it('masks exactly what one alternation of the strings, longest first, masks', () => {
    const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: fc.constantFrom('a', 'b', '.', '%'), minLength: 4, maxLength: 10 }), {
          minLength: 1,
          maxLength: 6,
        }),
        fc.string({ unit: fc.constantFrom('a', 'b', '.', '%', 'x'), maxLength: 60 }),
        (spellings, text) => {
          const alternation = new RegExp(
            [...new Set(spellings)]
              .sort((a, b) => b.length - a.length)
              .map(escape)
              .join('|'),
            'g',
          )
          expect(new SpellingIndex(spellings).replaceIn(text, '#')).toBe(text.replace(alternation, '#'))
        },
      ),
      { numRuns: 500, seed: 11 },
    )
  })

  it('masks after strings are added in place exactly what an index built with all of them masks', () => {
    const unit = fc.constantFrom('a', 'b', 'c', 'é', '%')
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit, minLength: 4, maxLength: 12 }), { minLength: 1, maxLength: 4 }),
        fc.array(fc.string({ unit, minLength: 4, maxLength: 12 }), { maxLength: 4 }),
        fc.string({ unit, maxLength: 60 }),
        (first, later, text) => {
          const grown = new SpellingIndex(first)
          const added = grown.add(later)
          // a string shorter than the index's window is refused whole: the caller builds a new index
          expect(added).toBe(later.every((s) => s.length >= Math.min(8, ...first.map((f) => f.length))))
          if (added)
            expect(grown.replaceIn(text, '#')).toBe(new SpellingIndex([...first, ...later]).replaceIn(text, '#'))
        },
      ),
      { numRuns: 500, seed: 13 },
    )
  })

  it(
    'finds a long secret at the start, in the middle and at the very end of a text, and nothing in an empty ' + 'index',
    () => {
      const token = 'eyJhbGciOiJFUzI1NiJ9-secret-part'
      const index = new SpellingIndex([token, 'pass'])
      expect(index.replaceIn(`${token} and more`, '#')).toBe('# and more')
      expect(index.replaceIn(`before ${token} after`, '#')).toBe('before # after')
      expect(index.replaceIn(`ends with ${token}`, '#')).toBe('ends with #')
      expect(index.replaceIn('a pas of nothing', '#')).toBe('a pas of nothing')
      expect(index.replaceIn('xpass', '#')).toBe('x#')
      expect(new SpellingIndex([]).replaceIn('anything', '#')).toBe('anything')
    },
  )
})

describe(
  'a secret in every encoding of issue #31 (scripts/hostile/encodings.ts, written apart from the ' + 'redactor)',
  () => {
    const secrets = [
      'Canary&<pw>"q7x2ab9k+/=',
      'p@ss wörd~(1)*',
      'abcd',
      'longer-secret-with-no-special-characters-0123456789',
    ]

    it('no whole form survives, in any context', () => {
      for (const secret of secrets) {
        const r = new Redactor()
        r.addSecret(secret)
        for (const f of leakForms(secret)) {
          if (f.text.length < 4) continue
          const out = r.text(`before ${f.text} after`)
          expect(out, `${secret}: ${f.name}`).not.toContain(f.text)
          expect(out, `${secret}: ${f.name}`).toContain(REDACTED)
        }
      }
    })

    it(
      'base64 and base64url at every alignment, Basic included: not one character that encodes a bit of the secret ' +
        'survives',
      () => {
        for (const secret of secrets.filter((s) => s.length >= 8)) {
          const r = new Redactor()
          r.addSecret(secret)
          for (const c of base64Contexts(secret)) {
            const out = r.text(`Authorization: Basic ${c.text} end`)
            const masked = out.slice('Authorization: Basic '.length, -' end'.length)
            const at = masked.indexOf(REDACTED)
            expect(at, `${secret}: ${c.name}: ${masked}`).toBeGreaterThanOrEqual(0)
            expect(at, `${secret}: ${c.name}: characters before the mask`).toBeLessThanOrEqual(c.prefixChars)
            const rest = masked.slice(at + REDACTED.length)
            expect(
              rest.replace(/=+$/, '').length,
              `${secret}: ${c.name}: characters after the mask`,
            ).toBeLessThanOrEqual(c.text.replace(/=+$/, '').length - c.suffixFrom)
          }
        }
      },
    )

    it('a header named after a secret is masked by name as well as by value', () => {
      const r = new Redactor()
      r.addSecret('Canary-header-secret')
      const out = r.headers({ 'x-canary-header-secret': 'a', 'x-ok': 'Canary-header-secret' })
      expect(JSON.stringify(out)).not.toMatch(/canary-header-secret/i)
      expect(Object.values(out)).toContain('a')
    })

    it('C0, C1 and bidi controls are escaped (U+009B, U+009D, U+202E, U+2066, U+200F)', () => {
      expect(escapeControls('a\u009b2Jb\u009dc\u202ed\u2066e\u200ff\u061cg')).toBe(
        'a\\u009b2Jb\\u009dc\\u202ed\\u2066e\\u200ff\\u061cg',
      )
    })

    it(
      'MIME-wrapped base64 (76, 64 and 16 characters a line, CRLF and LF, at every alignment): not one character ' +
        'that encodes a bit of the secret survives, raw or JSON-escaped',
      () => {
        for (const secret of secrets.filter((s) => s.length >= 8)) {
          const r = new Redactor()
          r.addSecret(secret)
          for (const c of mimeContexts(secret)) {
            for (const [how, text] of [
              ['raw', c.text],
              ['JSON-escaped', JSON.stringify(c.text).slice(1, -1)],
              ['JSON in JSON', JSON.stringify(JSON.stringify(c.text)).slice(3, -3)],
            ] as const) {
              const out = withoutLineBreaks(r.text(`body: ${text} end`))
              const masked = out.slice('body: '.length, -' end'.length)
              const at = masked.indexOf(REDACTED)
              expect(at, `${secret}: ${c.name}, ${how}: ${masked}`).toBeGreaterThanOrEqual(0)
              expect(at, `${secret}: ${c.name}, ${how}: characters before the mask`).toBeLessThanOrEqual(c.prefixChars)
              expect(
                masked.slice(at + REDACTED.length).replace(/=+$/, '').length,
                `${secret}: ${c.name}, ${how}: characters after the mask`,
              ).toBeLessThanOrEqual(withoutLineBreaks(c.text).replace(/=+$/, '').length - c.suffixFrom)
            }
          }
        }
      },
    )

    it(
      'a secret wrapped at any line width and break position is masked; a wrapped text without a secret is left as ' +
        'it is',
      () => {
        const secret = 'Canary&<pw>"q7x2ab9k+/='
        const r = new Redactor()
        r.addSecret(secret)
        fc.assert(
          fc.property(
            fc.integer({ min: 0, max: 40 }),
            fc.integer({ min: 4, max: 80 }),
            fc.constantFrom('\r\n', '\n', '\r', '\\r\\n', '\\n'),
            (fill, width, eol) => {
              const wrapped = mimeWrap(
                Buffer.concat([Buffer.alloc(fill, 0x7a), Buffer.from(secret), Buffer.from('tail')]).toString('base64'),
                width,
                eol,
              )
              const out = r.text(`x ${wrapped} y`)
              expect(out).toContain(REDACTED)
              const plain = mimeWrap(Buffer.alloc(fill + 30, 0x7a).toString('base64'), width, eol)
              expect(r.text(`x ${plain} y`)).toBe(`x ${plain} y`)
            },
          ),
          { numRuns: 300, seed: 17 },
        )
        // lines of prose are not base64 runs worth a second look, and are kept as they were
        expect(r.text('expected 200\nactual 404\n\\nnext')).toBe('expected 200\nactual 404\n\\nnext')
      },
    )
  },
)

describe('a secret announced with its spellings (docs/performance.md)', () => {
  it('is learned by the listening thread with the spellings the announcing thread computed', async () => {
    const into = new Redactor()
    const stop = listenForWorkerSecrets(into)
    try {
      const secret = `Announced-${Date.now()}-Secret`
      runRedactor().addSecret(secret)
      await vi.waitFor(() => expect(into.size).toBe(1))
      expect(into.spellingsOf(secret)).toEqual(secretSpellings(secret))
      expect(into.text(`a ${Buffer.from(secret).toString('base64')} b`)).not.toContain(
        Buffer.from(secret).toString('base64'),
      )
    } finally {
      stop()
    }
  })

  it('computes the spellings itself when the announced ones are not a list that spells the secret', () => {
    const secret = 'S3cret-value-98765'
    for (const bad of [[{ text: 'something-else-entirely' }], 'not a list', [{ text: 42 }], []]) {
      const r = new Redactor()
      r.learn(secret, bad)
      expect(r.spellingsOf(secret)).toEqual(secretSpellings(secret))
      expect(r.text(`x ${secret} y`)).toBe(`x ${REDACTED} y`)
    }
  })
})
