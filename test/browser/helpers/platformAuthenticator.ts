import type { CDPSession, Page } from 'playwright-core';

/**
 * A virtual platform authenticator on `page`, through the DevTools protocol: CTAP2, built in,
 * resident keys, user verification that succeeds and presence given without a prompt. It is the
 * passkey a person keeps on their device, answering the widget's WebAuthn calls for real.
 */
export async function addPlatformAuthenticator(page: Page): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}
