import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { context, OWNER, refused, valid } from './helpers.ts'

const DIR = context('DirPool')
const TWO = ['192.168.1.5', '192.168.1.2']

/** The Terraform provider's documented DIR pool of type A, as its Go SDK sends it. */
const TF_DIR = {
  '@context': DIR,
  description: '',
  conflictResolve: 'IP',
  ignoreECS: true,
  rdataInfo: [
    { allNonConfigured: true, ttl: 800 },
    {
      geoInfo: { name: 'geo_group', codes: ['NAM', 'EUR'], isExistingGroupFromPool: false },
      ipInfo: { name: 'ip_group', ips: [{ address: '200.1.1.1' }, { start: '200.1.1.2', end: '200.1.1.5' }, { cidr: '200.20.20.0/24' }] }
    }
  ],
  noResponse: {
    geoInfo: { name: 'geo_response_group', codes: ['AG'], isExistingGroupFromPool: false },
    ipInfo: { name: 'ip_response_group', ips: [{ address: '2.2.2.2' }] }
  }
}

describe('DIR pool profile', () => {
  it('stores the Terraform example with sorted geo codes and defaults filled', () => {
    assert.deepEqual(valid(TF_DIR, TWO), {
      '@context': DIR,
      description: '',
      conflictResolve: 'IP',
      ignoreECS: true,
      rdataInfo: [
        { ttl: 800, allNonConfigured: true },
        {
          allNonConfigured: false,
          geoInfo: { name: 'geo_group', codes: ['EUR', 'NAM'], isExistingGroupFromPool: false, forceOverlap: false, isAccountLevel: false },
          ipInfo: { name: 'ip_group', ips: [{ address: '200.1.1.1' }, { start: '200.1.1.2', end: '200.1.1.5' }, { cidr: '200.20.20.0/24' }], isExistingGroupFromPool: false, isAccountLevel: false }
        }
      ],
      noResponse: {
        allNonConfigured: false,
        geoInfo: { name: 'geo_response_group', codes: ['AG'], isExistingGroupFromPool: false, forceOverlap: false, isAccountLevel: false },
        ipInfo: { name: 'ip_response_group', ips: [{ address: '2.2.2.2' }], isExistingGroupFromPool: false, isAccountLevel: false }
      }
    })
  })

  it('applies to more types than A and AAAA (MX, TXT, CNAME…), not to SOA or NS', () => {
    const p = valid({ '@context': DIR, rdataInfo: [{ allNonConfigured: true, type: 'MX' }] }, ['2 mail.example.org.'], 15)
    assert.deepEqual(p, { '@context': DIR, description: OWNER, conflictResolve: 'GEO', ignoreECS: false, rdataInfo: [{ allNonConfigured: true }] })
    valid({ '@context': DIR, rdataInfo: [{ allNonConfigured: true }] }, ['target.example.org.'], 5)
    refused({ '@context': DIR, rdataInfo: [{ allNonConfigured: true }] }, 70004, 'CNAME', ['ns1.example.org.'], 2)
  })

  it('refuses an rdataInfo count mismatch (90001)', () => {
    refused({ ...TF_DIR, rdataInfo: [{ allNonConfigured: true }] }, 90001, '1 entries for 2 rdata', TWO)
  })

  it('refuses geo codes that are not country codes or regions, naming the code', () => {
    const geo = (codes: unknown): unknown => ({ '@context': DIR, rdataInfo: [{ geoInfo: { name: 'g', codes } }] })
    refused(geo(['us']), 110004, 'profile.rdataInfo[0].geoInfo.codes[0]')
    refused(geo(['US', 'USA']), 110004, 'profile.rdataInfo[0].geoInfo.codes[1]')
    refused(geo([]), 110004, 'profile.rdataInfo[0].geoInfo.codes')
    refused(geo('US'), 110004, 'profile.rdataInfo[0].geoInfo.codes')
    assert.deepEqual((valid(geo(['US', 'A1', 'US', 'CA']) as object).rdataInfo as { geoInfo: { codes: string[] } }[])[0]!.geoInfo.codes, ['A1', 'CA', 'US'])
  })

  it('refuses a territory in two groups, and two catch-all records', () => {
    refused({ ...TF_DIR, noResponse: { geoInfo: { name: 'n', codes: ['EUR'] } } }, 110004, 'EUR is already in profile.rdataInfo[1]', TWO)
    refused({ ...TF_DIR, rdataInfo: [{ allNonConfigured: true }, { allNonConfigured: true }] }, 110004, 'profile.rdataInfo[1].allNonConfigured', TWO)
    refused({ ...TF_DIR, noResponse: { allNonConfigured: true } }, 110004, 'profile.noResponse.allNonConfigured', TWO)
  })

  it('refuses a record without a group, a group without name, and bad IP forms', () => {
    refused({ '@context': DIR, rdataInfo: [{ ttl: 60 }] }, 110004, 'profile.rdataInfo[0] needs allNonConfigured, geoInfo or ipInfo')
    refused({ '@context': DIR, rdataInfo: [{ geoInfo: { codes: ['US'] } }] }, 110004, 'profile.rdataInfo[0].geoInfo.name')
    const ips = (list: unknown): unknown => ({ '@context': DIR, rdataInfo: [{ ipInfo: { name: 'i', ips: list } }] })
    refused(ips([{ address: '300.1.1.1' }]), 110004, 'profile.rdataInfo[0].ipInfo.ips[0].address')
    refused(ips([{ cidr: '10.0.0.0/33' }]), 110004, 'profile.rdataInfo[0].ipInfo.ips[0].cidr')
    refused(ips([{ start: '10.0.0.9', end: '10.0.0.1' }]), 110004, 'profile.rdataInfo[0].ipInfo.ips[0].end')
    refused(ips([{ start: '10.0.0.1', end: '2001:db8::1' }]), 110004, 'profile.rdataInfo[0].ipInfo.ips[0]')
    refused(ips([{ address: '10.0.0.1', cidr: '10.0.0.0/8' }]), 110004, 'profile.rdataInfo[0].ipInfo.ips[0]')
    refused(ips([{ start: '10.0.0.1' }]), 110004, 'profile.rdataInfo[0].ipInfo.ips[0]')
    assert.deepEqual(((valid(ips([{ cidr: '2001:DB8::/32' }])) as { rdataInfo: { ipInfo: { ips: unknown } }[] }).rdataInfo[0]!.ipInfo.ips), [{ cidr: '2001:db8::/32' }])
  })

  it('refuses bad values and unknown keys naming the field', () => {
    refused({ '@context': DIR, conflictResolve: 'ASN', rdataInfo: [{ allNonConfigured: true }] }, 110004, 'profile.conflictResolve')
    refused({ '@context': DIR, rdataInfo: [{ allNonConfigured: true, ttl: -1 }] }, 110004, 'profile.rdataInfo[0].ttl')
    refused({ '@context': DIR, rdataInfo: [{ allNonConfigured: true, type: 'AAAA' }] }, 110004, 'profile.rdataInfo[0].type')
    refused({ '@context': DIR, rdataInfo: [{ allNonConfigured: true, weight: 2 }] }, 70008, 'profile.rdataInfo[0].weight')
    refused({ '@context': DIR, rdataInfo: [{ geoInfo: { name: 'g', codes: ['US'], region: 'x' } }] }, 70008, 'profile.rdataInfo[0].geoInfo.region')
  })
})
