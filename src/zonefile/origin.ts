/**
 * The zone name a master file gives itself: the name of a `$ORIGIN` directive (RFC 1035 §5.1)
 * that comes before the first record, read line by line (blank lines, comments and `$TTL`
 * may come first).
 *
 * @param lines - the file's lines, in order (only the first few are read)
 * @returns the name as written, or undefined when a record, `$INCLUDE` or `$GENERATE` comes
 *   first, or the file has no lines
 */
export async function leadingOrigin (lines: AsyncIterable<string>): Promise<string | undefined> {
  for await (const raw of lines) {
    const line = raw.replace(/;.*$/, '')
    if (line.trim() === '') continue
    // A line starting with a blank is a record of the previous owner.
    if (/^\s/.test(line)) return undefined
    const [keyword, value] = line.trim().split(/\s+/)
    const directive = keyword!.toUpperCase()
    if (directive === '$TTL') continue
    return directive === '$ORIGIN' ? value : undefined
  }
  return undefined
}
