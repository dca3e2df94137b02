/** Country names and codes: the stored name (`countryName`) goes back to its ISO code (`countryCode`) through the same ICU data. */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { countryCode, countryName } from '../../src/analytics/geoip.ts'
import { REPORT_COUNTRY_CODES } from '../../src/reports/country-code.ts'

describe('countryCode', () => {
  it('gives back the code of every country the country code report lists, from the name stored for it', () => {
    for (const code of REPORT_COUNTRY_CODES) {
      if (code === 'AN') continue
      assert.equal(countryCode(countryName(code)), code, `${code} (${countryName(code)})`)
    }
  })

  it('keeps the canonical code where ICU names a retired one the same (AN and CW are both Curaçao; UK is GB)', () => {
    assert.equal(countryName('AN'), countryName('CW'))
    assert.equal(countryCode(countryName('AN')), 'CW')
    assert.equal(countryCode(countryName('UK')), 'GB')
    assert.equal(countryCode('united states'), 'US')
    assert.equal(countryCode('côte d’ivoire'), 'CI')
  })

  it('answers \'\' for an unknown place and for names that are no region; a two-letter name (a code ICU had no name for) upper-cased', () => {
    assert.equal(countryCode(''), '')
    assert.equal(countryCode('atlantis'), '')
    assert.equal(countryCode('United States'), '', 'stored names are lower-case')
    assert.equal(countryCode('aa'), 'AA')
  })
})
