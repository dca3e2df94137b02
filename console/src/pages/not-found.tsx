import { Link } from '../link.tsx'

export function NotFoundPage () {
  return (
    <section>
      <h1>Page not found</h1>
      <p>The console has no page at this address. Go to the <Link to='/zones'>zones</Link>.</p>
    </section>
  )
}

const NAMES: Record<string, { title: string, api: string }> = {
  reports: { title: 'Reports', api: 'the report endpoints' }
}

/** A section the console does not show yet: says so, and where the API has it. */
export function NotBuiltPage (props: { section: string }) {
  const name = NAMES[props.section]!
  return (
    <section>
      <h1>{name.title}</h1>
      <p>This console does not show {name.title.toLowerCase()} yet. The API has them: {name.api}, described in the <a href='/docs'>API documentation</a>.</p>
    </section>
  )
}
