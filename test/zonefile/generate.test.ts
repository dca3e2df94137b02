/* eslint-disable no-template-curly-in-string -- BIND $GENERATE modifiers are written ${offset,width,base} */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { expandTemplate, GenerateError, parseRange, rangeCount } from '../../src/zonefile/generate.ts'

describe('$GENERATE templates', () => {
  // Expected values were checked with BIND 9.18 named-compilezone.
  const cases: Array<[string, number, string]> = [
    ['host$', 7, 'host7'],
    ['$.$', 3, '3.3'],
    ['${10,3}', 5, '015'],
    ['${-1,4,x}', 0, 'ffffffff'],
    ['x${0,4,x}', 10, 'x000a'],
    ['y${0,2,X}', 10, 'y0A'],
    ['${16,0,X}', 10, '1A'],
    ['${0,0,o}', 255, '377'],
    ['${-300,3}', 300, '000'],
    ['${-5,3,d}', 2, '-03'],
    ['${+1}', 1, '2'],
    ['${0,3,n}', 0, '0.0'],
    ['${0,3,n}', 10, 'a.0'],
    ['${0,7,N}', 10, 'A.0.0.0'],
    ['${0,4,n}', 10, 'a.0.'],
    ['${0,5,N}', 300, 'C.2.1'],
    ['${0,0,n}', 0x1234, '4.3.2.1'],
    ['a$$b', 1, 'a$b'],
    ['a\\$b', 1, 'a\\$b'],
    ['\\065$', 1, '\\0651'],
    ['${1}junk}', 1, '2junk}'],
    ['plain', 9, 'plain']
  ]
  for (const [template, it_, expected] of cases) {
    it(`${template} at ${it_} is ${expected}`, () => assert.equal(expandTemplate(template, it_), expected))
  }

  it('rejects bad modifiers, widths over 127 and negative nibbles', () => {
    for (const bad of ['${x}', '${1,}', '${1,2,z}', '${1,2,dd}', '${', '${1', '${0,128}', '${-5,0,n}']) {
      assert.throws(() => expandTemplate(bad, 1), GenerateError, bad)
    }
  })

  it('rejects values beyond a C int', () => {
    assert.throws(() => expandTemplate('${2147483647}', 1), GenerateError)
  })

  it('parses ranges as BIND does', () => {
    assert.deepEqual(parseRange('1-3'), { start: 1, stop: 3, step: 1 })
    assert.deepEqual(parseRange('0-10/5'), { start: 0, stop: 10, step: 5 })
    assert.deepEqual(parseRange('4-4'), { start: 4, stop: 4, step: 1 })
    for (const bad of ['3-1', '1-3/0', 'a-b', '1-', '-1-3', '1-3/', '1 - 3', '1-9999999999']) assert.equal(parseRange(bad), undefined, bad)
    assert.equal(rangeCount({ start: 0, stop: 10, step: 5 }), 3)
    assert.equal(rangeCount({ start: 1, stop: 3, step: 2 }), 2)
  })
})
