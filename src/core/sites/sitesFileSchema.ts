/**
 * The sites file (SITES_FILE), as a typebox schema: start-up and every reload validate against
 * it, and unknown fields are errors (a typo must not silently fall back to a default).
 */
import { type Static, Type } from '@sinclair/typebox';
import { closed, opt } from '../schemaParts.js';
import { MAX_MAZE_SIDE, MIN_MAZE_SIDE } from '../../kernel/types.js';
import { MAX_ISSUERS, MAX_ISSUER_NAME_LENGTH } from '../privacyPass/PrivacyPassIssuer.js';
import { DEFAULT_PASSKEY_DOOR_PER_HOUR, MAX_PASSKEY_DOOR_PER_HOUR, MAX_POW_DIFFICULTY } from './SitePolicy.js';
import { KEYBOARD_DOOR_LIMITS, KEYBOARD_DOOR_MODES } from '../keyboard/KeyboardDoorPolicy.js';

/** Characters and length of a site key in a sites file. */
export const SITE_KEY_PATTERN = '^[A-Za-z0-9._-]{1,128}$';
/** Shortest /siteverify secret a site may have. */
export const MIN_SITE_SECRET_LENGTH = 32;
/** Most hostnames one site may list. */
export const MAX_HOSTNAMES = 100;

const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
/** A lowercase hostname, `*.` and a hostname (any subdomain), an IPv4 address, or an IPv6 address in brackets. */
const HOSTNAME = `^(?:\\*\\.)?${LABEL}(?:\\.${LABEL})*$|^\\[[0-9a-f:.]+\\]$`;

const int = (minimum: number, maximum: number, description: string) => Type.Integer({ minimum, maximum, description });
const fraction = (description: string) => Type.Number({ minimum: 0, maximum: 1, description });

export const PolicySchema = closed(
  {
    pow: opt(
      closed(
        {
          difficulty: opt(int(0, MAX_POW_DIFFICULTY, 'Leading zero bits asked of a quiet client (default POW_DIFFICULTY)')),
          max_difficulty: opt(int(0, MAX_POW_DIFFICULTY, 'Ceiling of adaptive proof of work (default difficulty + 4, at most 32)')),
          free_per_minute: opt(
            int(1, 1_000_000, 'Challenges per client and minute before the difficulty rises (default POW_FREE_PER_MINUTE)'),
          ),
        },
        'Proof of work',
      ),
    ),
    maze: opt(
      closed(
        {
          width: opt(int(MIN_MAZE_SIDE, MAX_MAZE_SIDE, 'Cells across')),
          height: opt(int(MIN_MAZE_SIDE, MAX_MAZE_SIDE, 'Cells down')),
          difficulty: opt(fraction('Maze difficulty')),
        },
        'Maze size and difficulty',
      ),
    ),
    probe_probability: opt(fraction('Share of challenges with a colour-tap probe')),
    passkeys: opt(
      closed(
        {
          mode: Type.Union([Type.Literal('off'), Type.Literal('preferred'), Type.Literal('required')]),
          rp_id: opt(Type.String({ minLength: 1, maxLength: 253, description: 'Relying-party id (default WEBAUTHN_RP_ID)' })),
          origins: opt(
            Type.Array(Type.String({ minLength: 1, maxLength: 512 }), {
              minItems: 1,
              maxItems: 32,
              description: 'Page origins (default WEBAUTHN_ORIGIN)',
            }),
          ),
          rp_name: opt(Type.String({ minLength: 1, maxLength: 128 })),
          without_maze: opt(
            closed(
              {
                per_hour: opt(
                  int(
                    1,
                    MAX_PASSKEY_DOOR_PER_HOUR,
                    `Passes without a maze per passkey and hour (default ${DEFAULT_PASSKEY_DOOR_PER_HOUR})`,
                  ),
                ),
              },
              'Open the passkey door: a returning passkey passes without a maze (docs/doors.md); mode must not be off',
            ),
          ),
        },
        'Passkeys',
      ),
    ),
    scoring: opt(
      closed(
        {
          mode: opt(Type.Union([Type.Literal('enforce'), Type.Literal('shadow'), Type.Literal('off')])),
          keyboard_mode: opt(
            Type.Union([Type.Literal('enforce'), Type.Literal('shadow'), Type.Literal('off')], {
              description: "The mode for keyboard solves (default: this site's mode when given, else SCORING_KEYBOARD_MODE)",
            }),
          ),
          threshold: opt(fraction("Lowest accepted score (default: table_file's threshold when given, else SCORE_THRESHOLD)")),
          table_file: opt(
            Type.String({
              minLength: 1,
              maxLength: 4096,
              description:
                'A scoring table for this site (as `ariadne calibrate --fit` writes one), relative to the sites file; default SCORING_TABLE',
            }),
          ),
        },
        'Behavioural scoring',
      ),
    ),
    keyboard: opt(
      closed(
        {
          door: opt(
            Type.Union(
              KEYBOARD_DOOR_MODES.map((m) => Type.Literal(m)),
              { description: 'auto (default KEYBOARD_DOOR): people first until a surge; or pin people_first, strict or surge' },
            ),
          ),
          floor_per_minute: opt(
            Type.Number({
              minimum: KEYBOARD_DOOR_LIMITS.floorPerMinute.min,
              maximum: KEYBOARD_DOOR_LIMITS.floorPerMinute.max,
              description: 'Baseline keyboard tokens per minute of a site that has learned less (default KEYBOARD_FLOOR_PER_MINUTE)',
            }),
          ),
          surge_factor: opt(
            Type.Number({
              minimum: KEYBOARD_DOOR_LIMITS.surgeFactor.min,
              maximum: KEYBOARD_DOOR_LIMITS.surgeFactor.max,
              description: 'A surge: keyboard tokens and their share above this many times the baseline (default KEYBOARD_SURGE_FACTOR)',
            }),
          ),
          calm_minutes: opt(
            int(
              KEYBOARD_DOOR_LIMITS.calmMinutes.min,
              KEYBOARD_DOOR_LIMITS.calmMinutes.max,
              'Minutes under half the surge level before a surge ends (default KEYBOARD_CALM_MINUTES)',
            ),
          ),
          client_per_hour: opt(
            int(
              KEYBOARD_DOOR_LIMITS.clientPerHour.min,
              KEYBOARD_DOOR_LIMITS.clientPerHour.max,
              'Keyboard tokens a client may earn an hour before its keyboard solves are scored strictly; 0 off (default KEYBOARD_CLIENT_PER_HOUR)',
            ),
          ),
        },
        'The keyboard door and its budget',
      ),
    ),
    privacy_pass: opt(
      closed(
        {
          issuers: Type.Array(
            closed(
              {
                name: Type.String({
                  minLength: 1,
                  maxLength: MAX_ISSUER_NAME_LENGTH,
                  description: 'The issuer name token challenges carry (a host name)',
                }),
                token_key: Type.String({
                  minLength: 1,
                  maxLength: 1024,
                  description: "The issuer's token key, base64url (its directory's `token-key`)",
                }),
              },
              'A trusted issuer and one of its keys',
            ),
            {
              maxItems: MAX_ISSUERS,
              description: 'Issuers whose type 0x0002 tokens pass without a maze; [] closes the door (default PRIVACY_PASS_ISSUERS)',
            },
          ),
        },
        'Privacy Pass (docs/doors.md)',
      ),
    ),
    remoteip: opt(
      Type.Union([Type.Literal('flag'), Type.Literal('reject')], {
        description: 'A /siteverify remoteip other than the solving address: report it, or fail',
      }),
    ),
  },
  'The site policy; every field defaults to the server-wide setting',
);

export const SiteSchema = closed(
  {
    hostnames: Type.Array(Type.String({ pattern: HOSTNAME, maxLength: 255 }), {
      minItems: 1,
      maxItems: MAX_HOSTNAMES,
      description: 'Hostnames of the pages that may show the widget ("*.example.com": any subdomain)',
    }),
    secret: Type.String({ minLength: MIN_SITE_SECRET_LENGTH, maxLength: 256, description: 'The /siteverify secret of this site' }),
    policy: opt(PolicySchema),
  },
  'One site',
);

export const SitesFileSchema = Type.Object(
  {
    $schema: opt(Type.String()),
    sites: Type.Record(Type.String({ pattern: SITE_KEY_PATTERN }), SiteSchema, {
      additionalProperties: false,
      description: 'Site key -> site',
    }),
  },
  { additionalProperties: false },
);

export type SitesFile = Static<typeof SitesFileSchema>;
export type SiteInFile = Static<typeof SiteSchema>;
export type PolicyInFile = Static<typeof PolicySchema>;
