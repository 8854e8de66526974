import { randomBytes } from 'node:crypto';
import { formatId } from '../../src/core/challenge/challengeIdBytes.js';

/**
 * A well-formed challenge id carrying `createdAt` (ms), with random other bytes: enough for code
 * that only reads the id's clear creation time (a session token's claims), not a genuine one.
 */
export function challengeIdAt(createdAt: number): string {
  return formatId(createdAt.toString(16).padStart(12, '0') + randomBytes(10).toString('hex'));
}
