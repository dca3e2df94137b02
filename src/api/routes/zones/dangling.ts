import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply } from 'fastify'
import { stringify } from 'csv-stringify/sync'
import { Type, type Static } from 'typebox'
import { danglingPage, parseDanglingQuery, readDanglingReport, requestDanglingScan, type DanglingPage } from '../../../reports/dangling-dns.ts'
import type { DanglingFinding } from '../../../store/store.ts'
import { typeName } from '../../../zone/rrtype.ts'
import type { Clock } from '../../../util/time.ts'
import type { ZoneDeps } from '../../../zones/context.ts'
import { DanglingQuerystring, DanglingReportDto } from '../../schemas/dangling.ts'
import { ErrorBody } from '../../schemas/common.ts'
import { wantsCsv } from '../reports/csv.ts'
import { callerOf } from './index.ts'
import { versionOf } from './report-version.ts'

const ZoneParams = Type.Object({ zoneName: Type.String({ minLength: 1, maxLength: 1024 }) })
const AnyBody = Type.Unknown({ description: 'None ({} as the clients send it is ignored)' })
const CSV_COLUMNS = ['host', 'type', 'recordData', 'ultimateTarget', 'description'] as const

/** A name as the report shows it: without the final dot (the real API's example). */
function shown (name: string): string {
  return name === '.' ? name : name.replace(/\.$/, '')
}

function recordDto (f: DanglingFinding): { host: string, type: string, recordData: string, ultimateTarget: string, description: string } {
  return { host: shown(f.ownerName), type: typeName(f.type), recordData: shown(f.rdataText), ultimateTarget: shown(f.ultimateTarget), description: f.description }
}

function reportDto (page: DanglingPage): Static<typeof DanglingReportDto> {
  const records = page.findings.map(recordDto)
  return {
    version: versionOf(page.version),
    zone: page.zone,
    status: page.status,
    ...(page.message === undefined ? {} : { message: page.message }),
    resultInfo: { totalCount: page.totalCount, offset: page.offset, returnedCount: records.length, order: page.order },
    danglingRecordList: records,
    danglingRecordsList: records
  }
}

/** The page's records as CSV (RFC 4180, header row, formula cells neutralised as the audit log's are). */
function reportCsv (page: DanglingPage): string {
  return stringify(page.findings.map(recordDto), { header: true, columns: [...CSV_COLUMNS], record_delimiter: 'windows', escape_formulas: true })
}

/**
 * The dangling DNS report (spec "Dangling DNS report"): `POST /v1/zones/{zone}/healthchecks/dangling`
 * starts a scan of the zone's CNAME records through the recursive resolvers (a task) and answers
 * 200 with the report as it stands (IN_PROGRESS); `GET` the same path answers the latest report,
 * a page of it (JSON, or CSV with `Accept: text/csv`). The rules live in `reports/dangling-dns.ts`.
 */
export const danglingRoutes: FastifyPluginAsyncTypebox<{ zones: ZoneDeps, clock: Clock, tasks?: { wake (): void } }> = async (app, { zones, clock, tasks }) => {
  const tags = ['reports']

  app.post('/zones/:zoneName/healthchecks/dangling', {
    schema: {
      tags,
      summary: 'Start a dangling DNS scan of a primary zone (at most 20,000 records): every CNAME target followed through the recursive resolvers',
      description: 'Answers 200 with the report as it stands (IN_PROGRESS); while a scan of the zone runs, that scan\'s report (no second scan). Read it with GET on the same path.',
      params: ZoneParams,
      body: AnyBody,
      response: { 200: DanglingReportDto, '4xx': ErrorBody }
    }
  }, async (request, reply) => {
    const { zone, report, started } = await requestDanglingScan(zones, callerOf(request), request.params.zoneName, clock)
    if (started) tasks?.wake()
    reply.header('location', `/v1/zones/${zone.name.replace(/\//g, '%2F')}/healthchecks/dangling`)
    return reportDto(danglingPage(zone.name, report, parseDanglingQuery({})))
  })

  app.get('/zones/:zoneName/healthchecks/dangling', {
    schema: {
      tags,
      summary: 'The zone\'s latest dangling DNS report, a page of it',
      description: 'Accept: text/csv gives the page\'s records as CSV with a header row.',
      params: ZoneParams,
      querystring: DanglingQuerystring,
      response: { 200: DanglingReportDto, '4xx': ErrorBody }
    }
  }, async (request, reply) => {
    const query = parseDanglingQuery(request.query)
    const page = await readDanglingReport(zones, callerOf(request), request.params.zoneName, query)
    if (wantsCsv(request)) {
      return await (reply as FastifyReply).header('content-type', 'text/csv; charset=utf-8').send(Buffer.from(reportCsv(page)))
    }
    return reportDto(page)
  })
}
