// The servers the benchmark compares, in the order it runs them; each is built by servers.ts.
export const TARGETS = [
  'koa',
  'koa+authenticate',
  'koa+authenticate(no result cache)',
  'koa+koa-jwt+jwks-rsa',
  'express+express-oauth2-jwt-bearer',
] as const;

export type Target = (typeof TARGETS)[number];
