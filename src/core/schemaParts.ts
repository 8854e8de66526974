import { type TSchema, Type } from '@sinclair/typebox';

// Shorthands of the typebox schemas: answers (a challenge, http/responses.ts), requests (http/schemas.ts), the sites file.

/** An object that accepts no field beyond those listed: a field not listed is a bug. */
export const closed = <T extends Record<string, TSchema>>(properties: T, description?: string) =>
  Type.Object(properties, { additionalProperties: false, ...(description === undefined ? {} : { description }) });
export const opt = <T extends TSchema>(t: T) => Type.Optional(t);
export const int = (description?: string) => Type.Integer(description === undefined ? {} : { description });
/** `test: true` on what a test site key or secret answers. */
export const TEST_MARK = opt(Type.Literal(true, { description: 'The answer of a test key or secret, not of a check' }));
