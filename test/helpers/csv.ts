import assert from 'node:assert/strict'

/** RFC 4180: fields separated by commas, quoted fields with doubled quotes and line breaks, CRLF rows. */
export function parseCsv (text: string): string[][] {
  const rows: string[][] = []
  let row: string[] = []
  let cell = ''
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { cell += '"'; i++ } else if (c === '"') quoted = false
      else cell += c
    } else if (c === '"') quoted = true
    else if (c === ',') { row.push(cell); cell = '' } else if (c === '\r' && text[i + 1] === '\n') { row.push(cell); rows.push(row); row = []; cell = ''; i++ } else cell += c
  }
  assert.equal(cell + row.join(''), '', 'the CSV ends with CRLF')
  return rows
}

/** CSV with a header row as objects of the header's fields. */
export function csvRecords (text: string): Array<Record<string, string>> {
  const [header, ...rows] = parseCsv(text)
  return rows.map(r => Object.fromEntries(header!.map((h, i) => [h, r[i] ?? ''])))
}
