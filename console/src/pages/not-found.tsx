import { Link } from '../link.tsx'

export function NotFoundPage () {
  return (
    <section>
      <h1>Page not found</h1>
      <p>The console has no page at this address. Go to the <Link to='/zones'>zones</Link>.</p>
    </section>
  )
}
