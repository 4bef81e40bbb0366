// Values that arrive as text (a query string, argv) read as the JSON type an input schema asks for.
// What does not fit is passed on unchanged, so the schema refuses it with its own field message.

export interface JsonSchemaLike {
  type?: string;
  enum?: unknown[];
  items?: JsonSchemaLike;
  description?: string;
  properties?: Record<string, JsonSchemaLike>;
  required?: string[];
}

const NUMBER = /^-?\d+(?:\.\d+)?(?:e[+-]?\d+)?$/i;

export function scalarFromText(schema: JsonSchemaLike, text: string): unknown {
  switch (schema.type) {
    case 'integer':
    case 'number':
      return NUMBER.test(text.trim()) ? Number(text) : text;
    case 'boolean':
      return /^(true|yes|1)$/i.test(text) ? true : /^(false|no|0)$/i.test(text) ? false : text;
    default:
      return text;
  }
}

export const isNumberText = (text: string): boolean => NUMBER.test(text.trim());
