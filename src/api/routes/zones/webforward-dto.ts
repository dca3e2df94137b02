import { ZonalError } from '../../../errors/catalog.ts'
import type { ForwardAlternative, ForwardMode, HeaderRule, MatchCriteria, RelativeMode } from '../../../forwards/model.ts'
import type { StoredWebForward } from '../../../store/store.ts'
import { WEB_FORWARD_LIMITS, type WebForwardInput } from '../../../zones/web-forwards.ts'
import type { Static } from 'typebox'
import type { WebForwardDto } from '../../schemas/webforwards.ts'

/** The WebForward DTO ⇄ the domain's forward: the API's spellings of types, relative modes and match criteria. */

type Json = Record<string, unknown>

const MODES: ReadonlyArray<[string, ForwardMode]> = [['Framed', 'framed'], ['HTTP_301_REDIRECT', 301], ['HTTP_302_REDIRECT', 302], ['HTTP_303_REDIRECT', 303], ['HTTP_307_REDIRECT', 307]]
const RELATIVE: ReadonlyArray<[string, RelativeMode]> = [['PARAMETER', 'parameter'], ['PATH', 'path'], ['PARAMETER_AND_PATH', 'parameterAndPath']]
const MATCHES: ReadonlyArray<[string, MatchCriteria]> = [['BEGINS_WITH', 'beginsWith'], ['CONTAINS', 'contains'], ['ENDS_WITH', 'endsWith'], ['MATCHES', 'matches']]

/** The API spelling of a forward mode (`HTTP_301_REDIRECT`, `Framed`). */
export function forwardTypeName (mode: ForwardMode): string {
  return MODES.find(([, m]) => m === mode)![0]
}

/** A forward type in any case, or undefined. */
export function forwardModeOf (text: string): ForwardMode | undefined {
  return MODES.find(([name]) => name.toLowerCase() === text.toLowerCase())?.[1]
}

/** The WebForward DTO of a stored forward: `relativeForwardType` and `records` only when there are some. */
export function webForwardDto (f: StoredWebForward): Static<typeof WebForwardDto> {
  return {
    guid: f.id,
    requestTo: f.requestTo,
    defaultRedirectTo: f.redirectTo,
    defaultForwardType: forwardTypeName(f.mode),
    ...(f.relative === 'none' ? {} : { relativeForwardType: RELATIVE.find(([, r]) => r === f.relative)![0] }),
    ...(f.alternatives.length === 0
      ? {}
      : {
          records: f.alternatives.map(a => ({
            redirectTo: a.redirectTo,
            forwardType: forwardTypeName(a.mode),
            priority: a.priority,
            rules: a.rules.map(r => ({ header: r.header, matchCriteria: MATCHES.find(([, m]) => m === r.match)![0], value: r.value, caseInsensitive: r.caseInsensitive }))
          }))
        })
  }
}

const invalid = (detail: string): ZonalError => new ZonalError('WEB_FORWARD_FIELD_INVALID', detail)

function stringField (o: Json, key: string, label: string): string {
  const v = o[key]
  if (v === undefined || v === null) throw new ZonalError('FIELD_REQUIRED', label)
  if (typeof v !== 'string') throw invalid(`${label} must be a string, got ${JSON.stringify(v)}`)
  if (v.trim() === '') throw new ZonalError('FIELD_REQUIRED', label)
  return v.trim()
}

function modeField (o: Json, key: string, label: string): ForwardMode {
  const text = stringField(o, key, label)
  const mode = forwardModeOf(text)
  if (mode === undefined) throw new ZonalError('WEB_FORWARD_TYPE_INVALID', text, label)
  return mode
}

function objectOf (v: unknown, label: string): Json {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw invalid(`${label} must be a JSON object`)
  return v as Json
}

function ruleOf (v: unknown, i: number, j: number): HeaderRule {
  const label = `records[${i}].rules[${j}]`
  const o = objectOf(v, label)
  const header = stringField(o, 'header', `${label}.header`)
  const criteria = stringField(o, 'matchCriteria', `${label}.matchCriteria`)
  const match = MATCHES.find(([name]) => name.toLowerCase() === criteria.toLowerCase())?.[1]
  if (match === undefined) throw invalid(`${label}.matchCriteria '${criteria}' is not one of BEGINS_WITH, CONTAINS, ENDS_WITH, MATCHES`)
  const value = o.value
  if (value === undefined || value === null) throw new ZonalError('FIELD_REQUIRED', `${label}.value`)
  if (typeof value !== 'string') throw invalid(`${label}.value must be a string, got ${JSON.stringify(value)}`)
  const ci = o.caseInsensitive
  if (ci !== undefined && ci !== null && typeof ci !== 'boolean') throw invalid(`${label}.caseInsensitive must be true or false, got ${JSON.stringify(ci)}`)
  return { header, match, value, caseInsensitive: ci === true }
}

function recordOf (v: unknown, i: number): ForwardAlternative {
  const o = objectOf(v, `records[${i}]`)
  const redirectTo = stringField(o, 'redirectTo', `records[${i}].redirectTo`)
  const mode = modeField(o, 'forwardType', `records[${i}].forwardType`)
  const priority = o.priority
  if (priority === undefined || priority === null) throw new ZonalError('FIELD_REQUIRED', `records[${i}].priority`)
  if (typeof priority !== 'number' || !Number.isSafeInteger(priority) || priority < 1) throw invalid(`records[${i}].priority must be a positive integer, got ${JSON.stringify(priority)}`)
  const rules = o.rules
  if (rules === undefined || rules === null) throw new ZonalError('FIELD_REQUIRED', `records[${i}].rules`)
  if (!Array.isArray(rules)) throw invalid(`records[${i}].rules must be a list of rules`)
  if (rules.length === 0) throw new ZonalError('WEB_FORWARD_RULES_EMPTY', i)
  if (rules.length > WEB_FORWARD_LIMITS.rules) throw new ZonalError('WEB_FORWARD_LIMIT', `records[${i}].rules holds ${rules.length} rules`, WEB_FORWARD_LIMITS.rules)
  return { priority, redirectTo, mode, rules: rules.map((r: unknown, j) => ruleOf(r, i, j)) }
}

/**
 * A WebForward DTO read into the domain's input: requestTo, defaultRedirectTo and
 * defaultForwardType required (55001), the types spelled as the API spells them (any case;
 * 59005 for another), relativeForwardType optional, records optional (each with redirectTo,
 * forwardType, priority and a non-empty list of rules). `guid` is not read here (the path names
 * the forward). The URLs and the rules that need the zone are checked by `zones/web-forwards.ts`.
 *
 * @throws ZonalError FIELD_REQUIRED, WEB_FORWARD_TYPE_INVALID, WEB_FORWARD_FIELD_INVALID,
 *   WEB_FORWARD_RULES_EMPTY, WEB_FORWARD_LIMIT
 */
export function webForwardInput (body: unknown): WebForwardInput {
  const o = objectOf(body ?? {}, 'the body (a WebForward DTO)')
  const requestTo = stringField(o, 'requestTo', 'requestTo')
  const redirectTo = stringField(o, 'defaultRedirectTo', 'defaultRedirectTo')
  const mode = modeField(o, 'defaultForwardType', 'defaultForwardType')
  let relative: RelativeMode = 'none'
  if (o.relativeForwardType !== undefined && o.relativeForwardType !== null && o.relativeForwardType !== '') {
    const text = o.relativeForwardType
    const found = typeof text === 'string' ? RELATIVE.find(([name]) => name.toLowerCase() === text.trim().toLowerCase())?.[1] : undefined
    if (found === undefined) throw invalid(`relativeForwardType ${JSON.stringify(text)} is not one of PARAMETER, PATH, PARAMETER_AND_PATH`)
    relative = found
  }
  const records = o.records ?? []
  if (!Array.isArray(records)) throw invalid('records must be a list of records')
  if (records.length > WEB_FORWARD_LIMITS.records) throw new ZonalError('WEB_FORWARD_LIMIT', `records holds ${records.length} records`, WEB_FORWARD_LIMITS.records)
  return { requestTo, redirectTo, mode, relative, alternatives: records.map(recordOf), ...(o.changeComment === undefined ? {} : { changeComment: o.changeComment }) }
}
