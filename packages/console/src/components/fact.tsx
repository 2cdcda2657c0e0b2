import type { ComponentChildren } from 'preact';

/** One line of a facts list (`<dl class="facts">`): its term, then its value, or a `code` value as code. */
export function Fact({
  term,
  code,
  children,
}: {
  term: string;
  code?: string;
  children?: ComponentChildren;
}) {
  return (
    <>
      <dt>{term}</dt>
      <dd>{code === undefined ? children : <code>{code}</code>}</dd>
    </>
  );
}
