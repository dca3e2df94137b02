/** A row of the class C network report (a Zonal extension of the API). */
export interface NetworkRow {
  accountName: string
  classCNetwork: string
  responseCount: number
}

/** A row of the country code directional response counts report: one zone. */
export interface CountryRow {
  accountName: string
  zoneName: string
  responseCountTotal: number
  responseCountOther: number
  responseCountByCountryCode: Record<string, number>
}

/** Bars and table rows shown; the rest is summed in one line. */
const TOP = 10

const fmt = (n: number): string => n.toLocaleString('en-US')
const share = (n: number, total: number): string => total === 0 ? '0%' : `${(100 * n / total).toFixed(n === total ? 0 : 1)}%`
const regions = new Intl.DisplayNames(['en'], { type: 'region' })

interface Item { key: string, label: string, count: number }

/** The networks summed over accounts (a network may appear under several), most first. */
function networkItems (rows: NetworkRow[]): Item[] {
  const by = new Map<string, number>()
  for (const r of rows) by.set(r.classCNetwork, (by.get(r.classCNetwork) ?? 0) + r.responseCount)
  return [...by].map(([key, count]) => ({ key, label: key, count })).sort((a, b) => b.count - a.count || a.key.localeCompare(b.key))
}

/** The countries summed over zones, most first; unknown and unlisted places as one item. */
function countryItems (rows: CountryRow[]): Item[] {
  const by = new Map<string, number>()
  let other = 0
  for (const r of rows) {
    other += r.responseCountOther
    for (const [code, n] of Object.entries(r.responseCountByCountryCode)) if (n > 0) by.set(code, (by.get(code) ?? 0) + n)
  }
  const items = [...by].map(([key, count]) => ({ key, label: `${regions.of(key) ?? key} (${key})`, count }))
  if (other > 0) items.push({ key: 'other', label: 'Unknown or not listed', count: other })
  return items.sort((a, b) => b.count - a.count || a.label.localeCompare(b.label))
}

/**
 * Horizontal bars of the top items (plain HTML, widths set through the DOM's style object, which
 * the console's CSP allows) with the same numbers in a table beside them.
 */
function Ranking (props: { id: string, title: string, what: string, column: string, items: Item[], total: number }) {
  const top = props.items.slice(0, TOP)
  const rest = props.items.slice(TOP)
  const restCount = rest.reduce((a, i) => a + i.count, 0)
  const max = top[0]?.count ?? 1
  return (
    <section class='ranking' aria-labelledby={props.id}>
      <h3 id={props.id}>{props.title}</h3>
      {top.length === 0
        ? <p class='empty'>No {props.what} in these days.</p>
        : (
          <div class='ranking-body'>
            <figure class='hbars' role='img' aria-label={`Bar chart of responses by ${props.what}, top ${top.length} of ${props.items.length}: ${fmt(props.total)} responses in all`}>
              {top.map(i => (
                <div key={i.key} class='hbar-row'>
                  <span class='hbar-label'>{i.label}</span>
                  <span class='hbar-track'><span class='hbar' style={{ width: `${Math.max(0.5, 100 * i.count / max)}%` }} /></span>
                  <span class='num'>{fmt(i.count)}</span>
                </div>
              ))}
            </figure>
            <div class='table-wrap'>
              <table class='report-data'>
                <caption>Responses by {props.what}</caption>
                <thead><tr><th scope='col'>{props.column}</th><th scope='col' class='num'>Responses</th><th scope='col' class='num'>Share</th></tr></thead>
                <tbody>
                  {top.map(i => <tr key={i.key}><th scope='row'>{i.label}</th><td class='num'>{fmt(i.count)}</td><td class='num'>{share(i.count, props.total)}</td></tr>)}
                  {rest.length > 0 && <tr><th scope='row'>{rest.length} more</th><td class='num'>{fmt(restCount)}</td><td class='num'>{share(restCount, props.total)}</td></tr>}
                </tbody>
                <tfoot><tr><th scope='row'>Total</th><td class='num'>{fmt(props.total)}</td><td class='num'>{share(props.total, props.total)}</td></tr></tfoot>
              </table>
            </div>
          </div>
          )}
    </section>
  )
}

/**
 * The client networks and countries report: the class C networks with the most responses and
 * the responses by country, each as bars with a table. Networks come from the network report,
 * countries from the country code report (its total counts every response, including those of
 * clients past the capture's bound, which belong to no network).
 */
export function ClientsResult (props: { networks: NetworkRow[], countries: CountryRow[] }) {
  const networks = networkItems(props.networks)
  const countries = countryItems(props.countries)
  const countryTotal = props.countries.reduce((a, r) => a + r.responseCountTotal, 0)
  const networkTotal = networks.reduce((a, i) => a + i.count, 0)
  if (countryTotal === 0 && networkTotal === 0) return <p class='empty'>No responses in these days. Queries answered by this service's DNS server are counted by client; try a wider range.</p>
  return (
    <section class='report' aria-labelledby='report-title'>
      <h2 id='report-title'>Client networks and countries</h2>
      <p>Total: <strong>{fmt(countryTotal)}</strong> responses in {props.countries.length} {props.countries.length === 1 ? 'zone' : 'zones'}, to {networks.length} {networks.length === 1 ? 'network' : 'networks'}.</p>
      <div class='rankings'>
        <Ranking id='networks-title' title='Top client networks (class C: IPv4 /24, IPv6 /48)' what='class C network' column='Network' items={networks} total={networkTotal} />
        <Ranking id='countries-title' title='Top countries' what='country' column='Country' items={countries} total={countryTotal} />
      </div>
      <p class='muted'>Countries: IP Geolocation by <a href='https://db-ip.com'>DB-IP</a>. Loopback and private addresses have no country and count as unknown.</p>
    </section>
  )
}
