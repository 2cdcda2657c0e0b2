import type { ComponentChildren } from 'preact';
import { navigate } from '../router.js';

/** A same-app link's click: plain clicks navigate in place; modified clicks open a tab as usual. */
export function follow(href: string) {
  return (e: MouseEvent) => {
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(href);
  };
}

export function Link({
  href,
  children,
  class: className,
}: {
  href: string;
  children: ComponentChildren;
  class?: string;
}) {
  return (
    <a href={href} class={className} onClick={follow(href)}>
      {children}
    </a>
  );
}
