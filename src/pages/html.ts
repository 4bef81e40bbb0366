// The one path HTML takes (STYLE; issue 11): a tagged template whose interpolations are escaped
// unless they are already Html (a nested template, or a trusted constant wrapped with `trusted`).
// Arrays render item by item; null, undefined and false render nothing. The escaping itself is
// escape-html's (the escaper Express uses): & < > " ' in text and in quoted attribute values.
import escapeHtml from 'escape-html';

export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

function piece(value: unknown): string {
  if (value instanceof Html) return value.value;
  if (Array.isArray(value)) return value.map(piece).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += piece(values[i]) + strings[i + 1]!;
  return new Html(out);
}

/** Markup written in this code base (a stylesheet, an SVG icon): never data from a request or the database. */
export const trusted = (markup: string): Html => new Html(markup);

/** JSON for a `<script type="application/json">` block: `<` escaped so the data cannot close the element. */
export const jsonData = (value: unknown): Html => new Html(JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028|\u2029/g, (c) => (c === '\u2028' ? '\\u2028' : '\\u2029')));
