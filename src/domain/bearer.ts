// The one reader of `Authorization: Bearer <token>` (RFC 6750 §2.1, RFC 9110 §11.1): the scheme is
// case-insensitive, one or more spaces, exactly one token68, optional trailing spaces. Every surface
// (/api/mcp, /api/v1, order creation) reads the header through here.
const BEARER = /^bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

/** The token, or undefined when the header is absent or is not a well-formed Bearer credential. */
export function bearerToken(authorization: string | undefined): string | undefined {
  return authorization === undefined ? undefined : BEARER.exec(authorization)?.[1];
}
