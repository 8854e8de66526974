// Child process of the durability test: registers one passkey through the core functions into
// the credential log under argv[2], reports the credential id and its private key on stdout,
// then waits to be killed.
import { keyRing } from '../../../../src/core/token/keys.js';
import { createRegistrationOptions } from '../../../../src/core/webauthn/createRegistrationOptions.js';
import { verifyRegistration } from '../../../../src/core/webauthn/verifyRegistration.js';
import { openFileCredentialStore } from '../../../../src/store/credentials/FileCredentialStore.js';
import { MemoryStore } from '../../../../src/store/MemoryStore.js';
import { SoftAuthenticator } from '../../../helpers/softAuthenticator.js';

const dataDir = process.argv[2]!;
const deps = {
  config: { mode: 'required' as const, rpId: 'example.com', origins: ['https://example.com'], rpName: 'Ariadne' },
  credentials: await openFileCredentialStore(dataDir),
  store: new MemoryStore({ maxMarkers: 100, maxCounters: 100 }),
  ring: keyRing('durability-secret', []),
};
const auth = new SoftAuthenticator('ES256', 'https://example.com', 'example.com');
const opened = await createRegistrationOptions(deps, { siteKey: 'site-a', stableId: 'user-1' });
if (!opened.ok) throw new Error(opened.code);
const done = await verifyRegistration(deps, { sessionId: opened.session_id, response: auth.register(opened.options) });
if (!done.ok) throw new Error(done.code);
process.stdout.write(
  `${JSON.stringify({ credentialId: done.credential_id, privateKey: auth.privateKey.export({ format: 'pem', type: 'pkcs8' }) })}\n`,
);
setInterval(() => {}, 60_000);
