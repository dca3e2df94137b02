import type { ComponentChildren } from 'preact'
import { BASE, onLinkClick } from './router.ts'

/** A link to a console page (`to` without the /console prefix). */
export function Link (props: { to: string, children: ComponentChildren, class?: string, 'aria-current'?: 'page' }) {
  return <a href={BASE + props.to} class={props.class} aria-current={props['aria-current']} onClick={onLinkClick}>{props.children}</a>
}
