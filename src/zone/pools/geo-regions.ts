/**
 * The region codes of directional pools' geo groups (NAM, SAM, EUR, AFR, ASI, OCN, ANT) and the
 * ISO 3166 countries in each, by the continents GeoNames assigns (the ones MaxMind and DB-IP
 * use). A table, not logic: a country missing here is placed by its own code only.
 */
const REGIONS: Record<string, string> = {
  NAM: 'AG AI AW BB BL BM BQ BS BZ CA CR CU CW DM DO GD GL GP GT HN HT JM KN KY LC MF MQ MS MX NI PA PM PR SV SX TC TT US VC VG VI',
  SAM: 'AR BO BR CL CO EC FK GF GY PE PY SR UY VE',
  EUR: 'AD AL AT AX BA BE BG BY CH CY CZ DE DK EE ES FI FO FR GB GG GI GR HR HU IE IM IS IT JE LI LT LU LV MC MD ME MK MT NL NO PL PT RO RS RU SE SI SJ SK SM UA VA XK',
  AFR: 'AO BF BI BJ BW CD CF CG CI CM CV DJ DZ EG EH ER ET GA GH GM GN GQ GW KE KM LR LS LY MA MG ML MR MU MW MZ NA NE NG RE RW SC SD SH SL SN SO SS ST SZ TD TG TN TZ UG YT ZA ZM ZW',
  ASI: 'AE AF AM AZ BD BH BN BT CC CN CX GE HK ID IL IN IO IQ IR JO JP KG KH KP KR KW KZ LA LB LK MM MN MO MV MY NP OM PH PK PS QA SA SG SY TH TJ TL TM TR TW UZ VN YE',
  OCN: 'AS AU CK FJ FM GU KI MH MP NC NF NR NU NZ PF PG PN PW SB TK TO TV UM VU WF WS',
  ANT: 'AQ BV GS HM TF'
}

const REGION_OF = new Map<string, string>()
for (const [region, countries] of Object.entries(REGIONS)) for (const c of countries.split(' ')) REGION_OF.set(c, region)

/** The region code of an ISO 3166 alpha-2 country code (upper case), if the table has it. */
export function regionOf (country: string): string | undefined {
  return REGION_OF.get(country)
}
