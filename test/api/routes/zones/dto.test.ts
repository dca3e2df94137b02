import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { registrarInfoDto, transferStatusDto } from '../../../../src/api/routes/zones/dto.ts'

describe('registrarInfo', () => {
  const ours = ['ns1.zonal.test.', 'ns2.zonal.test.']

  it('sorts the apex NS names into ok, missing and incorrect against this service\'s name servers', () => {
    assert.deepEqual(registrarInfoDto(null, ['NS1.zonal.test.', 'ns.other.example.'], ours).nameServers, {
      ok: ['NS1.zonal.test.'],
      missing: ['ns2.zonal.test.'],
      incorrect: ['ns.other.example.']
    })
    // Names compare without case and trailing dot (ZONAL_NAMESERVERS may be written either way).
    assert.deepEqual(registrarInfoDto(null, ['ns1.zonal.test.', 'ns2.zonal.test.'], ['NS1.ZONAL.TEST', 'ns2.zonal.test']).nameServers, {
      ok: ['ns1.zonal.test.', 'ns2.zonal.test.'], missing: [], incorrect: []
    })
    assert.deepEqual(registrarInfoDto(null, [], ours).nameServers, { ok: [], missing: ours, incorrect: [] })
  })

  it('shows the stored registrar and expiry (yyyy-MM-dd HH:mm:ss) when known', () => {
    const dto = registrarInfoDto({ registrar: 'Example Registrar', whoisExpiration: '2027-01-02T03:04:05.000Z' }, [], [])
    assert.deepEqual(dto, { registrar: 'Example Registrar', whoisExpiration: '2027-01-02 03:04:05', nameServers: { ok: [], missing: [], incorrect: [] } })
  })
})

describe('transferStatusDetails', () => {
  const times = { lastRefresh: '2026-11-22T15:04:05.000Z', nextRefresh: '2026-11-22T16:04:05.000Z' }
  const shown = { lastRefresh: '11/22/26 03:04:05 PM GMT', nextRefresh: '11/22/26 04:04:05 PM GMT' }

  it('is empty before any transfer was asked for', () => {
    assert.deepEqual(transferStatusDto(null), {})
  })

  it('shows each phase as the status and message the API has always answered', () => {
    assert.deepEqual(transferStatusDto({ phase: { kind: 'requested', full: false } }), { lastRefreshStatus: 'IN_PROGRESS', lastRefreshStatusMessage: 'Zone transfer requested' })
    assert.deepEqual(transferStatusDto({ phase: { kind: 'requested', full: true }, ...times }), { ...shown, lastRefreshStatus: 'IN_PROGRESS', lastRefreshStatusMessage: 'Full zone transfer requested' })
    assert.deepEqual(transferStatusDto({ phase: { kind: 'running' } }), { lastRefreshStatus: 'IN_PROGRESS', lastRefreshStatusMessage: 'Zone transfer in progress' })
    assert.deepEqual(transferStatusDto({ phase: { kind: 'succeeded', serial: 7, changed: true }, ...times }), { ...shown, lastRefreshStatus: 'SUCCESSFUL', lastRefreshStatusMessage: 'Transferred serial 7' })
    assert.deepEqual(transferStatusDto({ phase: { kind: 'succeeded', serial: 7, changed: false } }), { lastRefreshStatus: 'SUCCESSFUL', lastRefreshStatusMessage: 'Zone is up to date at serial 7' })
    assert.deepEqual(transferStatusDto({ phase: { kind: 'failed', reason: 'TSIG BADSIG' } }), { lastRefreshStatus: 'FAILED', lastRefreshStatusMessage: 'TSIG BADSIG' })
  })
})
