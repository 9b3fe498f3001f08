import { describe, expect, it } from 'vitest'
import { parseJsonc, stripJsonComments } from '../../../common/config/jsonc'

describe('jsonc', () => {
  it('strips line and block comments but keeps strings intact', () => {
    const text = '{\n // a comment\n "url": "http://x//y", /* block\n comment */ "n": 1 }'
    expect(parseJsonc(text)).toEqual({ url: 'http://x//y', n: 1 })
  })

  it('keeps escaped quotes inside strings', () => {
    expect(parseJsonc('{"a": "say \\"hi\\" // not a comment"}')).toEqual({ a: 'say "hi" // not a comment' })
  })

  it('keeps line numbers of block comments for error messages', () => {
    expect(stripJsonComments('/*\n\n*/x').split('\n')).toHaveLength(3)
  })
})
