/**
 * A scoring table as a file may hold it (a site's policy.scoring.table_file), as a typebox
 * schema: unknown fields are errors, and every number the scorer divides by or takes the log of
 * is bounded away from what would make a score not a number.
 */
import { Type } from '@sinclair/typebox';
import { FEATURE_NAMES } from '../../kernel/features.js';
import { KEYBOARD_FEATURE_NAMES } from './keyboard/measureKeyboard.js';

/** Most terms one input type's model may weigh (the shipped ones weigh at most 44). */
export const MAX_TABLE_TERMS = 200;
/** Most gates one input type's model may have (the shipped ones have at most 2). */
export const MAX_TABLE_GATES = 16;

const finite = (description?: string) => Type.Number({ minimum: -1e6, maximum: 1e6, ...(description ? { description } : {}) });

const FeatureSchema = Type.Union([...FEATURE_NAMES, ...KEYBOARD_FEATURE_NAMES].map((name) => Type.Literal(name)));

const TermSchema = Type.Object(
  {
    feature: FeatureSchema,
    transform: Type.Union([Type.Literal('identity'), Type.Literal('log')]),
    center: finite(),
    scale: Type.Number({ exclusiveMinimum: 0, maximum: 1e6 }),
    weight: finite(),
    missing: Type.Optional(Type.Number({ minimum: -4, maximum: 4 })),
    fold: Type.Optional(Type.Boolean()),
    onlyLowers: Type.Optional(Type.Boolean()),
    bounded: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

const GateSchema = Type.Object({ feature: FeatureSchema, below: finite() }, { additionalProperties: false });

const InputTableSchema = Type.Object(
  {
    bias: finite(),
    terms: Type.Array(TermSchema, { maxItems: MAX_TABLE_TERMS }),
    gates: Type.Optional(Type.Array(GateSchema, { maxItems: MAX_TABLE_GATES })),
    boundedFloor: Type.Optional(Type.Number({ minimum: 0, maximum: 1e6 })),
  },
  { additionalProperties: false },
);

export const ScoringTableSchema = Type.Object(
  {
    version: Type.String({ minLength: 1, maxLength: 64 }),
    threshold: Type.Number({ minimum: 0, maximum: 1 }),
    types: Type.Object(
      { mouse: InputTableSchema, touch: InputTableSchema, pen: InputTableSchema, keyboard: InputTableSchema },
      { additionalProperties: false },
    ),
    probe: Type.Object(
      { minReactionMs: Type.Number({ exclusiveMinimum: 0, maximum: 1e6 }), weight: Type.Number({ minimum: 0, maximum: 1e6 }) },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
