// A server process with passkeys required and credentials under argv[2]; prints its port on
// stdout once listening. Started (and killed) by tests.
import { defaultConfig } from '../../../src/config.js';
import { createServer } from '../../../src/http/createServer.js';
import { openFileCredentialStore } from '../../../src/store/credentials/FileCredentialStore.js';
import { SCORING_OFF } from '../../helpers/server.js';

const [dataDir, rpId, origin] = process.argv.slice(2) as [string, string, string];
const server = await createServer({
  config: defaultConfig({
    powDifficulty: 4,
    rateLimitPerMinute: 0,
    signingSecret: 'passkey-server-secret-0123456789abcdef',
    scoring: SCORING_OFF,
  }),
  passkeys: {
    config: { mode: 'required', rpId, origins: [origin], rpName: 'Ariadne' },
    credentials: await openFileCredentialStore(dataDir),
  },
});
process.stdout.write(`${await server.listen('127.0.0.1', 0)}\n`);
